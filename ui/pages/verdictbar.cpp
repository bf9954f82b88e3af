// SPDX-License-Identifier: GPL-3.0-or-later
#include "verdictbar.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace ui {

namespace {

/// The objective combo's items, in the order of model::ObjectiveKind.
constexpr model::ObjectiveKind kKinds[] = {model::ObjectiveKind::Et, model::ObjectiveKind::EnergyCapped,
                                           model::ObjectiveKind::P95Tardiness, model::ObjectiveKind::CostPerDay};

/// Labels as the verdict shows them; a label that several runs share gets their row number.
std::vector<std::string> uniqueLabels(const std::vector<VerdictBar::Entry>& entries)
{
    std::map<std::string, int> count;
    for (const auto& e : entries)
        ++count[e.label];
    std::vector<std::string> labels;
    for (size_t i = 0; i < entries.size(); ++i) {
        std::string l = entries[i].label;
        if (count[l] > 1) {
            l += " #";
            l += std::to_string(i + 1);
        }
        labels.push_back(l);
    }
    return labels;
}

} // namespace

VerdictBar::VerdictBar(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("verdictBar"));
    setupWidgets();
    connectSignals();
    recompute();
}

void VerdictBar::setupWidgets()
{
    m_objective = new QComboBox;
    m_objective->setObjectName(QStringLiteral("objectiveBox"));
    m_objective->addItems({tr("ET"), tr("Energy, avg tardiness ≤"), tr("p95 tardiness"), tr("Cost per day")});
    m_objective->setToolTip(tr("What the runs are ranked on (lower is better; docs/planning.md, Verdicts)"));
    m_limit = new QDoubleSpinBox;
    m_limit->setObjectName(QStringLiteral("tardinessLimitBox"));
    m_limit->setRange(0.0, 1e6);
    m_limit->setDecimals(1);
    m_limit->setValue(5.0);
    m_limit->setSuffix(tr(" min"));
    m_limit->setToolTip(tr("Runs whose average tardiness is above this rank after the others"));
    m_limit->setVisible(false);
    m_baseline = new QComboBox;
    m_baseline->setObjectName(QStringLiteral("baselineBox"));
    m_baseline->setToolTip(tr("The run every other is compared with, in % (paired by seed)"));
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_sentence = new QLabel;
    m_sentence->setObjectName(QStringLiteral("verdictLabel"));
    m_sentence->setWordWrap(true);
    m_sentence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_sentence->font();
    bold.setBold(true);
    m_sentence->setFont(bold);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Rank on")));
    row->addWidget(m_objective);
    row->addWidget(m_limit);
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Baseline")));
    row->addWidget(m_baseline);
    row->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_sentence);
}

void VerdictBar::connectSignals()
{
    connect(m_objective, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_limit->setVisible(index == 1);
        recompute();
    });
    connect(m_limit, &QDoubleSpinBox::valueChanged, this, [this] { recompute(); });
    connect(m_baseline, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_updating || index < 0)
            return;
        m_baselineKey = m_baseline->itemData(index).toInt();
        m_baselineChosen = true;
        recompute();
    });
}

void VerdictBar::setEntries(std::vector<Entry> entries)
{
    // Pages call this on every progress tick: only a real change rebuilds the baseline list.
    const auto same = [](const Entry& a, const Entry& b) {
        return a.key == b.key && a.label == b.label && a.metrics.et == b.metrics.et &&
               a.metrics.energyWmin == b.metrics.energyWmin && a.metrics.avgTardinessMin == b.metrics.avgTardinessMin &&
               a.metrics.p95TardinessMin == b.metrics.p95TardinessMin;
    };
    if (entries.size() == m_entries.size() && std::equal(entries.begin(), entries.end(), m_entries.begin(), same))
        return;
    m_entries = std::move(entries);
    refreshBaselines();
    recompute();
}

void VerdictBar::refreshBaselines()
{
    const bool kept =
        std::any_of(m_entries.begin(), m_entries.end(), [this](const Entry& e) { return e.key == m_baselineKey; });
    // Until the user picks one, the baseline is the first run in the page's order, whichever run
    // finished first (runs end in any order on the worker threads).
    if (!kept || !m_baselineChosen)
        m_baselineKey = m_entries.empty() ? 0 : m_entries.front().key;
    const std::vector<std::string> labels = uniqueLabels(m_entries);
    m_updating = true;
    m_baseline->clear();
    for (size_t i = 0; i < m_entries.size(); ++i)
        m_baseline->addItem(QString::fromStdString(labels[i]), m_entries[i].key);
    m_baseline->setCurrentIndex(m_baseline->findData(m_baselineKey));
    m_baseline->setEnabled(m_entries.size() > 1);
    m_updating = false;
}

void VerdictBar::recompute()
{
    m_verdict.reset();
    if (!m_entries.empty()) {
        model::VerdictInput in;
        in.labels = uniqueLabels(m_entries);
        size_t baseline = 0;
        const bool priced =
            std::all_of(m_entries.begin(), m_entries.end(), [](const Entry& e) { return e.costPerDay.has_value(); });
        for (size_t i = 0; i < m_entries.size(); ++i) {
            in.metrics.push_back({m_entries[i].metrics});
            if (priced)
                in.costPerDay.push_back({*m_entries[i].costPerDay});
            if (m_entries[i].key == m_baselineKey)
                baseline = i;
        }
        const auto o = objective();
        if (o.kind == model::ObjectiveKind::CostPerDay && !priced) {
            m_sentence->setText(tr("Ranking on cost needs prices: set them in the scenario's cost settings "
                                   "(Overview › Cost and carbon…)."));
            emit verdictChanged();
            return;
        }
        m_verdict = model::makeVerdict(in, o, baseline);
    }
    m_sentence->setText(sentence());
    emit verdictChanged();
}

QString VerdictBar::sentence() const
{
    if (!m_verdict)
        return tr("No finished run to rank yet.");
    return QString::fromStdString(m_verdict->sentence);
}

const model::RankedRun* VerdictBar::ranked(int key) const
{
    if (!m_verdict)
        return nullptr;
    for (size_t i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].key == key)
            return &m_verdict->of(i);
    return nullptr;
}

model::Objective VerdictBar::objective() const
{
    model::Objective o;
    o.kind = kKinds[std::clamp(m_objective->currentIndex(), 0, static_cast<int>(std::size(kKinds)) - 1)];
    o.tardinessLimitMin = o.kind == model::ObjectiveKind::EnergyCapped ? m_limit->value() : 0.0;
    return o;
}

int VerdictBar::baselineKey() const
{
    return m_baselineKey;
}

void VerdictBar::setObjective(const model::Objective& objective)
{
    const auto it = std::find(std::begin(kKinds), std::end(kKinds), objective.kind);
    if (objective.kind == model::ObjectiveKind::EnergyCapped)
        m_limit->setValue(objective.tardinessLimitMin);
    m_objective->setCurrentIndex(static_cast<int>(it - std::begin(kKinds)));
}

void VerdictBar::setBaselineKey(int key)
{
    const int index = m_baseline->findData(key);
    if (index >= 0) {
        m_baselineChosen = true;
        m_baseline->setCurrentIndex(index);
    }
}

} // namespace ui

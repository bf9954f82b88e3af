// SPDX-License-Identifier: GPL-3.0-or-later
#include "planstaticpanel.h"

#include "layouteditorcommands.h"
#include "planjob.h"
#include "planjobexport.h"
#include "simulation.h"
#include "units.h"
#include "workspace.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QThread>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <atomic>
#include <limits>
#include <set>

namespace ui {

/// The search on its worker thread (ui/planjob.h).
struct StaticSearchJob : PlanJob<model::StaticSearchResult>
{
    size_t seeds = 1;
    std::shared_ptr<const model::Scenario> scenario; ///< the scenario searched
};

namespace {

/// The table's columns (a named scope: the day-plan panel has its own, with some of the same names).
namespace col {
enum Column { Rank, Configurations, Layout, Et, VsCurrent, Energy, AvgTardiness, P95Tardiness, EtBound, Columns };
} // namespace col

QString layoutsText(const model::Scenario& scenario, const model::LayoutScore& score)
{
    // One entry per distinct layout, with its count, in the fleet's order: "2 x 4g.20gb+3g.20gb".
    QStringList parts;
    const auto gpus = scenario.fleetGpus();
    std::vector<std::pair<std::string, int>> counted;
    for (size_t i = 0; i < score.layouts.size() && i < gpus.size(); ++i) {
        const std::string text = simcore::layoutText(*gpus[i].model, score.layouts[i]);
        if (!counted.empty() && counted.back().first == text)
            ++counted.back().second;
        else
            counted.emplace_back(text, 1);
    }
    for (const auto& [text, n] : counted)
        parts << (n > 1 ? QStringLiteral("%1 × %2").arg(n).arg(QString::fromStdString(text))
                        : QString::fromStdString(text));
    return parts.join(QStringLiteral("; "));
}

} // namespace

PlanStaticPanel::PlanStaticPanel(Workspace* workspace, QUndoStack* undo, QWidget* parent)
    : QWidget(parent), m_workspace(workspace), m_undo(undo), m_poll(new QTimer(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(createControls());
    m_verdict = new QLabel(tr("Search the fleet's layouts to see which static layout serves this day best."));
    m_verdict->setObjectName(QStringLiteral("planVerdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_verdict->font();
    bold.setBold(true);
    m_verdict->setFont(bold);
    layout->addWidget(m_verdict);
    m_table = new QTableWidget(0, col::Columns);
    m_table->setObjectName(QStringLiteral("planTable"));
    m_table->setHorizontalHeaderLabels({tr("Rank"), tr("Configurations"), tr("Layouts"), tr("ET"), tr("vs current"),
                                        tr("Energy (kWh)"), tr("Avg tardiness (min)"), tr("p95 tardiness (min)"),
                                        tr("ET lower bound")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(col::Layout, QHeaderView::Stretch);
    m_table->horizontalHeaderItem(col::VsCurrent)
        ->setToolTip(tr("ET difference to the current layout, paired by seed, with its 95% interval"));
    m_table->horizontalHeaderItem(col::EtBound)->setToolTip(tr("A lower bound of the layout's ET (docs/planning.md)"));
    layout->addWidget(m_table, 1);
    auto* buttons = new QHBoxLayout;
    m_apply = new QPushButton(tr("Apply selected layout"));
    m_apply->setObjectName(QStringLiteral("planApply"));
    m_apply->setToolTip(tr("Give the fleet the selected layout (Edit > Undo takes it back)"));
    m_apply->setEnabled(false);
    m_export = new QPushButton(tr("Export as cluster job folder…"));
    m_export->setObjectName(QStringLiteral("planExport"));
    m_export->setToolTip(tr("Write this search as a Slurm job folder (scenario, command, sbatch script) to run on a "
                            "cluster node; its session opens here with the result"));
    buttons->addWidget(m_export);
    buttons->addStretch(1);
    buttons->addWidget(m_apply);
    layout->addLayout(buttons);
    connect(m_export, &QPushButton::clicked, this, [this] {
        if (!m_workspace->scenario())
            return;
        const QString message = askAndWriteJobFolder(this, *m_workspace->scenario(), staticJobSpec(searchOptions()));
        if (!message.isEmpty())
            m_status->setText(message);
    });

    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, &PlanStaticPanel::pollProgress);
    connect(m_search, &QPushButton::clicked, this, [this] { startSearch(); });
    connect(m_controls.cancel, &QPushButton::clicked, this, &PlanStaticPanel::cancelSearch);
    connect(m_apply, &QPushButton::clicked, this, [this] { applySelected(); });
    connect(m_table, &QTableWidget::itemSelectionChanged, this,
            [this] { m_apply->setEnabled(m_result && !m_result->best.empty() && !isSearching()); });
    connect(m_workspace, &Workspace::scenarioChanged, this, [this] {
        fillCandidateLists();
        updateStale();
    });
    connect(m_workspace->studies(), &Studies::restored, this, &PlanStaticPanel::showStudy);
    fillCandidateLists();
}

void PlanStaticPanel::showStudy()
{
    cancelSearch(); // a search still running belongs to the previous document
    const auto& study = m_workspace->studies()->staticSearch();
    m_result = study.result;
    m_searched = study.scenario;
    m_table->setRowCount(0);
    m_verdict->clear();
    m_status->clear();
    if (m_result) {
        showResult();
        updateStale();
    }
    m_apply->setEnabled(m_result && !m_result->best.empty() && !isSearching());
}

PlanStaticPanel::~PlanStaticPanel()
{
    if (m_job)
        m_job->stopAndWait();
}

QWidget* PlanStaticPanel::createControls()
{
    auto* box = new QWidget;
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    auto* form = new QFormLayout;
    m_candidates = new QComboBox;
    m_candidates->setObjectName(QStringLiteral("planCandidates"));
    m_candidates->setToolTip(tr("The configurations each GPU may take"));
    connect(m_candidates, &QComboBox::activated, this, [this] { m_userChoseCandidates = true; });
    form->addRow(tr("Candidates:"), m_candidates);
    m_method = new QComboBox;
    m_method->setObjectName(QStringLiteral("planMethod"));
    m_method->addItem(tr("Exhaustive up to 200,000 layouts, else local"), int(model::SearchMethod::Auto));
    m_method->addItem(tr("Exhaustive (every layout, exact top list)"), int(model::SearchMethod::Exhaustive));
    m_method->addItem(tr("Local (descents from the current and uniform layouts)"), int(model::SearchMethod::Local));
    m_method->setToolTip(tr("Exhaustive search proves the top list; local search scales to any fleet but "
                            "may miss the best layout (docs/planning.md)"));
    form->addRow(tr("Method:"), m_method);
    m_seeds = new QSpinBox;
    m_seeds->setObjectName(QStringLiteral("planSeeds"));
    m_seeds->setRange(1, 100);
    m_seeds->setValue(1);
    m_seeds->setMaximumWidth(90);
    m_seeds->setToolTip(tr("Days (seeds 1..N) every layout is scored over; more seeds give an interval"));
    form->addRow(tr("Seeds:"), m_seeds);
    m_top = new QSpinBox;
    m_top->setRange(1, 100);
    m_top->setValue(10);
    m_top->setMaximumWidth(90);
    m_top->setToolTip(tr("How many of the best layouts to list"));
    form->addRow(tr("Show best:"), m_top);
    row->addLayout(form);
    m_controls = StudyControls::addTo(row, tr("Search"), QStringLiteral("plan"), QStringLiteral("Search"));
    m_search = m_controls.run;
    m_progress = m_controls.progress;
    m_status = m_controls.status;
    return box;
}

void PlanStaticPanel::fillCandidateLists()
{
    const auto scenario = m_workspace->scenario();
    const QString current = m_candidates->currentData().toString();
    m_candidates->clear();
    m_candidates->addItem(tr("Each group's own configuration list"), QString());
    m_candidates->addItem(tr("Every maximal layout of the board"), QStringLiteral("maximal"));
    std::set<std::string> names;
    if (scenario) {
        for (const auto& g : scenario->fleet) {
            for (const auto& list : g.model->configLists)
                names.insert(list.name);
        }
    }
    for (const auto& name : names)
        m_candidates->addItem(tr("List %1").arg(QString::fromStdString(name)), QString::fromStdString(name));
    // A fleet group without a configuration list has no "own list": start from the maximal layouts.
    const bool ownLists = scenario && std::all_of(scenario->fleet.begin(), scenario->fleet.end(),
                                                  [](const model::FleetGroup& g) { return !g.configList.empty(); });
    if (auto* items = qobject_cast<QStandardItemModel*>(m_candidates->model()))
        items->item(0)->setEnabled(ownLists);
    // The user's choice stays while the scenario allows it; otherwise the default of this fleet.
    const int i = m_userChoseCandidates ? m_candidates->findData(current) : -1;
    m_candidates->setCurrentIndex(i >= 0 && (i > 0 || ownLists) ? i : (ownLists ? 0 : 1));
}

bool PlanStaticPanel::isSearching() const
{
    return m_job != nullptr;
}

model::StaticSearchOptions PlanStaticPanel::searchOptions() const
{
    model::StaticSearchOptions o;
    o.candidates = m_candidates->currentData().toString().toStdString();
    o.seeds.clear();
    for (int s = 1; s <= m_seeds->value(); ++s)
        o.seeds.push_back(static_cast<std::uint64_t>(s));
    o.top = static_cast<size_t>(m_top->value());
    o.method = static_cast<model::SearchMethod>(m_method->currentData().toInt());
    return o;
}

bool PlanStaticPanel::exportJobFolder(const QString& dir)
{
    if (!m_workspace->scenario())
        return false;
    m_status->setText(writeJobFolderTo(dir, *m_workspace->scenario(), staticJobSpec(searchOptions())));
    return !m_status->text().startsWith(tr("No job folder"));
}

bool PlanStaticPanel::startSearch()
{
    const auto scenario = m_workspace->scenario();
    if (isSearching() || !scenario)
        return false;
    auto job = std::make_shared<StaticSearchJob>();
    model::StaticSearchOptions o = searchOptions();
    o.threads = planThreads();
    o.progress = [job = job.get()](size_t settled, size_t total) { return job->keepGoing(settled, total); };
    o.cancel = &job->cancel; // seen within 64 engine steps, not only at the next progress report
    job->seeds = o.seeds.size();
    m_job = job;
    job->scenario = scenario;
    setSearching(true);
    m_status->setText(tr("Preparing the layouts…"));
    job->start(
        this, [scenario, o](model::Problems& problems) { return model::searchStaticLayouts(*scenario, o, problems); },
        &PlanStaticPanel::onFinished);
    return true;
}

void PlanStaticPanel::cancelSearch()
{
    if (m_job)
        m_controls.requestCancel(m_job->cancel);
}

void PlanStaticPanel::setSearching(bool searching)
{
    m_search->setEnabled(!searching);
    m_candidates->setEnabled(!searching);
    m_method->setEnabled(!searching);
    m_seeds->setEnabled(!searching);
    m_top->setEnabled(!searching);
    m_apply->setEnabled(!searching && m_result && !m_result->best.empty());
    m_controls.setRunning(searching, m_poll);
}

void PlanStaticPanel::pollProgress()
{
    if (!m_job || m_job->done == 0)
        return;
    const size_t total = m_job->total;
    const size_t settled = m_job->done;
    const QLocale locale;
    if (total == 0) { // a local search: its length is not known in advance
        m_status->setText(tr("Local search: %1 layouts scored").arg(locale.toString(qulonglong(settled))));
        return;
    }
    // The bar counts in per-mille so that spaces above INT_MAX layouts fit.
    m_progress->setRange(0, 1000);
    m_progress->setValue(static_cast<int>(1000.0 * static_cast<double>(settled) / static_cast<double>(total)));
    m_status->setText(
        tr("%1 of %2 layouts settled").arg(locale.toString(qulonglong(settled)), locale.toString(qulonglong(total))));
}

void PlanStaticPanel::onFinished()
{
    auto job = std::move(m_job);
    job->release();
    if (showStudyEnd(*job, m_progress, m_status, tr("Search cancelled; the previous results (if any) are kept."),
                     tr("The search failed: %1"))) {
        m_result = std::move(job->result);
        m_searched = job->scenario;
        m_workspace->studies()->setStaticSearch({m_result, m_searched});
        m_workspace->setModified(true); // the session keeps the study
        showResult();
    }
    setSearching(false);
    updateStale();
    emit searchEnded();
}

void PlanStaticPanel::fillRow(int row, const model::LayoutScore& score, const QString& rank)
{
    const QLocale locale;
    const size_t seeds = m_result->current.etBySeed.size();
    auto set = [&](int column, const QString& text, bool right = true) {
        auto* item = new QTableWidgetItem(text);
        if (right)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, column, item);
    };
    set(col::Rank, rank, false);
    set(col::Configurations, QString::fromStdString(model::configurationsText(score)), false);
    set(col::Layout, layoutsText(*m_searched, score), false);
    m_table->item(row, col::Layout)->setToolTip(m_table->item(row, col::Layout)->text());
    set(col::Et, locale.toString(score.et, 'f', 5));
    set(col::VsCurrent,
        QString::fromStdString(model::percentText(model::etDifferencePercent(score, m_result->current), seeds)));
    set(col::Energy, locale.toString(score.energyWmin / simcore::kWminPerKwh, 'f', 2));
    set(col::AvgTardiness, locale.toString(score.avgTardinessMin, 'f', 3));
    set(col::P95Tardiness, locale.toString(score.p95TardinessMin, 'f', 2));
    set(col::EtBound, score.boundEt > 0.0 ? locale.toString(score.boundEt, 'f', 5) : tr("–"));
}

void PlanStaticPanel::showResult()
{
    const auto& r = *m_result;
    const QLocale locale;
    m_table->setRowCount(static_cast<int>(r.best.size()) + 1);
    for (size_t i = 0; i < r.best.size(); ++i)
        fillRow(static_cast<int>(i), r.best[i], QString::number(i + 1));
    const int currentRow = static_cast<int>(r.best.size());
    fillRow(currentRow, r.current, r.currentInSpace ? tr("current") : tr("current (not a candidate)"));
    QFont italic = m_table->font();
    italic.setItalic(true);
    for (int c = 0; c < col::Columns; ++c)
        m_table->item(currentRow, c)->setFont(italic);
    const size_t seeds = r.current.etBySeed.size();
    QString verdict = tr("Verdict: %1").arg(QString::fromStdString(model::staticVerdict(r, seeds)));
    m_verdict->setText(verdict);
    const QString space = r.layouts == std::numeric_limits<size_t>::max() ? tr("more than 10^19")
                                                                          : locale.toString(qulonglong(r.layouts));
    const QString how = r.exhaustive ? tr("Exhaustive over %1 layouts").arg(space)
                                     : tr("Local search in %1 layouts (the best of those visited, not a proven "
                                          "optimum)")
                                           .arg(space);
    m_status->setText(tr("%1: %2 simulated to the end, %3 stopped early by their running bound, "
                         "%4 skipped by their lower bound, %5 unrunnable")
                          .arg(how, locale.toString(qulonglong(r.simulated)),
                               locale.toString(qulonglong(r.stoppedEarly)), locale.toString(qulonglong(r.skipped)),
                               locale.toString(qulonglong(r.unrunnable))));
    if (!r.best.empty())
        m_table->selectRow(0);
}

void PlanStaticPanel::updateStale()
{
    if (!m_result || isSearching())
        return;
    const auto scenario = m_workspace->scenario();
    if (scenario && scenario != m_searched && !sameFleetGroups(*scenario, *m_searched))
        m_status->setText(tr("The fleet changed since this search: search again before applying."));
}

bool PlanStaticPanel::applySelected()
{
    const auto scenario = m_workspace->scenario();
    if (!m_result || m_result->best.empty() || isSearching() || !scenario)
        return false;
    if (!sameFleetGroups(*scenario, *m_searched)) {
        m_status->setText(tr("The fleet changed since this search: search again before applying."));
        return false;
    }
    int row = m_table->currentRow();
    if (row < 0 || row >= static_cast<int>(m_result->best.size()))
        row = 0;
    const auto& chosen = m_result->best[static_cast<size_t>(row)];
    Fleet after = scenario->fleet;
    size_t gpu = 0;
    for (auto& g : after) {
        for (auto& layout : g.layouts)
            layout = chosen.layouts[gpu++];
    }
    m_undo->push(new FleetEditCommand(
        m_workspace, scenario->fleet, std::move(after),
        tr("Apply planned layout %1").arg(QString::fromStdString(model::configurationsText(chosen)))));
    m_status->setText(tr("Applied layout %1 to the fleet (Edit > Undo takes it back).")
                          .arg(QString::fromStdString(model::configurationsText(chosen))));
    return true;
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparepage.h"

#include "barschart.h"
#include "cost.h"
#include "ganttchart.h"
#include "palette.h"
#include "powerchart.h"
#include "report_data.h"
#include "results.h"
#include "serieschart.h"
#include "units.h"
#include "verdictbar.h"
#include "whatiftrace.h"
#include "workspace.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

#include <set>

namespace ui {

namespace {

using simcore::kWminPerKwh;

/// Why a run's shown result is stale: updating while the re-run computes (or waits for the
/// debounce); otherwise why no update is coming.
QString staleReason(const RunSpec& spec)
{
    switch (spec.state) {
    case RunState::Cancelled:
        return ComparePage::tr("re-run cancelled");
    case RunState::Failed:
        return ComparePage::tr("re-run failed");
    case RunState::Current:
    case RunState::Running:
        break;
    }
    return ComparePage::tr("updating…");
}

/// " — rank 2, +3.1%" (or ", baseline") for a ranked run (docs/planning.md, "Verdicts").
QString rankHtml(const model::RankedRun* r)
{
    if (!r)
        return QString();
    QString t = ComparePage::tr(" — rank %1").arg(r->rank);
    if (!r->feasible)
        t += ComparePage::tr(" (over T)");
    return t + QStringLiteral(", ") + QString::fromStdString(model::versusBaselineText(*r));
}

/// Energy with its cost and carbon under a run's name (docs/planning.md, Cost and carbon).
QString costLine(const RunSnapshot& run)
{
    const auto cost = model::scenarioRunCost(*run.scenario, *run.result);
    if (!cost)
        return {};
    const QLocale locale;
    return ComparePage::tr("<br><small>%1 kWh · %2 %3/day · %4 kg CO2/day</small>")
        .arg(locale.toString(run.result->metrics.energyWmin / kWminPerKwh, 'f', 1),
             QString::fromStdString(cost->currency).toHtmlEscaped(), locale.toString(cost->totalPerDay, 'f', 2),
             locale.toString(cost->carbonKgPerDay, 'f', 1));
}

QString headerHtml(int column, const RunSpec& spec, const model::RankedRun* ranked)
{
    QString state;
    if (spec.running() && !spec.latest)
        state = ComparePage::tr(" — <i>running…</i>");
    else if (spec.stale() || spec.running())
        state = ComparePage::tr(" — <i>stale, %1</i>").arg(staleReason(spec));
    else if (spec.state == RunState::Failed)
        state = ComparePage::tr(" — failed");
    else if (spec.state == RunState::Cancelled)
        state = ComparePage::tr(" — cancelled");
    QString html = QStringLiteral("<span style='color:%1'>■</span> <b>%2</b> %3%4%5")
                       .arg(runColour(column).name(), QString(QChar(u'A' + column)), spec.label().toHtmlEscaped(),
                            state, rankHtml(ranked));
    if (spec.latest)
        html += costLine(*spec.latest);
    return html;
}

} // namespace

ComparePage::ComparePage(Workspace* workspace, QWidget* parent) : QWidget(parent), m_workspace(workspace)
{
    setObjectName(QStringLiteral("comparePage"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(createPicker());
    m_verdict = new VerdictBar;
    layout->addWidget(m_verdict);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(createCharts());
    layout->addWidget(scroll, 1);
    m_settle = new QTimer(this);
    m_settle->setObjectName(QStringLiteral("compareSettle"));
    m_settle->setSingleShot(true);
    m_settle->setInterval(kSettleMs);
    connect(m_settle, &QTimer::timeout, this, [this] {
        m_settleExpired = true; // the runs still going have had their time: show what is done
        refresh();
        m_settleExpired = false;
    });
    connectSignals();
    refreshPickers();
    refresh();
}

QWidget* ComparePage::createPicker()
{
    auto* bar = new QWidget;
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < kMaxRuns; ++i) {
        auto* box = new QComboBox;
        box->setObjectName(QStringLiteral("comparePicker%1").arg(i));
        box->setMinimumContentsLength(10); // the window must still fit 1024 px
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        row->addWidget(new QLabel(QStringLiteral("<span style='color:%1'>■</span> <b>%2</b>")
                                      .arg(runColour(i).name(), QString(QChar(u'A' + i)))));
        row->addWidget(box, 1);
        m_pickers[static_cast<size_t>(i)] = box;
    }
    auto* reset = new QPushButton(tr("Whole run")); // as the charts' menu says
    reset->setToolTip(tr("Show the whole run on every chart (or double-click a chart)"));
    connect(reset, &QPushButton::clicked, this, [this] {
        if (!timeCharts().empty())
            timeCharts().front()->resetView();
    });
    row->addWidget(reset);
    return bar;
}

void ComparePage::connectSignals()
{
    for (ChartWidget* chart : timeCharts())
        connect(chart, &ChartWidget::timeRangeChanged, this,
                [this, chart](double lower, double upper) { syncTime(chart, lower, upper); });
    for (QComboBox* box : m_pickers)
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            if (!m_updatingPickers)
                refresh();
        });
    for (auto signal : {&Workspace::runsChanged, &Workspace::variantsChanged})
        connect(m_workspace, signal, this, [this] {
            refreshPickers();
            refresh();
        });
    connect(m_workspace, &Workspace::runSpecChanged, this, [this](int key) {
        if (runs().contains(key))
            refresh();
    });
    connect(m_verdict, &VerdictBar::verdictChanged, this, &ComparePage::refreshHeaders);
    // Only the bounds' marks: the lines and bars change with the shown results (see refresh()).
    connect(m_workspace, &Workspace::boundsChanged, this, &ComparePage::refreshBars);
}

void ComparePage::refreshPickers()
{
    m_updatingPickers = true;
    for (QComboBox* box : m_pickers) {
        const int current = box->currentData().toInt();
        box->clear();
        box->addItem(tr("(none)"), 0);
        for (const RunSpec& spec : m_workspace->runs())
            box->addItem(spec.label(), spec.key);
        box->setCurrentIndex(std::max(0, box->findData(current)));
    }
    m_updatingPickers = false;
}

void ComparePage::setRuns(const QList<int>& keys)
{
    refreshPickers();
    m_updatingPickers = true;
    for (int i = 0; i < kMaxRuns; ++i) {
        QComboBox* box = m_pickers[static_cast<size_t>(i)];
        box->setCurrentIndex(i < keys.size() ? std::max(0, box->findData(keys[i])) : 0);
    }
    m_updatingPickers = false;
    refresh();
}

QList<int> ComparePage::runs() const
{
    QList<int> keys;
    for (QComboBox* box : m_pickers)
        keys << box->currentData().toInt();
    return keys;
}

void ComparePage::refreshVerdict()
{
    std::vector<VerdictBar::Entry> entries;
    bool withVariants = false; // rows read "VARIANT: scheduler/repartitioner" as in compare --variants
    for (int key : runs())
        if (const RunSpec* spec = m_workspace->runSpec(key))
            withVariants = withVariants || !spec->variant.isEmpty();
    for (int key : runs()) {
        const RunSpec* spec = m_workspace->runSpec(key);
        if (!spec || !spec->latest || spec->state != RunState::Current)
            continue;
        const std::string label = spec->verdictLabel(withVariants);
        const auto cost = model::scenarioRunCost(*spec->latest->scenario, *spec->latest->result);
        entries.push_back({key, label, spec->latest->result->metrics,
                           cost ? std::optional<double>(cost->totalPerDay) : std::nullopt});
    }
    m_verdict->setEntries(std::move(entries));
}

void ComparePage::refreshHeaders()
{
    const QList<int> keys = runs();
    for (size_t i = 0; i < m_columns.size(); ++i)
        if (const RunSpec* spec = m_workspace->runSpec(keys[static_cast<qsizetype>(i)]))
            m_columns[i].header->setText(headerHtml(static_cast<int>(i), *spec, m_verdict->ranked(spec->key)));
}

void ComparePage::refresh()
{
    refreshVerdict();
    const QList<int> keys = runs();
    std::vector<std::tuple<int, const void*, bool, bool, QString, int>> state;
    for (int key : keys) {
        const RunSpec* spec = m_workspace->runSpec(key);
        const void* result = spec && spec->latest ? spec->latest->result.get() : nullptr;
        state.emplace_back(spec ? key : 0, result, spec && (spec->stale() || spec->running()), spec && spec->running(),
                           spec ? spec->error : QString(), spec ? static_cast<int>(spec->state) : -1);
    }
    // A new result while another shown run is still running (both re-run by one edit): wait for
    // it, so the charts change once and the GUI thread does not draw while that run computes.
    bool newResult = false;
    bool anyRunning = false;
    for (size_t i = 0; i < m_columns.size(); ++i)
        if (const RunSpec* spec = m_workspace->runSpec(keys[static_cast<qsizetype>(i)])) {
            newResult = newResult || (spec->latest && spec->latest->result != m_columns[i].shown);
            anyRunning = anyRunning || spec->running();
        }
    const bool wait = newResult && anyRunning && !m_settleExpired;
    if (state == m_shownState || wait) {
        for (size_t i = 0; i < m_columns.size(); ++i) { // progress only: the headers say it
            const RunSpec* spec = m_workspace->runSpec(keys[static_cast<qsizetype>(i)]);
            if (!spec)
                continue;
            RunSpec shown = *spec; // a result held back (wait) is still "updating" under its header
            if (wait && spec->latest && spec->latest->result != m_columns[i].shown)
                shown.state = RunState::Running;
            m_columns[i].header->setText(headerHtml(static_cast<int>(i), shown, m_verdict->ranked(spec->key)));
        }
        if (wait && !m_settle->isActive())
            m_settle->start();
        return;
    }
    m_settle->stop();
    m_shownState = std::move(state);
    QElapsedTimer clock;
    clock.start();
    qCDebug(lcWhatIf, "%lld ms: compare charts rebuild", whatif::msSinceEdit());
    bool changed = false;
    int shown = 0;
    for (size_t i = 0; i < m_columns.size(); ++i) {
        refreshColumn(i, keys[static_cast<qsizetype>(i)], changed);
        shown += m_workspace->runSpec(keys[static_cast<qsizetype>(i)]) ? 1 : 0;
    }
    m_hint->setVisible(shown < 2);
    qCDebug(lcWhatIf, "%lld ms: compare columns rebuilt", whatif::msSinceEdit());
    refreshOverlays();
    qCDebug(lcWhatIf, "%lld ms: compare overlays rebuilt", whatif::msSinceEdit());
    bool allCurrent = true;
    for (int key : keys)
        if (const RunSpec* spec = m_workspace->runSpec(key))
            allCurrent = allCurrent && !spec->stale() && !spec->running() && spec->latest;
    if (changed && allCurrent) {
        for (ChartWidget* chart : timeCharts())
            if (chart->isVisible()) {
                chart->replotNow();
                qCDebug(lcWhatIf, "%lld ms: drawn %s", whatif::msSinceEdit(), qUtf8Printable(chart->objectName()));
            }
        m_editToChartMs = m_workspace->msSinceEdit();
        if (m_editToChartMs >= 0)
            qInfo("what-if: edit to updated compare charts in %lld ms (charts rebuilt and drawn in %lld ms)",
                  static_cast<long long>(m_editToChartMs), static_cast<long long>(clock.elapsed()));
        emit chartsUpdated();
    }
}

void ComparePage::refreshColumn(size_t i, int key, bool& changed)
{
    Column& c = m_columns[i];
    const RunSpec* spec = m_workspace->runSpec(key);
    c.header->setVisible(spec != nullptr);
    c.gantt->setVisible(spec != nullptr);
    c.power->setVisible(spec != nullptr);
    m_grid->setColumnStretch(static_cast<int>(i), spec ? 1 : 0); // hidden columns take no width
    if (!spec) {
        c.shown.reset();
        return;
    }
    c.header->setText(headerHtml(static_cast<int>(i), *spec, m_verdict->ranked(key)));
    // The run in the titles too: an exported or copied chart says which run it shows.
    const QString run = QStringLiteral("%1 %2").arg(QChar(u'A' + static_cast<int>(i))).arg(spec->label());
    c.gantt->setTitle(tr("Occupancy by instance: %1").arg(run));
    c.power->setTitle(tr("Power in total and per GPU: %1").arg(run));
    const auto result = spec->latest ? spec->latest->result : nullptr;
    if (!result && c.shown) { // switched to a run without a result yet: not the previous run's
        c.gantt->clear();
        c.power->setRun(simcore::RunResult{});
        c.shown.reset();
        changed = true;
    }
    if (result && result != c.shown) {
        const auto range = timeCharts().front()->timeRange();
        c.gantt->setRun(*spec->latest);
        c.power->setRun(*result);
        c.shown = result;
        changed = true;
        // Keep the user's zoom when a re-run replaces a result.
        syncTime(nullptr, range.first, range.second);
    }
    const bool stale = spec->stale() || (spec->running() && spec->latest);
    for (ChartWidget* chart : {static_cast<ChartWidget*>(c.gantt), static_cast<ChartWidget*>(c.power)}) {
        if (stale) // before the new result: a text change redraws the marker's layer
            chart->setStaleText(tr("stale — %1").arg(staleReason(*spec)));
        chart->setStale(stale);
    }
}

} // namespace ui

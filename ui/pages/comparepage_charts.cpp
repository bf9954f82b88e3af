// SPDX-License-Identifier: GPL-3.0-or-later
// ComparePage's charts: building them, keeping their time axes together, and the overlay lines and
// bars of the shown runs. The pickers, columns and verdict are in comparepage.cpp.
#include "barschart.h"
#include "comparepage.h"
#include "ganttchart.h"
#include "palette.h"
#include "powerchart.h"
#include "report_data.h"
#include "results.h"
#include "serieschart.h"
#include "units.h"
#include "workspace.h"

#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <set>

namespace ui {

namespace {

using simcore::kWminPerKwh;

template <typename T>
SeriesLine line(const QString& name, const QColor& colour, double width, const std::vector<double>& minutes,
                const std::vector<T>& values, double scale = 1.0)
{
    SeriesLine l{name, colour, width, {}, {}};
    const size_t n = std::min(minutes.size(), values.size());
    l.hours.resize(static_cast<qsizetype>(n));
    l.values.resize(static_cast<qsizetype>(n));
    for (size_t i = 0; i < n; ++i) {
        l.hours[static_cast<qsizetype>(i)] = minutes[i] / 60.0;
        l.values[static_cast<qsizetype>(i)] = static_cast<double>(values[i]) * scale;
    }
    return l;
}

} // namespace

QWidget* ComparePage::createCharts()
{
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    m_hint = new QLabel(tr("Pick two to four runs above, or select them on the Runs page and press "
                           "<b>Compare selected</b>. Drag to pan, wheel to zoom: every chart follows."));
    m_hint->setWordWrap(true);
    layout->addWidget(m_hint);
    auto* grid = new QGridLayout;
    m_grid = grid;
    for (int i = 0; i < kMaxRuns; ++i) {
        Column& c = m_columns[static_cast<size_t>(i)];
        c.header = new QLabel;
        // Its text changes with the run's state ("stale, updating…"): its width must not move the
        // columns, or every chart would be laid out and redrawn at each edit.
        c.header->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        c.header->setWordWrap(true); // the cost line may not fit a quarter of the window
        c.gantt = new GanttChart(tr("Occupancy by instance"));
        c.gantt->setObjectName(QStringLiteral("gantt%1").arg(i));
        c.power = new PowerChart(tr("Power in total and per GPU"));
        c.power->setObjectName(QStringLiteral("power%1").arg(i));
        grid->addWidget(c.header, 0, i);
        grid->addWidget(c.gantt, 1, i);
        grid->addWidget(c.power, 2, i);
        grid->setColumnStretch(i, 1);
    }
    grid->setRowStretch(1, 3);
    grid->setRowStretch(2, 3); // the total over a strip with a row per GPU
    layout->addLayout(grid, 5);
    m_tenants = new QLabel;
    m_tenants->setObjectName(QStringLiteral("compareTenants"));
    m_tenants->setTextFormat(Qt::RichText);
    m_tenants->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tenants->setVisible(false);
    layout->addWidget(m_tenants);
    layout->addWidget(createServices());
    m_queue = new SeriesChart(tr("Queue length"), tr("Queued jobs"));
    m_energy = new SeriesChart(tr("Cumulative energy"), tr("kWh"));
    m_tardiness = new SeriesChart(tr("Cumulative tardiness"), tr("min"));
    m_energy->setCumulative(true);
    m_tardiness->setCumulative(true);
    m_bars = new BarsChart;
    auto* overlays = new QGridLayout;
    overlays->addWidget(m_queue, 0, 0);
    overlays->addWidget(m_bars, 0, 1);
    overlays->addWidget(m_energy, 1, 0);
    overlays->addWidget(m_tardiness, 1, 1);
    layout->addLayout(overlays, 4);
    m_queue->setObjectName(QStringLiteral("queueChart"));
    m_energy->setObjectName(QStringLiteral("energyChart"));
    m_tardiness->setObjectName(QStringLiteral("tardinessChart"));
    m_bars->setObjectName(QStringLiteral("barsChart"));
    content->setMinimumHeight(940); // scroll rather than squeeze the plots
    return content;
}

std::vector<ChartWidget*> ComparePage::timeCharts() const
{
    std::vector<ChartWidget*> charts;
    for (const Column& c : m_columns) {
        charts.push_back(c.gantt);
        charts.push_back(c.power);
    }
    charts.push_back(m_queue);
    charts.push_back(m_energy);
    charts.push_back(m_tardiness);
    return charts;
}

void ComparePage::setCursorTime(double minutes)
{
    for (ChartWidget* chart : timeCharts())
        chart->setCursorTime(minutes / 60.0);
}

void ComparePage::syncTime(ChartWidget* source, double lower, double upper)
{
    if (m_syncing)
        return;
    m_syncing = true;
    for (ChartWidget* chart : timeCharts())
        if (chart != source)
            chart->setTimeRange(lower, upper);
    m_syncing = false;
}

void ComparePage::refreshOverlays()
{
    std::vector<const RunSpec*> specs(kMaxRuns, nullptr);
    std::vector<std::tuple<int, const void*, bool>> shown;
    const QList<int> keys = runs();
    for (int i = 0; i < kMaxRuns; ++i) {
        const RunSpec* spec = m_workspace->runSpec(keys[i]);
        if (!spec || !spec->latest)
            continue;
        specs[static_cast<size_t>(i)] = spec;
        // Grey: an old result no new run is coming for (cancelled, failed). A run in flight keeps
        // its colours under the charts' "stale" label until its result replaces it.
        shown.emplace_back(i, spec->latest->result.get(), spec->stale() && !spec->running());
    }
    std::vector<SeriesLine> queue, energy, tardiness;
    std::vector<BarRun> bars;
    bool anyStale = false;
    bool anyUpdating = false;
    const bool linesChanged = shown != m_overlayShown;
    for (int i = 0; i < kMaxRuns; ++i) {
        const RunSpec* spec = specs[static_cast<size_t>(i)];
        if (!spec)
            continue;
        const simcore::RunResult& r = *spec->latest->result;
        const bool stale = spec->stale() || spec->running();
        anyStale = anyStale || stale;
        anyUpdating = anyUpdating || spec->running();
        bars.push_back(
            {spec->label(), r.metrics.energyWmin / kWminPerKwh, r.metrics.avgTardinessMin, r.metrics.et, stale});
        if (!linesChanged)
            continue;
        const QString name = QStringLiteral("%1 %2").arg(QChar(u'A' + i)).arg(spec->label());
        const QColor colour = spec->stale() && !spec->running() ? staleLineColour() : runColour(i);
        queue.push_back(line(name, colour, 1.5, r.series.time, r.series.queued));
        energy.push_back(line(name, colour, 1.8, r.series.time, r.series.energyWmin, 1.0 / kWminPerKwh));
        tardiness.push_back(line(name, colour, 1.8, r.series.time, r.series.tardinessMin));
    }
    if (linesChanged) {
        m_overlayShown = std::move(shown);
        refreshTenants();
        refreshServices();
        const auto range = timeCharts().front()->timeRange();
        m_queue->setLines(queue);
        m_energy->setLines(energy);
        m_tardiness->setLines(tardiness);
        syncTime(nullptr, range.first, range.second);
    }
    for (SeriesChart* chart : {m_queue, m_energy, m_tardiness}) {
        if (anyStale)
            chart->setStaleText(anyUpdating ? tr("stale — updating…") : tr("stale — grey runs were not re-run"));
        chart->setStale(anyStale);
    }
    m_shownBars = std::move(bars);
    refreshBars();
}

void ComparePage::refreshBars()
{
    // The bounds are those of one scenario's jobs and fleet: marked only when every shown run
    // simulates the same one (the base, or one variant).
    std::set<QString> variants;
    for (int key : runs())
        if (const RunSpec* spec = m_workspace->runSpec(key))
            variants.insert(spec->variant);
    const QString variant = variants.size() == 1 ? *variants.begin() : QString();
    const auto scenario = m_workspace->scenarioFor(variant);
    BarBounds bounds;
    if (const BoundsPtr b = m_workspace->boundsFor(variant); b && variants.size() == 1 && !m_shownBars.empty())
        bounds = barBounds(*b, scenario ? scenario->energyWeight : 0.0);
    m_bars->setRuns(m_shownBars, bounds);
}

} // namespace ui

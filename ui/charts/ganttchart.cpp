// SPDX-License-Identifier: GPL-3.0-or-later
#include "ganttchart.h"

#include "ganttplottable.h"
#include "palette.h"
#include "runsnapshot.h"

#include <QHelpEvent>
#include <QLocale>
#include <QToolTip>

#include <algorithm>

namespace ui {

GanttChart::GanttChart(const QString& title, QWidget* parent) : ChartWidget(title, true, parent)
{
    m_gantt = new GanttPlottable(plot()->xAxis, plot()->yAxis);
    m_gantt->removeFromLegend();
    m_faultKey = new GanttFaultKey(plot()->xAxis, plot()->yAxis);
    m_faultKey->setName(tr("Failure · repair"));
    m_faultKey->removeFromLegend();
    plot()->yAxis->setRangeReversed(true);
    plot()->yAxis->grid()->setVisible(false);
    plot()->setMinimumHeight(200);
    plot()->installEventFilter(this);
    plot()->setMouseTracking(true);
    styleAxis(plot()->yAxis, QString());
    placeLegendAboveAxes();
    clear();
}

void GanttChart::clear()
{
    m_run.reset();
    setGantt(std::make_shared<GanttData>(), {});
}

void GanttChart::setRun(const RunSnapshot& snapshot)
{
    m_run = std::make_shared<const RunSnapshot>(snapshot);
    auto gd = snapshot.gantt ? snapshot.gantt
                             : std::make_shared<const GanttData>(buildGantt(*snapshot.result, *snapshot.scenario));
    QStringList names;
    for (const QString& n : gd->typeNames)
        names << n;
    auto run = m_run;
    setGantt(std::move(gd), names);
    m_run = run;
}

void GanttChart::setGantt(std::shared_ptr<const GanttData> gd, const QStringList& typeNames)
{
    m_run.reset();
    m_typeNames = typeNames;
    const double end = gd->endHours;
    m_gantt->setGantt(std::move(gd));
    applyColouring();
    setupRowAxis();
    setTimeExtent(end);
    resetView();
}

bool GanttChart::hasTenants() const
{
    return m_gantt->gantt() && !m_gantt->gantt()->tenantNames.empty();
}

void GanttChart::setColourBy(ColourBy by)
{
    if (by == m_colourBy)
        return;
    m_colourBy = by;
    applyColouring();
    replot();
}

namespace {

/// Tenant t's colour: the Tenants page's (jobTypeColour(t)); jobs without a tenant are grey.
QColor tenantColour(int t, int tenants)
{
    return t < tenants ? jobTypeColour(t) : unassignedColour();
}

} // namespace

void GanttChart::applyColouring()
{
    const bool byTenant = m_colourBy == ColourBy::Tenant && hasTenants();
    std::vector<QColor> colours;
    if (byTenant) {
        const int tenants = static_cast<int>(m_gantt->gantt()->tenantNames.size());
        for (int t = 0; t <= tenants; ++t)
            colours.push_back(tenantColour(t, tenants));
    } else {
        for (int i = 0; i < std::max<int>(8, static_cast<int>(m_typeNames.size())); ++i)
            colours.push_back(jobTypeColour(i));
    }
    m_gantt->setColourByTenant(byTenant);
    m_gantt->setTypeColours(std::move(colours));
    setupLegend();
}

void GanttChart::setupLegend()
{
    // Empty graphs carry the legend entries: one per job type (or tenant), a filled square.
    while (plot()->graphCount() > 0)
        plot()->removeGraph(0);
    auto entry = [this](const QString& name, const QColor& fill, const QColor& line) {
        QCPGraph* g = plot()->addGraph();
        g->setName(name);
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, line, fill, 9));
    };
    const auto& gd = m_gantt->gantt();
    if (m_gantt->colourByTenant() && gd) {
        const int tenants = static_cast<int>(gd->tenantNames.size());
        for (int t = 0; t < tenants; ++t)
            entry(gd->tenantNames[static_cast<size_t>(t)], tenantColour(t, tenants), tenantColour(t, tenants));
        if (gd->untenanted)
            entry(tr("No tenant"), tenantColour(tenants, tenants), tenantColour(tenants, tenants));
        if (gd->gangs) // an outlined square, as gang members' segments are drawn
            entry(tr("Gang job (outlined)"), QColor(Qt::transparent), gangOutlineColour());
    } else {
        for (int i = 0; i < m_typeNames.size(); ++i)
            entry(m_typeNames[i], jobTypeColour(i), jobTypeColour(i));
    }
    // The failures' entry comes last, and only for a run that had failures.
    m_faultKey->removeFromLegend();
    const bool faults = gd && !gd->faults.empty();
    if (faults)
        m_faultKey->addToLegend();
    plot()->legend->setVisible(plot()->graphCount() > 0 || faults);
}

QStringList GanttChart::legendNames() const
{
    QStringList names;
    for (int i = 0; i < plot()->legend->itemCount(); ++i) {
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot()->legend->item(i)))
            names << item->plottable()->name();
    }
    return names;
}

void GanttChart::setupRowAxis()
{
    const auto& gd = m_gantt->gantt();
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const int rows = gd ? static_cast<int>(gd->rows.size()) : 0;
    // Every row gets a label when they fit; otherwise only the first row of each GPU.
    const bool dense = rows * 14 > std::max(plot()->axisRect()->height(), 200);
    // A GPU label needs ~13 px of its own: GPUs that start closer than that to the previous
    // label share it ("GPU 0–1", centred on their rows) rather than going unlabelled.
    const double rowPixels = std::max(plot()->axisRect()->height(), 160) / std::max(1.0, static_cast<double>(rows));
    struct Label
    {
        int firstRow = 0;
        int lastRow = 0; ///< first row of the last GPU sharing the label
        int firstGpu = 0;
        int lastGpu = 0;
    };
    std::vector<Label> labels;
    for (int i = 0; i < rows; ++i) {
        const GanttRow& row = gd->rows[static_cast<size_t>(i)];
        const bool firstOfGpu = i == 0 || gd->rows[static_cast<size_t>(i - 1)].gpu != row.gpu;
        if (!dense) {
            ticker->addTick(i, row.label);
        } else if (firstOfGpu && !labels.empty() && (i - labels.back().firstRow) * rowPixels < 13.0) {
            labels.back().lastRow = i;
            labels.back().lastGpu = row.gpu;
        } else if (firstOfGpu) {
            labels.push_back({i, i, row.gpu, row.gpu});
        }
    }
    for (const Label& l : labels)
        ticker->addTick((l.firstRow + l.lastRow) / 2.0,
                        l.firstGpu == l.lastGpu ? QStringLiteral("GPU %1").arg(l.firstGpu)
                                                : QStringLiteral("GPU %1–%2").arg(l.firstGpu).arg(l.lastGpu));
    plot()->yAxis->setTicker(ticker);
    plot()->yAxis->setSubTicks(false);
    plot()->yAxis->setRange(-0.5, std::max(0.5, rows - 0.5));
}

void GanttChart::setStale(bool stale)
{
    if (stale == isStale())
        return;
    m_gantt->setStale(stale); // the bars turn grey: the whole chart redraws (a few ms)
    ChartWidget::setStale(stale);
    replot();
}

size_t GanttChart::segmentCount() const
{
    return m_gantt->gantt() ? m_gantt->gantt()->segmentCount : 0;
}

int GanttChart::rowCount() const
{
    return m_gantt->gantt() ? static_cast<int>(m_gantt->gantt()->rows.size()) : 0;
}

long GanttChart::lastRectCount() const
{
    return m_gantt->lastRectCount();
}

QString GanttChart::toolTipAt(const QPointF& pixel) const
{
    const auto& gd = m_gantt->gantt();
    if (!gd || !plot()->axisRect()->rect().contains(pixel.toPoint()))
        return {};
    const int r = qRound(plot()->yAxis->pixelToCoord(pixel.y()));
    if (r < 0 || r >= static_cast<int>(gd->rows.size()))
        return {};
    const GanttRow& row = gd->rows[static_cast<size_t>(r)];
    const double t = plot()->xAxis->pixelToCoord(pixel.x());
    const double slack = std::abs(plot()->xAxis->pixelToCoord(pixel.x() + 4.0) - t);
    const long f = faultAt(*gd, r, t, slack);
    const QString fault = f >= 0
                              ? QStringLiteral("<br><span style=\"color:%1\">%2</span>")
                                    .arg(faultColour().name(), gd->faults[static_cast<size_t>(f)].text.toHtmlEscaped())
                              : QString();
    const long i = segmentAt(row, t);
    if (i < 0)
        return fault.isEmpty() ? row.label : QStringLiteral("<b>%1</b>").arg(row.label) + fault;
    const auto s = static_cast<size_t>(i);
    const QLocale locale;
    QString text = QStringLiteral("<b>%1</b>").arg(row.label) + fault;
    if (m_run && row.job[s] >= 0 && row.job[s] < static_cast<int>(m_run->result->jobs.size())) {
        const simcore::JobResult& job = m_run->result->jobs[static_cast<size_t>(row.job[s])];
        const QString type = row.type[s] < gd->typeNames.size() ? gd->typeNames[row.type[s]] : QString();
        text += tr("<br>Job %1 (%2)<br>Runs %3–%4 h<br>Deadline %5 h<br>Tardiness %6 min")
                    .arg(job.id)
                    .arg(type, locale.toString(row.t0[s], 'f', 2), locale.toString(row.t1[s], 'f', 2),
                         locale.toString(job.deadline / 60.0, 'f', 2), locale.toString(job.tardiness, 'f', 1));
        if (job.tenant >= 0 && job.tenant < static_cast<int>(gd->tenantNames.size()))
            text += tr("<br>Tenant %1").arg(gd->tenantNames[static_cast<size_t>(job.tenant)].toHtmlEscaped());
        if (job.gang >= 0)
            text += tr("<br>Member of gang %1 (its members start together)").arg(job.gang);
    } else {
        text += tr("<br>Segment %1: %2–%3 h").arg(i).arg(row.t0[s]).arg(row.t1[s]);
    }
    return text;
}

bool GanttChart::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == plot() && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, plot());
        return true;
    }
    return ChartWidget::eventFilter(watched, event);
}

} // namespace ui

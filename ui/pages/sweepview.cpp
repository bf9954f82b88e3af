// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweepview.h"

#include "palette.h"
#include "units.h"

#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

SweepPlotData::Point plotPoint(const model::SweepCell& c, model::TardinessMetric metric)
{
    return {std::max(SweepPlotData::kMinTardiness, model::cellTardiness(c, metric)),
            c.energyWmin.mean / simcore::kWminPerKwh, c.gpus};
}

} // namespace

SweepPlotData sweepPlotData(const model::SweepResult& result, size_t load, model::TardinessMetric metric,
                            const std::optional<model::TardinessTarget>& target)
{
    SweepPlotData d;
    d.pointsByBoard.resize(result.boards.size());
    for (const auto& b : result.boards)
        d.boards.push_back(QString::fromStdString(b));
    for (const auto& c : result.cells) {
        if (c.load == load && c.unfinishedJobs == 0)
            d.pointsByBoard[c.board].push_back(plotPoint(c, metric));
    }
    const auto f = model::sweepFrontier(result, load, metric);
    for (size_t i : f.cells)
        d.frontier.push_back(plotPoint(result.cells[i], metric));
    if (f.knee >= 0)
        d.knee = d.frontier[static_cast<size_t>(f.knee)];
    if (target)
        d.targetMin = std::max(SweepPlotData::kMinTardiness, target->limitMin);
    return d;
}

SweepChart::SweepChart(QWidget* parent) : ChartWidget(tr("Energy vs tardiness by fleet size"), false, parent)
{
    plot()->setMinimumHeight(320);
    plot()->legend->setVisible(true);
    placeLegendAboveAxes();
}

void SweepChart::setData(const SweepPlotData& d, const QString& tardinessLabel)
{
    plot()->clearPlottables();
    for (QCPAbstractItem* item : m_items)
        plot()->removeItem(item);
    m_items.clear();
    QCPAxis* x = plot()->xAxis;
    QCPAxis* y = plot()->yAxis;
    styleAxis(x, tardinessLabel);
    styleAxis(y, tr("Energy (kWh)"));
    x->setScaleType(QCPAxis::stLogarithmic);
    x->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    for (size_t b = 0; b < d.boards.size(); ++b)
        addBoard(static_cast<int>(b), d.boards[b], d.pointsByBoard[b]);
    addFrontier(d);
    plot()->rescaleAxes();
    x->scaleRange(1.3, std::sqrt(x->range().lower * x->range().upper));
    y->scaleRange(1.1, y->range().center());
    // Room below the lowest point for the knee's label, which hangs under its marker.
    y->setRangeLower(y->range().lower - 0.08 * y->range().size());
    if (d.targetMin) {
        auto* line = new QCPItemStraightLine(plot());
        line->point1->setCoords(*d.targetMin, 0.0);
        line->point2->setCoords(*d.targetMin, 1.0);
        line->setPen(QPen(targetColour(), 1.2, Qt::DashLine));
        m_items.push_back(line);
    }
    replot();
}

void SweepChart::addBoard(int index, const QString& name, const std::vector<SweepPlotData::Point>& points)
{
    auto* g = plot()->addGraph();
    g->setName(name);
    g->setLineStyle(QCPGraph::lsNone);
    const QColor colour = runColour(index);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 7));
    QVector<double> xs, ys;
    for (const auto& p : points) {
        xs << p.tardiness;
        ys << p.energyKwh;
        addLabel(p, QString::number(p.gpus), colour, false);
    }
    g->setData(xs, ys, false);
}

void SweepChart::addFrontier(const SweepPlotData& d)
{
    auto* curve = new QCPCurve(plot()->xAxis, plot()->yAxis);
    curve->setName(tr("frontier"));
    curve->setPen(QPen(Qt::black, 1.5)); // ink: stylePlot() gives it the text colour in the dark theme
    QVector<double> xs, ys;
    for (const auto& p : d.frontier) {
        xs << p.tardiness;
        ys << p.energyKwh;
    }
    curve->setData(xs, ys);
    if (!d.knee)
        return;
    auto* knee = plot()->addGraph();
    knee->setName(tr("knee"));
    knee->setLineStyle(QCPGraph::lsNone);
    knee->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(targetColour(), 2.5), Qt::NoBrush, 16));
    knee->setData({d.knee->tardiness}, {d.knee->energyKwh});
    addLabel(*d.knee, tr("knee: %1 GPUs").arg(d.knee->gpus), targetColour(), true);
}

void SweepChart::addLabel(const SweepPlotData::Point& p, const QString& text, const QColor& colour, bool bold)
{
    auto* label = new QCPItemText(plot());
    label->position->setCoords(p.tardiness, p.energyKwh);
    label->setPositionAlignment(bold ? (Qt::AlignHCenter | Qt::AlignTop) : (Qt::AlignLeft | Qt::AlignBottom));
    label->setPadding(bold ? QMargins(0, 10, 0, 0) : QMargins(4, 0, 0, 2));
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    f.setBold(bold);
    label->setFont(f);
    label->setColor(colour);
    label->setText(text);
    m_items.push_back(label);
}

SweepView::SweepView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    m_chart = new SweepChart(this);
    m_answer = new QLabel(this);
    m_answer->setObjectName(QStringLiteral("sweepAnswer"));
    m_answer->setWordWrap(true);
    m_answer->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_answer);
}

void SweepView::setResult(const model::SweepResult& result, size_t load, model::TardinessMetric metric,
                          const std::optional<model::TardinessTarget>& target)
{
    m_data = sweepPlotData(result, load, metric, target);
    const QString which = metric == model::TardinessMetric::Average ? tr("Average") : tr("p95");
    m_chart->setTitle(tr("Energy vs %1 tardiness by fleet size at load %2 (mean of %3 seed(s); labels: GPUs)")
                          .arg(which.toLower())
                          .arg(result.loads.at(load))
                          .arg(result.seeds.size()));
    m_chart->setData(m_data, tr("%1 tardiness (min, log; 0 drawn at %2)").arg(which).arg(SweepPlotData::kMinTardiness));
    QStringList lines;
    if (target) {
        for (size_t b = 0; b < result.boards.size(); ++b)
            lines << QString::fromStdString(model::answerSentence(result, model::fewestGpus(result, b, load, *target)));
    }
    if (!m_data.knee)
        lines << tr("No knee: the frontier has fewer than 3 points, or none lies below its chord.");
    m_answer->setText(lines.join(QLatin1Char('\n')));
}

void SweepView::clear()
{
    m_data = {};
    m_chart->setTitle({});
    m_chart->setData(m_data, {});
    m_answer->clear();
}

QString SweepView::answerText() const
{
    return m_answer->text();
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "barschart.h"

#include "palette.h"
#include "timelineseries.h"
#include "units.h"

#include <qcustomplot.h>

#include <algorithm>

namespace ui {

BarBounds barBounds(const model::Bounds& bounds, double energyWeight)
{
    BarBounds marks;
    marks.energyKwh = bounds.energy.energyWmin / simcore::kWminPerKwh;
    if (bounds.tardiness.computed)
        marks.avgTardinessMin = bounds.tardiness.avgTardinessMin;
    marks.et = model::etBound(bounds, energyWeight);
    return marks;
}

namespace {

QString letter(size_t i)
{
    return QString(QChar(u'A' + static_cast<char16_t>(i)));
}

} // namespace

BarsChart::BarsChart(QWidget* parent) : ChartWidget(tr("Energy, tardiness and ET vs lower bounds"), false, parent)
{
    // Row 0 is the title, row 1 three panels (the default axis rect is the first), row 2 the key.
    plot()->setMinimumHeight(220);
    QCPLayoutGrid* layout = plot()->plotLayout();
    auto* panels = new QCPLayoutGrid;
    QCPAxisRect* first = plot()->axisRect();
    layout->take(first);
    layout->simplify();
    layout->addElement(1, 0, panels);
    panels->addElement(0, 0, first);
    panels->addElement(0, 1, new QCPAxisRect(plot()));
    panels->addElement(0, 2, new QCPAxisRect(plot()));
    m_key = new QCPTextElement(plot(), QString(), font());
    m_key->setTextColor(noteTextColour());
    layout->addElement(2, 0, m_key);
    layout->setRowStretchFactor(0, 0.001);
    layout->setRowStretchFactor(2, 0.001);
    setRuns({}, {});
}

void BarsChart::setRuns(const std::vector<BarRun>& runs, const BarBounds& bounds)
{
    plot()->clearPlottables();
    for (QCPItemLine* line : m_lines)
        plot()->removeItem(line);
    m_lines.clear();
    m_bars = 0;
    std::vector<double> energy, tardiness, et;
    std::vector<bool> stale;
    QStringList key;
    for (size_t i = 0; i < runs.size(); ++i) {
        energy.push_back(runs[i].energyKwh);
        tardiness.push_back(runs[i].avgTardinessMin);
        et.push_back(runs[i].et);
        stale.push_back(runs[i].stale);
        key << QStringLiteral("%1 = %2%3").arg(letter(i), runs[i].label, runs[i].stale ? tr(" (stale)") : QString());
    }
    addPanel(0, tr("Energy (kWh)"), energy, stale, bounds.energyKwh);
    addPanel(1, tr("Avg tardiness (min)"), tardiness, stale, bounds.avgTardinessMin);
    addPanel(2, tr("ET"), et, stale, bounds.et);
    // The key names the dashed line only when one is drawn (runs on different fleets or
    // workloads share no bound).
    if (bounds.energyKwh || bounds.avgTardinessMin || bounds.et)
        key << tr("- - - lower bound");
    m_key->setText(key.join(QStringLiteral("     ")));
    replot();
}

QString BarsChart::keyText() const
{
    return m_key->text();
}

void BarsChart::addPanel(int column, const QString& label, const std::vector<double>& values,
                         const std::vector<bool>& stale, std::optional<double> bound)
{
    auto* panels = qobject_cast<QCPLayoutGrid*>(plot()->plotLayout()->element(1, 0));
    auto* rect = qobject_cast<QCPAxisRect*>(panels->element(0, column));
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    styleAxis(x, QString());
    styleAxis(y, label);
    x->grid()->setVisible(false);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double top = bound.value_or(0.0);
    for (size_t i = 0; i < values.size(); ++i) {
        auto* bars = new QCPBars(x, y);
        QColor colour = runColour(static_cast<int>(i));
        if (stale[i])
            colour = staleBarColour();
        bars->setBrush(colour);
        bars->setPen(QPen(colour.darker(120)));
        bars->setWidth(0.6);
        bars->addData(static_cast<double>(i + 1), values[i]);
        bars->removeFromLegend();
        ticker->addTick(static_cast<double>(i + 1), letter(i));
        top = std::max(top, values[i]);
        ++m_bars;
    }
    x->setTicker(ticker);
    x->setRange(0.4, static_cast<double>(std::max<size_t>(values.size(), 1)) + 0.6);
    y->setRange(0.0, niceUpperBound(top * 1.15, 1.0));
    if (bound) {
        auto* line = new QCPItemLine(plot());
        line->setClipAxisRect(rect);
        line->start->setAxes(x, y);
        line->end->setAxes(x, y);
        line->start->setCoords(0.4, *bound);
        line->end->setCoords(x->range().upper, *bound);
        line->setPen(QPen(inkColour(), 1.6, Qt::DashLine));
        m_lines.push_back(line);
    }
}

} // namespace ui

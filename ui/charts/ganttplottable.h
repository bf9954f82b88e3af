// SPDX-License-Identifier: GPL-3.0-or-later
// Include only from .cpp files: it pulls in qcustomplot.h (~8 s per translation unit).
#pragma once

#include "ganttdata.h"

#include <QColor>
#include <qcustomplot.h>

#include <memory>
#include <vector>

namespace ui {

/// Draws a GanttData on a QCustomPlot: row i is centred on value i (axis reversed so row 0 is
/// on top), key = hours. Only visible rows and segments are touched: each row's window is found
/// by binary search, segments narrower than a pixel merge into runs, and a sub-pixel run skips
/// ahead to the next pixel by binary search, so a replot costs O(rows x pixels x log n).
/// Faults are drawn on top (GanttData::faults).
class GanttPlottable : public QCPAbstractPlottable
{
public:
    GanttPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis);

    void setGantt(std::shared_ptr<const GanttData> data);
    [[nodiscard]] const std::shared_ptr<const GanttData>& gantt() const { return m_data; }
    /// Job type colours (index = type), or tenant colours (index = tenant) when colouring by
    /// tenant; stale data is drawn washed out.
    void setTypeColours(std::vector<QColor> colours);
    /// Colours jobs by tenant (GanttRow::tenant) instead of by type, and outlines gang members.
    void setColourByTenant(bool byTenant) { m_byTenant = byTenant; }
    [[nodiscard]] bool colourByTenant() const { return m_byTenant; }
    void setStale(bool stale);
    /// Rectangles filled by the last draw (for the benchmark and tests).
    [[nodiscard]] long lastRectCount() const { return m_lastRects; }

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    void drawRow(QCPPainter* painter, const GanttRow& row, double yTop, double height);
    void drawPresence(QCPPainter* painter, const GanttRow& row, double yTop, double height) const;
    /// Colouring by tenant: an outline around each gang member's segment wide enough to show it.
    void drawGangOutlines(QCPPainter* painter, const GanttRow& row, double yTop, double height) const;
    /// Failures: the repair interval hatched over the rows they took down, a line and a marker
    /// at the failure time.
    void drawFaults(QCPPainter* painter, int firstRow, int lastRow) const;
    [[nodiscard]] QColor colourOf(std::uint8_t type) const;

    std::shared_ptr<const GanttData> m_data;
    std::vector<QColor> m_colours;
    std::vector<QColor> m_drawColours; ///< m_colours, washed out when stale
    bool m_stale = false;
    bool m_byTenant = false;
    long m_lastRects = 0;
};

/// Draws nothing: it carries the legend entry of the failures ("Failure · repair").
class GanttFaultKey : public QCPAbstractPlottable
{
public:
    GanttFaultKey(QCPAxis* keyAxis, QCPAxis* valueAxis);

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter*) override {}
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;
};

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chartwidget.h"

#include <memory>

namespace ui {

class GanttFaultKey;
class GanttPlottable;
struct GanttData;
struct RunSnapshot;

/// Per-instance occupancy of one run: a row per instance position (grouped by GPU, the light
/// band is when the instance existed, i.e. the GPU's layout over time), jobs coloured by type.
/// Hovering a job shows its id, deadline and tardiness. Failures are marked on the rows they took
/// down (a marker at the failure time, the repair interval hatched); hovering one explains it.
class GanttChart : public ChartWidget
{
    Q_OBJECT

public:
    /// What the job segments are coloured by: their job type, or their tenant (docs/tenants.md).
    enum class ColourBy { JobType, Tenant };

    explicit GanttChart(const QString& title, QWidget* parent = nullptr);

    void setRun(const RunSnapshot& snapshot);
    /// Shows prebuilt rows (the benchmark's synthetic data); job details are then unknown.
    void setGantt(std::shared_ptr<const GanttData> data, const QStringList& typeNames);
    void clear();
    void setStale(bool stale) override;
    /// Colours by tenant (with a legend entry per tenant and gang members outlined) or by job
    /// type; by tenant applies only to runs whose scenario has tenants.
    void setColourBy(ColourBy by);
    [[nodiscard]] ColourBy colourBy() const { return m_colourBy; }
    /// The shown run's scenario has tenants (colouring by tenant means something).
    [[nodiscard]] bool hasTenants() const;
    /// The legend's entries, top to bottom (for tests).
    [[nodiscard]] QStringList legendNames() const;

    [[nodiscard]] size_t segmentCount() const;
    [[nodiscard]] int rowCount() const;
    /// Tooltip text for a point of the plot, empty when no job is there.
    [[nodiscard]] QString toolTipAt(const QPointF& pixel) const;
    /// Rectangles filled by the last replot.
    [[nodiscard]] long lastRectCount() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void setupLegend();
    void setupRowAxis();
    /// The colours and legend for m_colourBy and the shown data.
    void applyColouring();

    GanttPlottable* m_gantt = nullptr;
    ColourBy m_colourBy = ColourBy::JobType;
    QStringList m_typeNames;
    GanttFaultKey* m_faultKey = nullptr;
    std::shared_ptr<const RunSnapshot> m_run;
};

} // namespace ui

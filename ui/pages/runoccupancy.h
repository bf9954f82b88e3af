// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;

namespace simcore {
struct RunResult;
} // namespace simcore

namespace ui {

class GanttChart;
struct RunSpec;

/// The Runs page's occupancy chart of one run: the per-instance Gantt with a "Colour by" choice
/// (job type, or tenant with gang members outlined) shown when the run's scenario has tenants
/// (docs/tenants.md, "In the studio"). Failures stay marked on the rows they took down.
class RunOccupancy : public QWidget
{
    Q_OBJECT

public:
    explicit RunOccupancy(QWidget* parent = nullptr);

    /// Shows @p spec's latest result (nothing when it has none); a re-run of the same spec keeps
    /// the colouring.
    void showRun(const RunSpec* spec);
    [[nodiscard]] GanttChart* chart() const { return m_chart; }
    /// "Colour by": job type or tenant; visible only for a run whose scenario has tenants.
    [[nodiscard]] QComboBox* colourByBox() const { return m_colourBy; }

private:
    void onColourByChosen();

    GanttChart* m_chart = nullptr;
    QLabel* m_colourLabel = nullptr;
    QComboBox* m_colourBy = nullptr;
    std::shared_ptr<const simcore::RunResult> m_shown;
};

} // namespace ui

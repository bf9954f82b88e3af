// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chartwidget.h"

#include <string>
#include <vector>

namespace ui {

/// The Plan page's day plan chart (docs/planning.md, "Best day plan"): whole GPUs per
/// configuration in each period as PLANNED (stacked bars) against the mix a run of that day
/// really had (SIMULATED, time-weighted GPUs, drawn as a marker at the top of each
/// configuration's share of the stack: markers on the bar edges mean the run followed the plan).
class DayPlanChart : public ChartWidget
{
    Q_OBJECT

public:
    explicit DayPlanChart(QWidget* parent = nullptr);

    /// @p planned and @p simulated are [period][configuration]; @p labels names the configurations.
    void setPlan(const std::vector<std::string>& labels, const std::vector<std::vector<int>>& planned,
                 const std::vector<std::vector<double>>& simulated, double periodMin);
    /// Configurations drawn (those with a GPU planned or simulated in some period).
    [[nodiscard]] int configurationsShown() const { return m_shown; }
    [[nodiscard]] int legendEntries() const;

private:
    int m_shown = 0;
};

} // namespace ui

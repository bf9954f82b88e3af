// SPDX-License-Identifier: GPL-3.0-or-later
#include "studies.h"

#include "scenario_writer.h"

namespace ui {

bool sameGpuBoards(const model::Scenario& a, const model::Scenario& b)
{
    const auto ga = a.fleetGpus();
    const auto gb = b.fleetGpus();
    if (ga.size() != gb.size())
        return false;
    for (size_t g = 0; g < ga.size(); ++g) {
        if (ga[g].model->name != gb[g].model->name)
            return false;
    }
    return true;
}

bool sameFleetGroups(const model::Scenario& a, const model::Scenario& b)
{
    if (a.fleet.size() != b.fleet.size())
        return false;
    for (size_t g = 0; g < a.fleet.size(); ++g) {
        if (a.fleet[g].count != b.fleet[g].count || a.fleet[g].model->name != b.fleet[g].model->name)
            return false;
    }
    return true;
}

bool sameStudyInputs(const model::Scenario& now, const model::Scenario& studied)
{
    if (&now == &studied)
        return true;
    model::Scenario a = now;
    a.repartitioner = studied.repartitioner;
    return model::writeScenarioJson(a) == model::writeScenarioJson(studied);
}

void Studies::restore(Study<model::StaticSearchResult> staticSearch, Study<model::DayPlanResult> dayPlan,
                      Study<model::SweepResult> sweep)
{
    m_static = std::move(staticSearch);
    m_day = std::move(dayPlan);
    m_sweep = std::move(sweep);
    emit restored();
}

} // namespace ui

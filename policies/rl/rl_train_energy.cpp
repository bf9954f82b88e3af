// SPDX-License-Identifier: GPL-3.0-or-later
// SMART-MIG training's energy options: an energy weight in the rewards, its multiplier adjusted
// against the static layouts' energy, and a cap on the kept weights' energy (docs/learned-policies.md).
#include "rl_train_internal.h"

namespace policies::rl::detail {

bool energyOptions(const TrainSettings& st)
{
    return st.energyScale != 1.0 || st.energyDual > 0.0 || st.energyCap > 0.0;
}

bool withinEnergyCap(const TrainSettings& st, const Session& ses)
{
    return st.energyCap <= 0.0 || ses.lastEnergy <= st.energyCap * ses.baselineEnergy;
}

void updateEnergyScale(const TrainSettings& st, Session& ses)
{
    if (st.energyDual <= 0.0 || ses.baselineEnergy <= 0.0)
        return;
    const double cap = st.energyCap > 0.0 ? st.energyCap : 1.0;
    ses.energyScale =
        std::max(1.0, ses.energyScale + st.energyDual * (ses.lastEnergy / (cap * ses.baselineEnergy) - 1.0));
}

void energyToCheckpoint(Json& j, const Session& ses, bool bestWithinCap, double bestEnergy)
{
    j["energy_scale"] = ses.energyScale;
    j["last_energy"] = ses.lastEnergy;
    j["baseline_energy"] = ses.baselineEnergy;
    j["best_within_cap"] = bestWithinCap;
    j["best_energy"] = bestEnergy;
}

void energyFromCheckpoint(const Json& j, Session& ses, bool& bestWithinCap, double& bestEnergy)
{
    ses.energyScale = j.at("energy_scale").get<double>();
    ses.lastEnergy = j.at("last_energy").get<double>();
    ses.baselineEnergy = j.at("baseline_energy").get<double>();
    bestWithinCap = j.at("best_within_cap").get<bool>();
    bestEnergy = j.at("best_energy").get<double>();
}

} // namespace policies::rl::detail

// SPDX-License-Identifier: GPL-3.0-or-later
// What `plan --search static` and `plan --search day` share: the --scheduler option and keeping
// the study in a session (docs/planning.md, docs/sessions.md "Planning studies").
#include "commands.h"
#include "plan_session.h"
#include "policy_registry.h"
#include "session_plugins.h"

namespace cli {

std::optional<model::PolicyChoice> planScheduler(const Args& args, model::Scenario& scenario)
{
    const auto id = args.value("--scheduler");
    if (!id)
        return std::nullopt;
    (void)model::policyRegistry().createScheduler(*id, {}); // an unknown id is refused here
    scenario.scheduler = model::PolicyChoice{*id, {}};
    return scenario.scheduler;
}

void storePlanStudy(const std::string& db, const std::string& key, const model::Scenario& scenario,
                    const std::string& study, bool quiet, std::ostream& err)
{
    model::storeStudy(db, key, scenario, study);
    model::recordSessionPlugins(db, {scenario.scheduler.id, scenario.repartitioner.id});
    if (!quiet)
        err << "saved the study in " << db << "\n";
}

} // namespace cli

// SPDX-License-Identifier: GPL-3.0-or-later
// What `plan --search static` and `plan --search day` share: the --scheduler option and keeping
// the study in a session (docs/planning.md, docs/sessions.md "Planning studies").
#include "commands.h"
#include "mpi_layer.h"
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

std::optional<int> finishPlanStudy(const Args& args, std::ostream& out, std::ostream& err,
                                   const model::Problems& problems, const model::Scenario& scenario,
                                   const std::function<std::string()>& json, const std::function<void()>& printText,
                                   const std::string& key, const std::function<std::string()>& study, bool quiet)
{
    if (printProblems(err, problems))
        return kExitBadInput;
    if (mpiRank() != 0) // rank 0 prints and writes (docs/cluster.md)
        return kExitOk;
    emitResult(args, out, json(), printText);
    if (const auto db = args.value("--db"))
        storePlanStudy(*db, key, scenario, study(), quiet, err);
    return std::nullopt;
}

} // namespace cli

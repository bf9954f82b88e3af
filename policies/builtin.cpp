// SPDX-License-Identifier: GPL-3.0-or-later
#include "basic_repartitioners.h"
#include "edf_most_packed.h"
#include "registry.h"

namespace policies {

void registerBuiltinPolicies(Registry& registry)
{
    registry.addScheduler(
        {"edf-most-packed",
         "EDF Most Packed: earliest deadline first onto the most packed GPU's smallest slice that meets it",
         {}},
        [](const ResolvedParams&) { return std::make_unique<EdfMostPacked>(); });

    registry.addRepartitioner({"static", "Static: every GPU keeps the scenario's layout all day", {}},
                              [](const ResolvedParams&) { return std::make_unique<StaticRepartitioner>(); });
    registry.addRepartitioner({"none", "No partitioning: every GPU is one whole-GPU (7g) instance", {}},
                              [](const ResolvedParams&) { return std::make_unique<NoPartitioning>(); });
}

} // namespace policies

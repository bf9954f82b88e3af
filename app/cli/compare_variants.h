// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "args.h"
#include "compare.h"
#include "variants.h"

#include <ostream>
#include <vector>

namespace cli {

/// @brief The scenarios `compare` runs: the base (as variant "base" when variants are given,
/// unless --no-base) and every variant of --variants FILE and of each --variant "NAME:k=v;...",
/// each with its seeds: --seeds for all, else each one's own workload seed
/// (docs/planning.md, "Variants: comparing fleets and layouts").
/// Problems of a variants file or inline form are printed to @p err; the result is then empty.
/// @throws UsageError for a wrong combination of options (e.g. --seeds with a variant's seed).
[[nodiscard]] std::vector<model::CompareSubject> compareSubjects(const Args& args, const model::Scenario& base,
                                                                 bool jobsGiven, std::ostream& err);

/// @brief True when the command line names variants (--variants or --variant).
[[nodiscard]] bool hasVariants(const Args& args);

/// @brief The variants of --variants and --variant as compareSubjects() read them from @p base
/// (empty without variants); only after compareSubjects() accepted them.
[[nodiscard]] std::vector<model::Variant> commandLineVariants(const Args& args, const model::Scenario& base);

} // namespace cli

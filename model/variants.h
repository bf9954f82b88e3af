// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "problems.h"
#include "scenario.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace model {

/// @brief The newest variants file format version this build reads.
inline constexpr int kVariantsVersion = 1;
/// @brief At most this many variants in one file (and in one comparison, besides the base).
inline constexpr size_t kMaxVariants = 32;
/// @brief A variant's name has 1..kMaxVariantNameChars bytes.
inline constexpr size_t kMaxVariantNameChars = 64;
/// @brief The name the base scenario has among the variants of a comparison.
inline constexpr const char* kBaseVariantName = "base";

/// @brief A named set of overrides of a scenario (docs/planning.md, "Variants: comparing fleets and
/// layouts"). What a variant does not override comes from the base scenario.
struct Variant
{
    std::string name;
    std::optional<std::vector<FleetGroup>> fleet; ///< the whole fleet (boards, counts, layouts)
    std::optional<double> multiplier;             ///< scales the base workload's arrival rate, as sweep --loads
    std::optional<std::uint64_t> seed;            ///< the workload seed
    std::optional<simcore::PreemptionMode> preemption;
    std::optional<double> energyWeight;

    /// True when the variant changes the generated jobs (multiplier or seed).
    [[nodiscard]] bool changesWorkload() const { return multiplier.has_value() || seed.has_value(); }
};

/// @brief Parses a variants file {"format":"migsight-variants","version":1,"variants":[...]}.
/// Every problem is added with @p file and its JSON path; the result is only meaningful when none
/// was added. @p base supplies the power curves of boards it has and checks that a multiplier applies.
[[nodiscard]] std::vector<Variant> parseVariants(const std::string& text, const std::string& file, const Scenario& base,
                                                 Problems& problems);

/// @brief Reads and parses a variants file (an unreadable file is a problem too).
[[nodiscard]] std::vector<Variant> loadVariants(const std::filesystem::path& path, const Scenario& base,
                                                Problems& problems);

/// @brief Parses the inline form "NAME:key=value;key=value" (keys multiplier, seed, preemption,
/// energy_weight, layouts, gpus). Problems name "--variant" and the key.
[[nodiscard]] Variant parseInlineVariant(const std::string& text, const Scenario& base, Problems& problems);

/// @brief An empty text when @p name is a valid variant name, else what is wrong with it.
[[nodiscard]] std::string variantNameProblem(const std::string& name);

/// @brief The base scenario with the variant's overrides applied.
/// @throws std::invalid_argument when the multiplier cannot scale the base's workload.
[[nodiscard]] Scenario applyVariant(const Scenario& base, const Variant& variant);

/// @brief The seed a scenario's generated workload uses when none is given.
[[nodiscard]] std::uint64_t workloadSeed(const Scenario& scenario);

} // namespace model

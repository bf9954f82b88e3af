// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "slices.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace simcore {

/// @brief One MIG GPU-instance profile of a board (e.g. "3g.20gb") and where it may be placed.
struct Profile
{
    std::string name;             ///< NVIDIA's profile name, e.g. "1g.5gb" or "1g.5gb+me"
    int nvmlId = 0;               ///< NVML GPU-instance profile id
    int compute = 1;              ///< compute slices used (the "N" of "Ng")
    int memorySlices = 1;         ///< size in memory slices
    double memoryGiB = 0.0;       ///< memory as NVML reports it
    int sms = 0;                  ///< streaming multiprocessors
    std::vector<int> starts;      ///< allowed start indices, in memory slices
    bool mediaExtensions = false; ///< "+me" variant: at most one per GPU
};

/// @brief One placed instance: a profile (index into GpuModel::profiles) at a memory-slice start.
struct Placement
{
    int profile = 0;
    int start = 0;
    friend bool operator==(const Placement&, const Placement&) = default;
};

/// @brief A GPU's configuration: its instances in the order they are listed. The order matters:
/// scheduling tie-breaks use an instance's position in this list (docs/engine.md, "One step").
using Layout = std::vector<Placement>;

/// @brief A named list of configurations the repartitioners may choose from (e.g. the 12-list).
struct ConfigList
{
    std::string name;
    std::string description;
    std::vector<Layout> layouts; ///< configuration number n is layouts[n - 1]
};

/// @brief A MIG-capable board: its slices, profiles, power curve and configuration lists.
struct GpuModel
{
    std::string name; ///< e.g. "A100-40GB"
    int computeSlices = kWholeGpuSlices;
    int memorySlices = kWholeGpuMemorySlices;
    std::vector<Profile> profiles;
    std::vector<double> powerW; ///< power in W for b = 0..computeSlices busy compute slices
    std::string powerSource;    ///< where the power curve comes from (measured or assumed)
    std::vector<ConfigList> configLists;

    [[nodiscard]] int findProfile(std::string_view profileName) const; ///< -1 when unknown
    [[nodiscard]] const ConfigList* findList(std::string_view listName) const;
    /// The whole-GPU profile (the one using every compute slice), -1 if the board has none.
    [[nodiscard]] int wholeGpuProfile() const;
};

/// @brief Why a layout is not valid: the instance it concerns (-1 for the whole layout) and a reason.
struct LayoutProblem
{
    int instance = -1;
    std::string message;
};

/// @brief Every reason @p layout breaks the placement rules of @p gpu (empty when it is valid):
/// unknown profile, start not allowed, overlap, too many compute slices, too many instances, more
/// than one media-extension instance.
[[nodiscard]] std::vector<LayoutProblem> validateLayout(const GpuModel& gpu, const Layout& layout);

/// @brief "3g.20gb@4" style text of one placement and of a whole layout ("4g.20gb@0 3g.20gb@4").
[[nodiscard]] std::string placementText(const GpuModel& gpu, const Placement& p);
[[nodiscard]] std::string layoutText(const GpuModel& gpu, const Layout& layout);

/// @brief Finds starts for the given profiles, keeping their order: the first valid assignment
/// found by trying each instance's allowed starts in ascending order. std::nullopt if none exists.
[[nodiscard]] std::optional<Layout> placeProfiles(const GpuModel& gpu, const std::vector<int>& profiles);

/// @brief Every valid non-empty layout (instances ordered by start), or only the maximal ones (to
/// which no instance can be added). Media-extension profiles are left out unless asked for.
[[nodiscard]] std::vector<Layout> enumerateLayouts(const GpuModel& gpu, bool maximalOnly,
                                                   bool includeMediaExtensions = false);

/// @brief True when no profile (media-extension variants excluded) can be added to @p layout.
[[nodiscard]] bool isMaximal(const GpuModel& gpu, const Layout& layout);

/// @brief Layouts equal as sets of placements (order ignored).
[[nodiscard]] bool sameInstances(const Layout& a, const Layout& b);

} // namespace simcore

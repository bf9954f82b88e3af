// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"

#include <string>

/// @brief Sentences the built-in schedulers give for their decisions when the engine asks for
/// explanations (simcore::ScheduleRound::explaining()). Only ever called then, so a normal run
/// builds no string. See docs/playback.md.
namespace policies::explain {

/// "3.1 min" (one decimal; two significant digits under 1 minute).
[[nodiscard]] std::string minutes(double m);
/// "GPU 3, 2g.10gb at start 4".
[[nodiscard]] std::string slice(const simcore::EngineView& view, int g, int instance);
/// "job 42 to GPU 3, 2g.10gb at start 4: " followed by @p why.
[[nodiscard]] std::string placed(const simcore::EngineView& view, int j, int g, int instance, const std::string& why);
/// Whether job j meets its deadline on @p compute slices from now: "done 5.0 min before its
/// deadline" or "3.1 min late".
[[nodiscard]] std::string finish(const simcore::EngineView& view, int j, int compute);
/// For the free sizes smaller than @p compute (anywhere in the fleet): "; 1g would miss it by
/// 3.1 min" for the largest one that misses the deadline; empty when there is none.
[[nodiscard]] std::string smallerMiss(const simcore::EngineView& view, int j, int compute);
/// Why a job got no slice: "job 42 waits: no free slice holds its 20 GiB" or "no free slice".
[[nodiscard]] std::string waits(const simcore::EngineView& view, int j);
/// The most-packed slice rule's reason for instance i of GPU g (EDF Most Packed, CEDF, SJF,
/// largest first); @p gpuRule says why this GPU was scanned first, e.g. "the most packed GPU".
[[nodiscard]] std::string mostPackedWhy(const simcore::EngineView& view, int j, int g, int instance,
                                        const std::string& gpuRule);

/// Places job j on instance @p instance of GPU @p g (g < 0: nothing fits) the way every
/// slice-choosing scheduler ends a job's turn: with the sentence @p why() gives when @p explaining
/// (read once per round), without building it otherwise; with nothing to place, and explaining,
/// says why the job waits. Returns whether the job was placed.
template <typename Why>
bool placeOrWait(simcore::ScheduleRound& round, bool explaining, int j, int g, int instance, Why&& why)
{
    if (g < 0) {
        if (explaining)
            round.explain(j, waits(round, j));
        return false;
    }
    return explaining ? round.place(j, g, instance, why()) : round.place(j, g, instance);
}

} // namespace policies::explain

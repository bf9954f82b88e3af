// SPDX-License-Identifier: GPL-3.0-or-later
#include "queue_order_schedulers.h"

#include "explain.h"
#include "slice_scan.h"

namespace policies {

namespace {

/// Places jobs in the engine's queue order with @p choose; when explaining, @p why gives the
/// reason for a choice (computed before the placement changes the fleet).
template <typename Choose, typename Why>
void placeInOrder(simcore::ScheduleRound& round, Choose choose, Why why)
{
    const bool explaining = round.explaining(); // read once: a normal run pays nothing per job
    for (int j = 0; round.freeInstances() > 0 && (j = round.next()) >= 0;) {
        const SliceChoice choice = choose(j);
        (void)explain::placeOrWait(round, explaining, j, choice.gpu, choice.instance, [&] {
            return explain::placed(round, j, choice.gpu, choice.instance, why(j, choice));
        });
    }
}

std::string workText(const simcore::EngineView& view, int j)
{
    return explain::minutes(view.remaining(j) * view.job(j).work1g) + " of work left on 1g";
}

std::string packedRule(const simcore::EngineView& view, int j, const SliceChoice& c, const std::string& order)
{
    const std::string rule = order + "; GPU " + std::to_string(c.gpu) + " is the most packed GPU with such a slice (" +
                             std::to_string(view.busy(c.gpu)) + " busy slices)";
    return explain::mostPackedWhy(view, j, c.gpu, c.instance, rule);
}

} // namespace

void Fcfs::schedule(simcore::ScheduleRound& round)
{
    placeInOrder(
        round, [&](int j) { return firstFitSlice(round, j); },
        [&](int j, const SliceChoice& c) {
            const int k = round.gpu(c.gpu).instances[static_cast<size_t>(c.instance)].compute;
            return "first come (released at " + explain::minutes(round.job(j).release) +
                   "), first fit: the first free slice by GPU, size, position (" + explain::finish(round, j, k) + ")";
        });
}

void ShortestJobFirst::schedule(simcore::ScheduleRound& round)
{
    placeInOrder(
        round, [&](int j) { return mostPackedSlice(round, j); },
        [&](int j, const SliceChoice& c) {
            return packedRule(round, j, c, "shortest first (" + workText(round, j) + ")");
        });
}

void LargestFirst::schedule(simcore::ScheduleRound& round)
{
    placeInOrder(
        round, [&](int j) { return mostPackedSlice(round, j); },
        [&](int j, const SliceChoice& c) {
            return packedRule(round, j, c, "largest first (" + workText(round, j) + ")");
        });
}

} // namespace policies

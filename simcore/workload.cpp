// SPDX-License-Identifier: GPL-3.0-or-later
#include "workload.h"

#include "rng.h"
#include "slices.h"

#include <cmath>
#include <numeric>

namespace simcore {

std::vector<double> paperHourlyRates()
{
    return {0.111, 0.083, 0.085, 0.100, 0.137, 0.169, 0.171, 0.169, 0.179, 0.191, 0.201, 0.188,
            0.170, 0.177, 0.168, 0.171, 0.163, 0.138, 0.120, 0.111, 0.129, 0.116, 0.106, 0.104};
}

JobMix defaultJobMix()
{
    // Order of defaultJobTypes(): bert_train, resnet_train, bert_infer, resnet_infer.
    return {{0.2 * 2.0 / 3.0, 0.2 / 3.0, 0.8 * 2.0 / 3.0, 0.8 / 3.0}};
}

namespace {

int drawType(Rng& rng, const JobMix& mix)
{
    const double total = std::accumulate(mix.weights.begin(), mix.weights.end(), 0.0);
    const double u = rng.uniform() * total;
    double acc = 0.0;
    for (size_t i = 0; i < mix.weights.size(); ++i) {
        acc += mix.weights[i];
        if (u < acc)
            return static_cast<int>(i);
    }
    return static_cast<int>(mix.weights.size()) - 1;
}

Job drawJob(Rng& rng, double release, int id, const std::vector<JobType>& types, const JobMix& mix,
            const SizeModel& sizes)
{
    Job job;
    job.id = id;
    job.release = release;
    job.type = drawType(rng, mix);
    const JobType& type = types[static_cast<size_t>(job.type)];
    job.work1g = type.training ? rng.logNormal(sizes.trainingMedianMin, sizes.trainingSigma)
                               : rng.exponential(sizes.inferenceMeanMin);
    const double factor = rng.uniform(sizes.slackMin, sizes.slackMax);
    job.deadline = release + factor * processingTime(job, type, kWholeGpuSlices);
    return job;
}

/// Poisson arrivals with a piecewise-constant rate: within each piece, exponential gaps; a gap
/// that crosses the piece's end restarts at the boundary (memoryless, so this is exact).
template <typename RateAt>
std::vector<Job> generate(std::uint64_t seed, double duration, double pieceLength, RateAt rateAt,
                          const std::vector<JobType>& types, const JobMix& mix, const SizeModel& sizes)
{
    std::vector<Job> jobs;
    Rng rng(seed);
    double t = 0.0;
    int id = 1;
    while (t < duration) {
        const double pieceEnd = std::min(duration, (std::floor(t / pieceLength) + 1.0) * pieceLength);
        const double rate = rateAt(t);
        if (rate <= 0.0) {
            t = pieceEnd;
            continue;
        }
        const double next = t + rng.exponential(1.0 / rate);
        if (next >= pieceEnd) {
            t = pieceEnd;
            continue;
        }
        t = next;
        jobs.push_back(drawJob(rng, t, id++, types, mix, sizes));
    }
    return jobs;
}

} // namespace

std::vector<Job> generateDiurnal(const DiurnalSpec& spec, const std::vector<JobType>& types, const JobMix& mix,
                                 const SizeModel& sizes)
{
    const auto rateAt = [&](double t) {
        if (spec.hourlyRates.empty())
            return 0.0;
        const auto hour = static_cast<size_t>(std::floor(t / 60.0)) % spec.hourlyRates.size();
        return spec.hourlyRates[hour] * spec.multiplier;
    };
    return generate(spec.seed, spec.hours * 60.0, 60.0, rateAt, types, mix, sizes);
}

std::vector<Job> generatePoisson(const PoissonSpec& spec, const std::vector<JobType>& types, const JobMix& mix,
                                 const SizeModel& sizes)
{
    const auto rateAt = [&](double) { return spec.ratePerMin; };
    return generate(spec.seed, spec.durationMin, spec.durationMin, rateAt, types, mix, sizes);
}

} // namespace simcore

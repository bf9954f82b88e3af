// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "job.h"

#include <cstdint>
#include <vector>

namespace simcore {

/// @brief Share of each job type in generated workloads, by index into the job types.
struct JobMix
{
    std::vector<double> weights; ///< need not sum to 1; normalised when drawing
};

/// @brief The papers' mix: 80% inference, 20% training, 2/3 BERT and 1/3 ResNet within each.
/// Assumes the order of defaultJobTypes().
[[nodiscard]] JobMix defaultJobMix();

/// @brief How job sizes and deadlines are drawn (docs/scenario-format.md).
struct SizeModel
{
    double inferenceMeanMin = 3.0;                ///< Exponential mean on a 1g slice
    double trainingMedianMin = 48.98979485566356; ///< sqrt(40 * 60)
    double trainingSigma = 0.12324987615234083;   ///< (ln 60 - ln 40) / (2 * 1.645)
    double slackMin = 1.0;                        ///< deadline = release + U(slackMin, slackMax) * p_{j,7}
    double slackMax = 1.5;
};

/// @brief The papers' hourly base arrival rates (jobs per minute, hours 0..23, Alibaba PAI).
[[nodiscard]] std::vector<double> paperHourlyRates();

/// @brief Diurnal Poisson arrivals: rate = hourlyRates[h] * multiplier within hour h, for
/// `hours` hours (the 24 rates repeat day after day).
struct DiurnalSpec
{
    std::vector<double> hourlyRates = paperHourlyRates();
    double multiplier = 1.0;
    double hours = 24.0;
    std::uint64_t seed = 1;
};

/// @brief Fixed-rate Poisson arrivals over a duration.
struct PoissonSpec
{
    double ratePerMin = 1.0;
    double durationMin = 1440.0;
    std::uint64_t seed = 1;
};

/// @brief Generates a diurnal day. Random draws per job, in this order from one Rng(seed):
/// inter-arrival gap, type, size, deadline factor. Ids are 1..n in release order.
[[nodiscard]] std::vector<Job> generateDiurnal(const DiurnalSpec& spec, const std::vector<JobType>& types,
                                               const JobMix& mix, const SizeModel& sizes);
/// @brief Generates fixed-rate Poisson arrivals, drawn as generateDiurnal does.
[[nodiscard]] std::vector<Job> generatePoisson(const PoissonSpec& spec, const std::vector<JobType>& types,
                                               const JobMix& mix, const SizeModel& sizes);

} // namespace simcore

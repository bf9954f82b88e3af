// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which case of a study (a sweep run, a compare run) goes to which process (docs/cluster.md):
// a shard of a Slurm array job takes a fixed share of the cases; under MPI the cases are handed
// out one at a time by rank 0 (model::CaseDistributor, implemented in app/cli/mpi_layer.cpp).
// Either way each case's result depends only on its index, so the results are the same whatever
// the number of shards, ranks and threads.

#include "bytes.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace model {

/// @brief The largest shard count `--shard i/N` accepts.
inline constexpr unsigned kMaxShards = 100'000;

/// @brief Shard @c index of @c count (0-based): `--shard 3/8` of a Slurm array job.
struct Shard
{
    unsigned index = 0;
    unsigned count = 1;
    [[nodiscard]] bool whole() const { return count == 1; }
};

/// @brief Parses "i/N" with 0 <= i < N <= kMaxShards. @throws std::invalid_argument naming the problem.
[[nodiscard]] Shard parseShard(const std::string& text);

/// @brief The cases of @p shard, given the order in which all cases are run (@p order, e.g. the
/// slowest first): position p of the order goes to shard p mod N, so every shard gets a like mix of
/// slow and fast cases. Returned in the order's order.
[[nodiscard]] std::vector<size_t> shardCases(const std::vector<size_t>& order, const Shard& shard);

/// @brief Runs the cases of a study over several processes and brings every result back.
class CaseDistributor
{
public:
    virtual ~CaseDistributor() = default;
    /// Runs every case of @p order (indices in [0, order.size())) once somewhere: @p compute(i)
    /// returns case i's result as bytes. Returns on every process the results by case index, as
    /// if one process had run them. @p threads threads per process compute (0: every core). @p
    /// progress (may be empty) is called on the first process only, with (cases done, total).
    /// @throws std::runtime_error with a case's message when a case failed (the lowest index).
    [[nodiscard]] virtual std::vector<std::string> run(const std::vector<size_t>& order, unsigned threads,
                                                       const std::function<std::string(size_t)>& compute,
                                                       const std::function<void(size_t, size_t)>& progress) const = 0;
    /// 0 on the process that gathers the results (and writes output), else 1.. processes()-1.
    [[nodiscard]] virtual int rank() const = 0;
    [[nodiscard]] virtual int processes() const = 0;
};

/// @brief Case results as bytes (simcore/bytes.h).
using simcore::Bytes;
using simcore::BytesReader;

} // namespace model

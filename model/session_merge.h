// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `migsight-cli sessions merge A.sqlite B.sqlite ... --out S.sqlite`: the shards of a Slurm array
// job (or any sessions) as one session (docs/cluster.md, "Merging shards").

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace model {

/// @brief The most session files one merge reads.
inline constexpr size_t kMaxMergeInputs = 100'000;

/// @brief What a merge did with one input file.
struct MergedInput
{
    std::string file;                       ///< as given
    int schema = 0;                         ///< its session schema version
    size_t runs = 0;                        ///< runs it holds
    size_t copied = 0;                      ///< runs copied into the merged session
    size_t duplicates = 0;                  ///< runs left out: the same run (settings and metrics) was already merged
    size_t differing = 0;                   ///< runs with the settings of a merged run but other metrics (both kept)
    std::vector<std::string> duplicateText; ///< "b.sqlite run 3 = a.sqlite run 7", at most 20
};

struct MergeReport
{
    std::vector<MergedInput> inputs;
    size_t runs = 0; ///< runs in the merged session
};

/// @brief Merges session files into a new session @p out (written to a temporary file beside it
/// and renamed over it when complete). Every input is opened read-only and checked (integrity,
/// checksums) first and never changed. A run whose scenario, policies, seed, variant and metrics
/// equal a run merged before it is a duplicate and left out; the merged session's meta value
/// "merged_from" records each input (path, size, schema, run ids old -> new, duplicates, and an
/// input's own "merged_from"), and a note says what was merged.
/// @throws SessionError (naming the file and the problem) for an input given twice (the same
/// device and inode, whatever its path), an @p out that is one of the inputs, a missing, damaged or
/// newer input; OutputError for an @p out that is not a regular file. Nothing is written then.
MergeReport mergeSessions(const std::vector<std::filesystem::path>& inputs, const std::filesystem::path& out);

} // namespace model

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A study exported as a ready-to-submit cluster job folder (docs/cluster.md, "Job folders"): the
// scenario, the exact commands, Slurm scripts and a README, written by the studio's Plan page and
// by `migsight-cli sweep|plan ... --job-folder DIR`.

#include "scenario.h"

#include <filesystem>
#include <string>
#include <vector>

namespace model {

/// @brief What a job folder runs.
struct JobFolderSpec
{
    enum class Kind { Sweep, StaticSearch };
    Kind kind = Kind::Sweep;
    /// The command's options after the scenario file, e.g. {"--gpus", "1-32", "--seeds", "1-5"};
    /// without --db, --shard, --out, --threads or --job-folder (the folder's scripts set those).
    std::vector<std::string> options;
    unsigned shards = 1; ///< a sweep's Slurm array tasks, 1..kMaxJobShards (a static search is one task)
    bool mpi = false;    ///< also write an MPI job script (the build has MPI)
};

/// @brief The most array tasks a job folder's sweep is split into.
inline constexpr unsigned kMaxJobShards = 10'000;

/// @brief A shell word: @p word as is when it is plain, else in single quotes.
[[nodiscard]] std::string shellQuoted(const std::string& word);

/// @brief The folder's files, name -> text: scenario.json, commands.txt, README.txt, run-local.sh,
/// submit.sh, and for a sweep sweep-array.sbatch and merge.sbatch (sweep-mpi.sbatch with @c mpi),
/// for a static search plan.sbatch (and plan-mpi.sbatch with @c mpi).
[[nodiscard]] std::vector<std::pair<std::string, std::string>> jobFolderFiles(const Scenario& scenario,
                                                                              const JobFolderSpec& spec);

/// @brief Writes the job folder @p dir: into a temporary folder beside it, renamed to @p dir when
/// every file is written (scripts executable). @throws OutputError when @p dir exists and is not an
/// empty folder, or its parent folder is missing; std::invalid_argument for a shard count out of
/// range; std::runtime_error naming the file when a write fails (nothing is left behind then).
void writeJobFolder(const std::filesystem::path& dir, const Scenario& scenario, const JobFolderSpec& spec);

} // namespace model

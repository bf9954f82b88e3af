// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweep_job.h"

#include "atomic_file.h"
#include "scenario_writer.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace model {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxJobsCsvBytes = 256ULL * 1024 * 1024;

std::string joined(const std::vector<std::string>& words)
{
    std::string out;
    for (const auto& w : words) {
        out += ' ';
        out += shellQuoted(w);
    }
    return out;
}

const char* kPrelude = "set -euo pipefail\n"
                       "cd \"${SLURM_SUBMIT_DIR:-$(dirname \"$0\")}\"\n"
                       "MIGSIGHT_CLI=\"${MIGSIGHT_CLI:-migsight-cli}\"\n";

/// A one-step batch script: its #SBATCH lines (job name, tasks, cores per task, log file), the
/// prelude, then @p command (after `exec `).
std::string sbatchScript(const std::string& name, const std::string& tasks, const std::string& cores,
                         const std::string& log, const std::string& command)
{
    std::string script = "#!/bin/bash\n#SBATCH --job-name=" + name + "\n#SBATCH --ntasks=" + tasks;
    script += "\n#SBATCH --cpus-per-task=" + cores + "\n#SBATCH --output=" + log + "\n";
    script += kPrelude;
    script += "exec " + command;
    return script;
}

/// The sweep's files: an array job of shards, the merge, and the same without Slurm.
void sweepFiles(const JobFolderSpec& spec, std::vector<std::pair<std::string, std::string>>& files)
{
    const std::string n = std::to_string(spec.shards);
    const std::string opts = joined(spec.options);
    std::string commands = "# The sweep's " + n +
                           " shards: one Slurm array task each (sweep-array.sbatch), or one\n"
                           "# after the other on one machine (run-local.sh).\n";
    for (unsigned i = 0; i < spec.shards; ++i) {
        const std::string s = std::to_string(i);
        commands += "migsight-cli sweep scenario.json" + opts;
        commands += " --threads 1 --quiet --shard " + s + "/" + n + " --db shards/shard-" + s + ".sqlite\n";
    }
    commands += "# Then one session of every run, which the studio opens with the sweep on its Plan page:\n";
    commands += "migsight-cli sessions merge shards/shard-*.sqlite --out sweep.sqlite\n";
    files.emplace_back("commands.txt", commands);

    std::string array = "#!/bin/bash\n#SBATCH --job-name=migsight-sweep\n#SBATCH --array=0-" +
                        std::to_string(spec.shards - 1) +
                        "\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --output=sweep-%A_%a.out\n";
    array += kPrelude;
    array += "mkdir -p shards\n";
    array +=
        "exec \"$MIGSIGHT_CLI\" sweep scenario.json" + opts + " --threads \"${SLURM_CPUS_PER_TASK:-1}\" --quiet \\\n";
    array += "    --shard \"$SLURM_ARRAY_TASK_ID/" + n + "\" --db \"shards/shard-$SLURM_ARRAY_TASK_ID.sqlite\"\n";
    files.emplace_back("sweep-array.sbatch", array);

    std::string merge = "#!/bin/bash\n#SBATCH --job-name=migsight-merge\n#SBATCH --ntasks=1\n"
                        "#SBATCH --output=merge-%j.out\n";
    merge += kPrelude;
    merge += "files=()\nfor ((i = 0; i < " + n + "; i++)); do\n";
    merge += "    f=\"shards/shard-$i.sqlite\"\n"
             "    if [ ! -f \"$f\" ]; then\n"
             "        echo \"$f is missing: run shard $i again (sbatch --array=$i sweep-array.sbatch)\" >&2\n"
             "        exit 1\n"
             "    fi\n"
             "    files+=(\"$f\")\n"
             "done\n"
             "exec \"$MIGSIGHT_CLI\" sessions merge \"${files[@]}\" --out sweep.sqlite\n";
    files.emplace_back("merge.sbatch", merge);

    files.emplace_back("submit.sh", std::string("#!/bin/bash\n# Submits the shards as a Slurm array job and the merge "
                                                "to run after every shard succeeded.\n") +
                                        "set -euo pipefail\ncd \"$(dirname \"$0\")\"\n"
                                        "array=$(sbatch --parsable sweep-array.sbatch)\n"
                                        "sbatch --dependency=afterok:\"${array%%;*}\" merge.sbatch\n");

    std::string local = "#!/bin/bash\n# Without Slurm: every shard one after the other on this machine, then the "
                        "merge.\nset -euo pipefail\ncd \"$(dirname \"$0\")\"\n"
                        "export MIGSIGHT_CLI=\"${MIGSIGHT_CLI:-migsight-cli}\"\nmkdir -p shards\n";
    local += "for ((i = 0; i < " + n + "; i++)); do\n";
    local += "    \"$MIGSIGHT_CLI\" sweep scenario.json" + opts + " --quiet --shard \"$i/" + n +
             "\" --db \"shards/shard-$i.sqlite\"\n";
    local += "done\nbash merge.sbatch\n";
    files.emplace_back("run-local.sh", local);

    if (spec.mpi)
        files.emplace_back("sweep-mpi.sbatch",
                           sbatchScript("migsight-sweep-mpi", n, "1", "sweep-mpi-%j.out",
                                        "mpirun \"$MIGSIGHT_CLI\" sweep scenario.json" + opts +
                                            " --threads \"${SLURM_CPUS_PER_TASK:-1}\" --quiet --db sweep.sqlite\n"));
}

/// A static search: one task on one node's cores; with @c mpi also as one MPI job whose ranks share
/// the search (docs/cluster.md, "Planning").
void staticFiles(const JobFolderSpec& spec, std::vector<std::pair<std::string, std::string>>& files)
{
    const std::string opts = joined(spec.options);
    files.emplace_back("commands.txt",
                       "# The search, on every core of one node; the study goes into plan.sqlite, which the\n"
                       "# studio opens with it on its Plan page:\n"
                       "migsight-cli plan scenario.json --search static" +
                           opts + " --quiet --out result.json --db plan.sqlite\n");
    const std::string search = "\"$MIGSIGHT_CLI\" plan scenario.json --search static" + opts;
    const std::string outputs = " --quiet \\\n    --out result.json --db plan.sqlite\n";
    files.emplace_back("plan.sbatch", sbatchScript("migsight-plan", "1", "8", "plan-%j.out",
                                                   search + " --threads \"${SLURM_CPUS_PER_TASK:-0}\"" + outputs));
    files.emplace_back("submit.sh", "#!/bin/bash\nset -euo pipefail\ncd \"$(dirname \"$0\")\"\nsbatch plan.sbatch\n");
    files.emplace_back("run-local.sh", "#!/bin/bash\n# Without Slurm: the search on this machine.\nset -euo pipefail\n"
                                       "cd \"$(dirname \"$0\")\"\nbash plan.sbatch\n");
    if (spec.mpi)
        files.emplace_back("plan-mpi.sbatch",
                           sbatchScript("migsight-plan-mpi", "8", "1", "plan-mpi-%j.out",
                                        "mpirun " + search + " --threads \"${SLURM_CPUS_PER_TASK:-1}\"" + outputs));
}

std::string readme(const Scenario& scenario, const JobFolderSpec& spec)
{
    const bool sweep = spec.kind == JobFolderSpec::Kind::Sweep;
    std::ostringstream r;
    r << "MIGsight cluster job: " << (sweep ? "fleet-size sweep" : "best static layout search") << " of \""
      << scenario.name << "\"\n\n";
    r << "scenario.json    the scenario the commands run (policies included)\n";
    r << "commands.txt     the exact migsight-cli commands\n";
    if (sweep) {
        r << "sweep-array.sbatch  a Slurm array job of " << spec.shards << " shards (--shard I/" << spec.shards
          << "), each into shards/shard-I.sqlite\n";
        r << "merge.sbatch     joins the shards into sweep.sqlite (sessions merge); stops when a shard is missing\n";
        if (spec.mpi)
            r << "sweep-mpi.sbatch the same sweep as one MPI job of " << spec.shards
              << " ranks, straight into sweep.sqlite\n";
    } else {
        r << "plan.sbatch      one Slurm task on the cores it asks for (--cpus-per-task); writes result.json and\n"
             "                 the study into plan.sqlite\n";
        if (spec.mpi)
            r << "plan-mpi.sbatch  the same search as one MPI job of 8 ranks (--ntasks; edit it) sharing the\n"
                 "                 layouts, into the same files: sbatch plan-mpi.sbatch instead of submit.sh\n";
    }
    r << "submit.sh        submits it all: bash submit.sh\n";
    r << "run-local.sh     runs the same commands here, without Slurm: bash run-local.sh\n\n";
    r << "migsight-cli must be on the PATH of the nodes, or set MIGSIGHT_CLI=/path/to/migsight-cli\n"
         "(sbatch passes the environment on). Adjust the #SBATCH lines (partition, time, cores) to\n"
         "your cluster. Results do not depend on the number of shards, ranks or threads.\n\n";
    r << "When it is done, open " << (sweep ? "sweep.sqlite" : "plan.sqlite")
      << " in the MIGsight studio (File > Open): the Plan page shows the\n"
      << (sweep ? "sweep (Fleet size tab), rebuilt from the stored runs without simulating again.\n"
                : "search (Best static layout tab) as if it had run there.\n");
    r << "More: docs/cluster.md of MIGsight.\n";
    return r.str();
}

std::string fileText(const fs::path& path)
{
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec || size > kMaxJobsCsvBytes)
        throw std::runtime_error(path.string() + ": cannot copy the scenario's jobs CSV into the job folder" +
                                 (ec ? ": " + ec.message() : std::string(": larger than 256 MiB")));
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    if (!in && !in.eof())
        throw std::runtime_error(path.string() + ": cannot read it");
    return s.str();
}

} // namespace

std::string shellQuoted(const std::string& word)
{
    const bool plain = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                               "0123456789-_./,:=+@%") == std::string::npos;
    if (plain)
        return word;
    std::string out = "'";
    for (const char c : word) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    out += '\'';
    return out;
}

std::vector<std::pair<std::string, std::string>> jobFolderFiles(const Scenario& scenario, const JobFolderSpec& spec)
{
    if (spec.shards < 1 || spec.shards > kMaxJobShards)
        throw std::invalid_argument("a job folder takes 1 to " + std::to_string(kMaxJobShards) + " shards, got " +
                                    std::to_string(spec.shards));
    std::vector<std::pair<std::string, std::string>> files;
    Scenario s = scenario;
    if (s.workload.kind == WorkloadSpec::Kind::Csv) { // the jobs go with the scenario
        files.emplace_back("jobs.csv", fileText(s.workload.csvPath));
        s.workload.csvPath = "jobs.csv";
    }
    files.emplace_back("scenario.json", writeScenarioJson(s));
    if (spec.kind == JobFolderSpec::Kind::Sweep)
        sweepFiles(spec, files);
    else
        staticFiles(spec, files);
    files.emplace_back("README.txt", readme(scenario, spec));
    return files;
}

void writeJobFolder(const fs::path& dir, const Scenario& scenario, const JobFolderSpec& spec)
{
    std::error_code ec;
    if (fs::exists(dir, ec) && (!fs::is_directory(dir, ec) || !fs::is_empty(dir, ec)))
        throw OutputError(dir.string() + ": the job folder exists and is not empty; choose a new or empty folder");
    const fs::path parent = dir.parent_path().empty() ? fs::path(".") : dir.parent_path();
    if (!fs::is_directory(parent, ec))
        throw OutputError(dir.string() + ": its folder " + parent.string() + " does not exist");
    const auto files = jobFolderFiles(scenario, spec);
    std::string name = ".";
    name += dir.filename().string();
    name += ".writing-";
    name += std::to_string(static_cast<long long>(::getpid()));
    const fs::path temp = parent / name;
    fs::remove_all(temp, ec);
    try {
        fs::create_directory(temp);
        for (const auto& [file, text] : files) {
            const fs::path path = temp / file;
            std::ofstream out(path, std::ios::binary);
            out << text;
            out.close();
            if (!out)
                throw std::runtime_error(path.string() + ": cannot write it");
            if (file.size() > 3 && (file.ends_with(".sh") || file.ends_with(".sbatch")))
                fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                                fs::perm_options::add);
        }
        fs::rename(temp, dir); // replaces an empty folder; atomic on one file system
    } catch (const std::exception& e) {
        fs::remove_all(temp, ec);
        throw std::runtime_error(dir.string() + ": the job folder could not be written, nothing was left: " + e.what());
    }
}

} // namespace model

// SPDX-License-Identifier: GPL-3.0-or-later
#include "planjobexport.h"

#include <QFileDialog>
#include <QInputDialog>
#include <QObject>

namespace ui {

namespace {

std::string number(double v)
{
    return QString::number(v, 'g', 17).toStdString(); // shortest digits that read back the same double
}

std::string seedsText(const std::vector<std::uint64_t>& seeds)
{
    std::string text;
    for (const auto s : seeds) {
        if (!text.empty())
            text += ',';
        text += std::to_string(s);
    }
    const bool run = !seeds.empty() && seeds.front() == 1 && seeds.back() == seeds.size();
    return run && seeds.size() > 1 ? "1-" + std::to_string(seeds.size()) : text;
}

void add(model::JobFolderSpec& spec, const char* option, std::string value)
{
    spec.options.emplace_back(option);
    spec.options.push_back(std::move(value));
}

} // namespace

model::JobFolderSpec sweepJobSpec(const model::SweepOptions& o, const model::TardinessTarget& target, double atLoad)
{
    model::JobFolderSpec spec;
    spec.mpi = jobFolderWithMpi();
    std::string gpus, loads, boards;
    for (const int n : o.gpuCounts)
        gpus += (gpus.empty() ? "" : ",") + std::to_string(n);
    for (const double l : o.loads)
        loads += (loads.empty() ? "" : ",") + number(l);
    for (const auto& b : o.boards)
        boards += (boards.empty() ? "" : ",") + b;
    add(spec, "--gpus", gpus);
    add(spec, "--loads", loads);
    if (!boards.empty())
        add(spec, "--boards", boards);
    add(spec, "--seeds", seedsText(o.seeds));
    add(spec, "--target", (target.metric == model::TardinessMetric::P95 ? "p95<=" : "avg<=") + number(target.limitMin));
    add(spec, "--at-load", number(atLoad));
    return spec;
}

model::JobFolderSpec staticJobSpec(const model::StaticSearchOptions& o)
{
    model::JobFolderSpec spec;
    spec.kind = model::JobFolderSpec::Kind::StaticSearch;
    spec.mpi = jobFolderWithMpi();
    if (!o.candidates.empty())
        add(spec, "--candidates", o.candidates);
    add(spec, "--seeds", seedsText(o.seeds));
    add(spec, "--top", std::to_string(o.top));
    add(spec, "--method",
        o.method == model::SearchMethod::Exhaustive ? "exhaustive"
        : o.method == model::SearchMethod::Local    ? "local"
                                                    : "auto");
    return spec;
}

QString writeJobFolderTo(const QString& dir, const model::Scenario& scenario, const model::JobFolderSpec& spec)
{
    try {
        model::writeJobFolder(dir.toStdString(), scenario, spec);
    } catch (const std::exception& e) {
        return QObject::tr("No job folder was written: %1").arg(QString::fromStdString(e.what()));
    }
    if (spec.kind == model::JobFolderSpec::Kind::Sweep)
        return QObject::tr("Wrote the job folder %1: %2 shards as a Slurm array job and their merge into "
                           "sweep.sqlite. Submit it with \"bash submit.sh\" there; open sweep.sqlite here when "
                           "it is done (README.txt).")
            .arg(dir)
            .arg(spec.shards);
    return QObject::tr("Wrote the job folder %1: the search as one Slurm task writing its study into plan.sqlite. "
                       "Submit it with \"bash submit.sh\" there; open plan.sqlite here when it is done (README.txt).")
        .arg(dir);
}

QString askAndWriteJobFolder(QWidget* parent, const model::Scenario& scenario, model::JobFolderSpec spec)
{
    const QString dir =
        QFileDialog::getSaveFileName(parent, QObject::tr("New cluster job folder"), QStringLiteral("migsight-job"),
                                     QString(), nullptr, QFileDialog::ShowDirsOnly);
    if (dir.isEmpty())
        return {};
    if (spec.kind == model::JobFolderSpec::Kind::Sweep) {
        bool ok = false;
        const int shards =
            QInputDialog::getInt(parent, QObject::tr("Cluster job folder"),
                                 QObject::tr("Shards (tasks of the Slurm array job; each simulates every N-th run):"),
                                 8, 1, static_cast<int>(model::kMaxJobShards), 1, &ok);
        if (!ok)
            return {};
        spec.shards = static_cast<unsigned>(shards);
    }
    return writeJobFolderTo(dir, scenario, spec);
}

bool jobFolderWithMpi()
{
#ifdef MIGSIGHT_JOB_FOLDER_MPI
    return true;
#else
    return false;
#endif
}

} // namespace ui

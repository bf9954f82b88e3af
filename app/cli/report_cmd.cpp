// SPDX-License-Identifier: GPL-3.0-or-later
// migsight-cli report: the PDF report of a scenario's runs or of a session's stored runs. It paints
// with the studio's own chart and fleet widgets, so it starts a QApplication on the offscreen
// platform (no display needed).
#include "args.h"
#include "atomic_file.h"
#include "commands.h"
#include "compare.h"
#include "offscreen.h"
#include "report_data.h"
#include "reportwriter.h"

#include <QApplication>
#include <QFileInfo>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

namespace cli {

namespace {

bool isSession(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    char head[16] = {};
    in.read(head, sizeof head);
    return in.gcount() == sizeof head && std::string(head, 15) == "SQLite format 3";
}

/// The folder of --out must exist and be writable: checked before any simulation runs.
void checkOut(const std::string& out)
{
    const QFileInfo file(QString::fromStdString(out));
    const QFileInfo dir(file.absolutePath());
    (void)model::checkOutputTarget(out); // a device, FIFO or folder is refused (exit 2)
    if (!dir.isDir())
        throw UsageError("--out " + out + ": the folder " + dir.filePath().toStdString() + " does not exist");
    if (!dir.isWritable())
        throw UsageError("--out " + out + ": the folder " + dir.filePath().toStdString() + " is not writable");
}

model::ReportData fromScenario(const Args& args, const std::string& input, model::Problems& problems)
{
    auto scenario = std::make_shared<model::Scenario>(model::loadScenario(input, problems));
    if (!problems.empty())
        return {};
    std::vector<model::RunPair> pairs =
        args.value("--runs") ? model::parseRunPairs(*args.value("--runs")) : model::defaultReportPairs(*scenario);
    if (pairs.size() > model::kMaxReportRuns)
        throw UsageError("--runs: at most " + std::to_string(model::kMaxReportRuns) + " runs fit a report, got " +
                         std::to_string(pairs.size()));
    std::optional<std::uint64_t> seed;
    if (auto s = args.value("--seed")) {
        try {
            seed = model::parseSeeds(*s).front();
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--seed: ") + e.what());
        }
    }
    return model::reportFromScenario(scenario, input, pairs, seed, problems);
}

} // namespace

int runReport(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {}, {"--runs", "--out", "--seed", "--objective", "--baseline"});
    const std::string input = args.onePositional("scenario or session file");
    const auto outPath = args.value("--out");
    if (!outPath)
        throw UsageError("--out REPORT.pdf is required");
    if (!std::filesystem::exists(input)) {
        err << "error: " << input << ": no such file\n";
        return kExitBadInput;
    }
    checkOut(*outPath);
    const bool session = isSession(input);
    if (session && args.value("--seed"))
        throw UsageError("--seed applies to scenario files; a session's runs keep their own seeds");
    model::Objective objective;
    try {
        objective = model::parseObjective(args.value("--objective").value_or("et"));
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--objective: ") + e.what());
    }
    model::Problems problems;
    model::ReportData data =
        session ? model::reportFromSession(input, args.value("--runs"), problems) : fromScenario(args, input, problems);
    if (!problems.empty()) {
        for (const auto& p : problems.items())
            err << "error: " << p.text() << "\n";
        return kExitBadInput;
    }
    if (data.runs.size() > model::kMaxReportRuns)
        throw UsageError("the session has " + std::to_string(data.runs.size()) + " runs; pick at most " +
                         std::to_string(model::kMaxReportRuns) + " with --runs (ids or scheduler/repartitioner)");
    data.objective = objective;
    data.baseline = args.value("--baseline").value_or(std::string());
    try {
        (void)model::reportVerdict(data); // the report paints it; a bad --baseline ends here
    } catch (const std::invalid_argument& e) {
        // A bad --baseline, or a cost objective without prices.
        throw UsageError(
            std::string(data.objective.kind == model::ObjectiveKind::CostPerDay ? "--objective: " : "--baseline: ") +
            e.what());
    }
    // Widgets paint the charts: a QApplication on the offscreen platform, whatever the display.
    useOffscreenPlatform(true);
    QtArguments qt;
    QApplication app(qt.argc, qt.argv);
    QString error;
    if (!ui::writeReport(data, QString::fromStdString(*outPath), &error)) {
        err << "error: " << error.toStdString() << "\n";
        return kExitFailure;
    }
    out << "wrote " << *outPath << ": " << ui::reportPageCount(data) << " pages, " << data.runs.size() << " runs of "
        << data.scenario->name << "\n";
    return kExitOk;
}

} // namespace cli

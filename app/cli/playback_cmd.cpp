// SPDX-License-Identifier: GPL-3.0-or-later
// migsight-cli playback: a run re-simulated with explanations on, written as numbered PNG frames
// for slides (docs/playback.md). It paints with the studio's playback painter, so it starts a
// QGuiApplication on the offscreen platform (no display needed).
#include "args.h"
#include "commands.h"
#include "offscreen.h"
#include "playback.h"
#include "playbackexport.h"
#include "policy_choice.h"

#include <QGuiApplication>

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

namespace cli {

namespace {

double number(const Args& args, const std::string& name, double fallback)
{
    const auto v = args.value(name);
    if (!v)
        return fallback;
    try {
        size_t used = 0;
        const double x = std::stod(*v, &used);
        if (used != v->size() || !std::isfinite(x))
            throw std::invalid_argument("");
        return x;
    } catch (const std::exception&) {
        throw UsageError(name + " needs a number, got '" + *v + "'");
    }
}

QSize frameSize(const Args& args)
{
    const std::string text = args.value("--size").value_or("1280x800");
    int w = 0;
    int h = 0;
    char x = 0;
    // At most 8192x8192: a frame is painted in memory (4 bytes a pixel) before it is written.
    if (std::sscanf(text.c_str(), "%d%c%d", &w, &x, &h) != 3 || x != 'x' || w < 320 || h < 240 || w > 8192 || h > 8192)
        throw UsageError("--size needs WIDTHxHEIGHT from 320x240 to 8192x8192, got '" + text + "'");
    return {w, h};
}

/// The frames' decisions as text (--text FILE): per frame its time and the lines the frame shows
/// under the fleet (Playback::describe: the policies' own reasons, a Python policy's included).
void writeFrameText(const std::string& path, const model::Playback& playback, const std::vector<int>& frames)
{
    writeOutputFile(path, [&](std::ostream& f) {
        char head[64];
        for (size_t k = 0; k < frames.size(); ++k) {
            std::snprintf(head, sizeof head, "frame %zu: event %d at %.3f min\n", k + 1, frames[k] + 1,
                          playback.step(frames[k]).time);
            f << head;
            for (const auto& line : playback.describe(frames[k]))
                f << "  " << line << "\n";
        }
    });
}

} // namespace

int runPlayback(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(
        words, {},
        {"--scheduler", "--repartitioner", "--seed", "--from", "--to", "--steps", "--out-dir", "--size", "--text"});
    const std::string input = args.onePositional("SCENARIO.json");
    const auto outDir = args.value("--out-dir");
    if (!outDir)
        throw UsageError("--out-dir DIR is required");
    const double from = number(args, "--from", 0.0);
    const double to = number(args, "--to", std::numeric_limits<double>::infinity());
    const double steps = number(args, "--steps", 100.0);
    if (steps < 1.0 || steps > 100000.0 || to < from)
        throw UsageError("--steps needs 1..100000 and --to must not be before --from");
    const QSize size = frameSize(args);

    model::Problems problems;
    auto scenario = std::make_shared<const model::Scenario>(model::loadScenario(input, problems));
    model::RunOptions options;
    if (auto s = args.value("--scheduler"))
        options.scheduler = model::parsePolicyChoice(*s, model::PolicyKind::Scheduler);
    if (auto s = args.value("--repartitioner"))
        options.repartitioner = model::parsePolicyChoice(*s, model::PolicyKind::Repartitioner);
    if (auto s = args.value("--seed"))
        options.seed = seedOption("--seed", *s);
    options.timeSeries = false;
    std::vector<simcore::Job> jobs;
    if (problems.empty())
        jobs = model::scenarioJobs(*scenario, options.seed, problems);
    if (!problems.empty()) {
        for (const auto& p : problems.items())
            err << "error: " << p.text() << "\n";
        return kExitBadInput;
    }
    const auto playback = model::Playback::record(scenario, std::move(jobs), options);

    // Painting needs a GUI application (fonts); the offscreen platform needs no display.
    useOffscreenPlatform(false);
    QtArguments qt;
    QGuiApplication app(qt.argc, qt.argv);
    const auto frames = ui::framesBetween(*playback, from, to, static_cast<int>(steps));
    if (auto text = args.value("--text"))
        writeFrameText(*text, *playback, frames);
    QString error;
    const int written = ui::writePlaybackFrames(*playback, frames, QString::fromStdString(*outDir), size, &error);
    if (!error.isEmpty()) {
        err << "error: " << error.toStdString() << "\n";
        return kExitFailure;
    }
    out << "wrote " << written << " frames (of " << playback->stepCount() << " events) to " << *outDir << "\n";
    return kExitOk;
}

} // namespace cli

// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a test): the Playback page playing the paper fleet day (samples/paper-fleet.json,
// its own policies) offscreen at 1280x800. Prints the recording time and the frame time (one step
// forward plus a synchronous repaint of the whole page): median, p95 and max. 60 steps/s needs a
// frame well under 16.7 ms.
//   build/release/bench/bench_playback [frames] [scenario.json]
#include "playbackpage.h"
#include "scenario.h"
#include "workspace.h"

#include <QApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int frames = argc > 1 ? std::atoi(argv[1]) : 0;
    const std::string path = argc > 2 ? argv[2] : MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json";
    model::Problems problems;
    auto scenario = std::make_shared<const model::Scenario>(model::loadScenario(path, problems));
    if (!problems.empty()) {
        std::fprintf(stderr, "%s\n", problems.items().front().text().c_str());
        return 2;
    }
    QElapsedTimer clock;
    clock.start();
    auto jobs = model::scenarioJobs(*scenario, std::nullopt, problems);
    model::RunOptions options;
    options.timeSeries = false;
    const auto playback = model::Playback::record(scenario, std::move(jobs), options);
    const double recordMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;

    ui::Workspace workspace;
    ui::PlaybackPage page(&workspace);
    page.resize(1280, 800);
    page.show();
    page.setPlayback(playback);
    QApplication::processEvents();
    const int n = frames > 0 ? std::min(frames, playback->stepCount()) : playback->stepCount();
    std::vector<double> ms;
    ms.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        clock.restart();
        page.stepForward();
        page.repaint();
        ms.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
    }
    // Stepping back costs a keyframe copy plus at most 63 replayed steps.
    std::vector<double> back;
    for (int i = 0; i < std::min(n, 2000); ++i) {
        clock.restart();
        page.stepBack();
        page.repaint();
        back.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
    }
    auto report = [](const char* what, std::vector<double> v) {
        if (v.empty())
            return;
        std::sort(v.begin(), v.end());
        const auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<size_t>(q * v.size()))]; };
        std::printf("%-14s %7zu frames  median %.2f ms  p95 %.2f ms  max %.2f ms\n", what, v.size(), at(0.5), at(0.95),
                    v.back());
    };
    std::printf("%s: %d events, %zu jobs, %d GPUs; recorded with explanations in %.0f ms\n", scenario->name.c_str(),
                playback->stepCount(), playback->jobs().size(), playback->gpuCount(), recordMs);
    report("step forward", ms);
    report("step back", back);
    return 0;
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a test): is the studio responsive while the Plan page searches? Opens the main
// window offscreen on a scenario (default samples/paper-fleet.json), starts the best-static-layout
// search from the Plan page and times every event the GUI thread handles until the search ends
// (or until the time limit, then it cancels and times the cancel too). Prints the number of events,
// the longest, the p99 and how many took over 50 ms, and the longest gap of a 10 ms timer.
//   build/release/bench/bench_plan_gui [seconds-limit] [scenario.json]
#include "bench_gui_support.h"
#include "mainwindow.h"
#include "planpage.h"
#include "planstaticpanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    bench::TimedApplication app(argc, argv);
    std::vector<double> ms; // the GUI thread's events while the search runs
    const double limitS = argc > 1 ? std::atof(argv[1]) : 120.0;
    const QString path =
        argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json");
    ui::MainWindow window;
    window.show();
    if (!window.openScenario(path)) {
        std::fprintf(stderr, "cannot open %s\n", qPrintable(path));
        return 2;
    }
    window.showPage(QStringLiteral("plan"));
    ui::PlanStaticPanel* panel = window.planPage()->staticPanel();
    QElapsedTimer clock;
    double maxGapMs = 0.0;
    qint64 lastTick = 0;
    QTimer tick;
    tick.setInterval(10);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        maxGapMs = std::max(maxGapMs, static_cast<double>(now - lastTick) / 1e6);
        lastTick = now;
    });
    bool cancelled = false;
    QTimer limit;
    limit.setSingleShot(true);
    QObject::connect(&limit, &QTimer::timeout, [&] {
        cancelled = true;
        panel->cancelSearch();
    });
    QObject::connect(panel, &ui::PlanStaticPanel::searchEnded, &app, &QApplication::quit);
    QTimer::singleShot(0, [&] {
        clock.start();
        app.onEvent = [&](const QObject*, int, qint64 ns) { ms.push_back(static_cast<double>(ns) / 1e6); };
        tick.start();
        limit.start(static_cast<int>(limitS * 1000));
        if (!panel->startSearch()) {
            std::fprintf(stderr, "the search did not start\n");
            app.exit(1);
        }
    });
    const int rc = app.exec();
    app.onEvent = nullptr;
    std::sort(ms.begin(), ms.end());
    const auto over = std::count_if(ms.begin(), ms.end(), [](double v) { return v > 50.0; });
    std::printf("search %s after %.1f s; %s\n", cancelled ? "cancelled" : "finished",
                static_cast<double>(clock.nsecsElapsed()) / 1e9, qPrintable(panel->statusLabel()->text()));
    if (!ms.empty())
        std::printf("GUI-thread events: %zu, longest %.2f ms, p99 %.2f ms, over 50 ms: %td; "
                    "longest gap of a 10 ms timer: %.1f ms\n",
                    ms.size(), ms.back(), ms[ms.size() * 99 / 100], over, maxGapMs);
    return rc;
}

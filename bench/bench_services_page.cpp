// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a test): the Services page after an edit, offscreen, in the studio's main window
// (so the workspace's own re-run of the scenario competes for the cores, as in the studio). For
// each kind of edit it prints the time from the edit to the page showing the new numbers (its
// updated() signal) and to WVA's and HPA's figures (pairShown(), or updated() when they come
// last), how many autoscalers the page simulated, and the longest the GUI thread was
// busy with one event meanwhile (docs/services.md, "In the studio"). Edits are a second apart.
//   build/dev/bench/bench_services_page [scenario.json] [edits per kind]
// Kinds: "load" (the batch day's load: every autoscaler re-runs), "wva" (a parameter of the
// scenario's autoscaler: that one re-runs), "undo" (an edit, then back to the scenario before it,
// timed: none re-runs).
#include "bench_gui_support.h"
#include "mainwindow.h"
#include "servicespage.h"
#include "workspace.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

using bench::median;
using bench::pause;

bool waitUpdated(ui::ServicesPage* page, int timeoutMs)
{
    return bench::waitForSignal(page, &ui::ServicesPage::updated, timeoutMs);
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    bench::TimedApplication app(argc, argv);
    qint64 longestNs = 0; // the longest GUI event of an edit
    QString path = QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/inference-services.json");
    int edits = 5;
    int positional = 0;
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (arg.startsWith(QLatin1String("-"))) {
            std::printf("usage: bench_services_page [scenario.json] [edits per kind]\n");
            return arg == QLatin1String("--help") ? 0 : 2;
        }
        if (positional++ == 0)
            path = arg;
        else
            edits = std::clamp(arg.toInt(), 1, 100);
    }
    ui::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    if (!window.openScenario(path))
        return 1;
    ui::ServicesPage* page = window.servicesPage();
    window.showPage(QStringLiteral("services"));
    if (!waitUpdated(page, 600000) || page->results().empty()) {
        std::fprintf(stderr, "%s: the Services page showed no results\n", qPrintable(path));
        return 1;
    }
    ui::Workspace* workspace = window.workspace();
    const model::Scenario opened = *workspace->scenario();
    std::printf("%s: first comparison %.0f ms\n", qPrintable(path), page->lastComputeMs());
    int step = 0;
    for (const char* kind : {"load", "wva", "undo"}) {
        std::vector<double> total;
        std::vector<double> pair; ///< to WVA's and HPA's figures (the page's summary line)
        std::vector<double> longest;
        for (int i = 0; i < edits; ++i) {
            pause(1000); // the workspace's own run finishes; the debounce ends
            model::Scenario edited = opened;
            ++step;
            if (std::string(kind) == "load") {
                edited.workload.diurnal.multiplier *= 1.0 + 0.01 * step;
            } else if (std::string(kind) == "wva") {
                edited.services->autoscalerParams["scale_down_window_s"] = 1800.0 - 10.0 * step;
            } else { // an edit (not timed), then its undo: back to the scenario shown before it
                edited = *workspace->scenario();
                model::Scenario other = edited;
                other.workload.diurnal.multiplier *= 0.97;
                workspace->editScenario(std::move(other), QStringLiteral("to undo"));
                if (!waitUpdated(page, 600000))
                    return 1;
                pause(1000);
            }
            longestNs = 0;
            app.onEvent = [&](const QObject*, int, qint64 ns) { longestNs = std::max(longestNs, ns); };
            QElapsedTimer clock;
            clock.start();
            double pairMs = -1.0; // WVA's and HPA's figures shown before the others'
            const auto shown = QObject::connect(page, &ui::ServicesPage::pairShown, page,
                                                [&] { pairMs = static_cast<double>(clock.nsecsElapsed()) / 1e6; });
            workspace->editScenario(std::move(edited), QString::fromLatin1(kind));
            if (!waitUpdated(page, 600000))
                return 1;
            QObject::disconnect(shown);
            total.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
            pair.push_back(pairMs >= 0.0 ? pairMs : total.back());
            app.onEvent = nullptr;
            const qint64 longestMs = longestNs / 1000000; // whole ms, as QElapsedTimer::elapsed()
            longest.push_back(static_cast<double>(longestMs));
            std::printf("%-5s edit %d: edit to WVA vs HPA %.0f ms, to new numbers %.0f ms (compute %.0f ms); "
                        "longest GUI event %.0f ms\n",
                        kind, i + 1, pair.back(), total.back(), page->lastComputeMs(), longest.back());
        }
        std::printf("%-5s median: edit to WVA vs HPA %.0f ms, edit to new numbers %.0f ms, longest GUI event %.0f ms "
                    "(max %.0f)\n",
                    kind, median(pair), median(total), median(longest),
                    *std::max_element(longest.begin(), longest.end()));
    }
    return 0;
}

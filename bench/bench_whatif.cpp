// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a test): live what-if at the paper fleet's scale, offscreen. Two runs are on the
// Compare page; the load multiplier is edited and the time from the edit to the charts showing
// the new results is printed, with the simulation's share. Edits are a second apart, as a user's
// separate edits are: each one is then re-run at once, not coalesced by the debounce timer with
// the previous one (a burst of edits, as when dragging a spin box, is coalesced on purpose).
//   build/release/bench/bench_whatif [scenario.json] [edits] [--trace]
// --trace prints the timeline of every edit (runs launched and finished, charts drawn; the
// migsight.whatif logging category).
#include "bench_gui_support.h"
#include "comparepage.h"
#include "mainwindow.h"
#include "scenariofile.h"
#include "whatiftrace.h"
#include "workspace.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLoggingCategory>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

/// "power1/chartPlot": the names up to the first ancestor that has one of its own.
QString nameOf(const QObject* object)
{
    QString name = object->objectName();
    for (const QObject* p = object->parent(); p != nullptr; p = p->parent())
        if (!p->objectName().isEmpty())
            return p->objectName() + QLatin1Char('/') + name;
    return name;
}

/// With --trace: the GUI thread's events that took 1 ms or more (what keeps it from taking a
/// finished run at once).
void traceEvent(const QObject* receiver, int type, qint64 ns)
{
    if (const qint64 ms = ns / 1000000; ms >= 1)
        std::fprintf(stderr, "  %lld ms: GUI thread spent %lld ms on event %d for %s '%s'\n",
                     static_cast<long long>(ui::whatif::msSinceEdit()), static_cast<long long>(ms), type,
                     receiver->metaObject()->className(), qPrintable(nameOf(receiver)));
}

bool chartsUpdated(const ui::ComparePage* page)
{
    return bench::waitForSignal(page, &ui::ComparePage::chartsUpdated, 600000);
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    bench::TimedApplication app(argc, argv);
    QString path = QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json");
    int edits = 5;
    int positional = 0;
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (arg == QLatin1String("--trace")) {
            QLoggingCategory::setFilterRules(QStringLiteral("migsight.whatif.debug=true"));
            app.onEvent = traceEvent;
        } else if (arg.startsWith(QLatin1String("-"))) {
            std::printf("usage: bench_whatif [scenario.json] [edits] [--trace]\n");
            return arg == QLatin1String("--help") ? 0 : 2;
        } else if (positional++ == 0) {
            path = arg;
        } else {
            edits = std::max(1, arg.toInt());
        }
    }
    ui::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    if (!window.openScenario(path))
        return 1;
    ui::Workspace* workspace = window.workspace();
    const auto scenario = workspace->scenario();
    const int a = workspace->addRun(scenario->scheduler, scenario->repartitioner);
    const int b = workspace->addRun({"cedf", {}}, {"static", {}});
    window.comparePage()->setRuns({a, b});
    window.showPage(QStringLiteral("compare"));
    if (!chartsUpdated(window.comparePage()))
        return 1;
    std::printf("%s: %d GPUs, %zu segments in run A\n", qPrintable(path), scenario->gpuCount(),
                workspace->runSpec(a)->latest->result->segments.size());

    std::vector<double> total, sims;
    const double base = scenario->workload.diurnal.multiplier;
    for (int i = 0; i < edits; ++i) {
        bench::pause(1000); // the main run (Overview) and the bounds finish; the debounce window ends
        model::Scenario edited = *workspace->scenario();
        edited.workload.diurnal.multiplier = base * (i % 2 == 0 ? 1.05 : 1.0);
        workspace->editScenario(std::move(edited), QStringLiteral("multiplier"));
        if (!chartsUpdated(window.comparePage()))
            return 1;
        total.push_back(static_cast<double>(window.comparePage()->lastEditToChartMs()));
        sims.push_back((workspace->runSpec(a)->latest->wallSeconds + workspace->runSpec(b)->latest->wallSeconds) * 1e3);
        std::printf("edit %d: edit to updated charts %.0f ms (simulating both runs: %.0f ms)\n", i + 1, total.back(),
                    sims.back());
    }
    std::printf("median: edit to charts %.0f ms, of which simulation %.0f ms\n", bench::median(total),
                bench::median(sims));
    return 0;
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "screenshot.h"

#include "comparepage.h"
#include "mainwindow.h"
#include "plandaypanel.h"
#include "planpage.h"
#include "planstaticpanel.h"
#include "plansweeppanel.h"
#include "playbackpage.h"
#include "servicespage.h"
#include "workspace.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLineEdit>
#include <QPixmap>
#include <QTimer>

#include <algorithm>

namespace ui {

namespace {

/// Lets queued layout requests and queued replots run so the grab shows the final state.
void settle(int milliseconds)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < milliseconds) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QCoreApplication::sendPostedEvents();
    }
}

/// Adds the demo runs of the Runs and Compare pages and waits for them; false on timeout.
bool addDemoRuns(Workspace* workspace, ComparePage* compare, int timeoutMs)
{
    const auto scenario = workspace->scenario();
    const int own = workspace->addRun(scenario->scheduler, scenario->repartitioner);
    const int other = workspace->addRun({"cedf", {}}, {"threshold", {}});
    QElapsedTimer clock;
    clock.start();
    auto done = [workspace] {
        for (const RunSpec& spec : workspace->runs())
            if (spec.running() || !spec.latest)
                return false;
        return true;
    };
    while (!done() && clock.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    compare->setRuns({own, other});
    return done();
}

/// Waits for the Playback page's recording and moves to a step with decisions mid-run.
bool preparePlayback(PlaybackPage* page, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (!page->playback() && clock.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    const auto pb = page->playback();
    if (!pb)
        return false;
    int step = std::max(0, pb->stepAtTime(pb->step(pb->stepCount() - 1).time * 0.5));
    while (step + 1 < pb->stepCount() && pb->step(step).starts.size() < 2)
        ++step;
    page->goToStep(step);
    return true;
}

/// Waits until @p busy() is false or the time is up; false on timeout.
template <typename Busy>
bool waitWhile(Busy busy, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (busy() && clock.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    return !busy();
}

/// Runs the search of the Plan page's tab @p page ("plan", "plan-day" or "plan-size") and waits
/// for it; false when it does not end in time or ends without a result.
bool preparePlan(PlanPage* page, const model::Scenario& scenario, const QString& name, int timeoutMs)
{
    if (name == QLatin1String("plan-day")) {
        PlanDayPanel* panel = page->dayPanel();
        const bool ended = panel->startPlan() && waitWhile([panel] { return panel->isPlanning(); }, timeoutMs);
        if (!ended)
            panel->cancelPlan();
        return ended && panel->result();
    }
    if (name == QLatin1String("plan-size")) {
        // Up to twice the fleet (at most 32 GPUs), at the scenario's load and 1.5x (a jobs CSV has one
        // load only), for the fewest GPUs keeping p95 tardiness within 5 minutes.
        PlanSweepPanel* panel = page->sweepPanel();
        panel->gpusEdit()->setText(QStringLiteral("1-%1").arg(std::min(32, 2 * scenario.gpuCount())));
        const bool csv = scenario.workload.kind == model::WorkloadSpec::Kind::Csv;
        panel->loadsEdit()->setText(csv ? QStringLiteral("1") : QStringLiteral("1,1.5"));
        panel->metricBox()->setCurrentIndex(panel->metricBox()->findData(int(model::TardinessMetric::P95)));
        const bool ended = panel->startSweep() && waitWhile([panel] { return panel->isSweeping(); }, timeoutMs);
        if (!ended)
            panel->cancelSweep();
        return ended && panel->result();
    }
    PlanStaticPanel* panel = page->staticPanel();
    const bool ended = panel->startSearch() && waitWhile([panel] { return panel->isSearching(); }, timeoutMs);
    if (!ended)
        panel->cancelSearch();
    return ended && panel->result();
}

} // namespace

ScreenshotOutcome screenshotAfterRun(MainWindow& window, model::Scenario scenario, const QString& scenarioPath,
                                     const QString& file, QSize size, int timeoutMs, const QString& page)
{
    ScreenshotOutcome outcome;
    QEventLoop loop;
    Workspace* workspace = window.workspace();
    QObject::connect(workspace, &Workspace::runFinished, &loop, [&] {
        outcome.ok = true;
        loop.quit();
    });
    QObject::connect(workspace, &Workspace::runFailed, &loop, [&](int, const QString& message) {
        outcome.error = QStringLiteral("the simulation failed: %1").arg(message.trimmed());
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, [&] {
        outcome.error = QStringLiteral("the simulation did not finish within %1 s").arg(timeoutMs / 1000);
        loop.quit();
    });

    window.resize(size);
    window.show();
    workspace->setScenario(std::move(scenario), scenarioPath);
    loop.exec();
    if (!outcome.ok)
        return outcome;
    if ((page == QLatin1String("runs") || page == QLatin1String("compare")) &&
        !addDemoRuns(workspace, window.comparePage(), timeoutMs)) {
        outcome.ok = false;
        outcome.error = QStringLiteral("the runs did not finish within %1 s").arg(timeoutMs / 1000);
        return outcome;
    }
    if (!page.isEmpty())
        window.showPage(page);
    if (page == QLatin1String("playback") && !preparePlayback(window.playbackPage(), timeoutMs)) {
        outcome.ok = false;
        outcome.error = QStringLiteral("the playback was not recorded within %1 s").arg(timeoutMs / 1000);
        return outcome;
    }

    if (page == QLatin1String("services")) {
        // Shown now: the page starts its comparison of the autoscalers and is waited for.
        ServicesPage* services = window.servicesPage();
        const bool ended = waitWhile([services] { return services->isComputing(); }, timeoutMs);
        if (!ended) {
            outcome.ok = false;
            outcome.error = QStringLiteral("the services did not finish within %1 s").arg(timeoutMs / 1000);
            return outcome;
        }
    }
    if (page.startsWith(QLatin1String("plan")) &&
        !preparePlan(window.planPage(), *workspace->scenario(), page, timeoutMs)) {
        outcome.ok = false;
        outcome.error = QStringLiteral("the plan did not finish within %1 s").arg(timeoutMs / 1000);
        return outcome;
    }

    settle(300);
    if (!window.grab().save(file, "PNG")) {
        outcome.ok = false;
        outcome.error = QStringLiteral("cannot write %1").arg(file);
    }
    return outcome;
}

} // namespace ui

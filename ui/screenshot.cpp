// SPDX-License-Identifier: GPL-3.0-or-later
#include "screenshot.h"

#include "comparepage.h"
#include "mainwindow.h"
#include "planpage.h"
#include "planstaticpanel.h"
#include "playbackpage.h"
#include "workspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
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
            if (spec.running || !spec.latest)
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

/// Runs the Plan page's static-layout search and waits for it; false when it does not end in time
/// or ends without a result.
bool preparePlan(PlanPage* page, int timeoutMs)
{
    PlanStaticPanel* panel = page->staticPanel();
    if (!panel->startSearch())
        return false;
    QElapsedTimer clock;
    clock.start();
    while (panel->isSearching() && clock.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    if (panel->isSearching()) {
        panel->cancelSearch();
        return false;
    }
    return panel->result() != nullptr;
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

    if (page == QLatin1String("plan") && !preparePlan(window.planPage(), timeoutMs)) {
        outcome.ok = false;
        outcome.error = QStringLiteral("the layout search did not finish within %1 s").arg(timeoutMs / 1000);
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

// SPDX-License-Identifier: GPL-3.0-or-later
#include "screenshot.h"

#include "mainwindow.h"
#include "workspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPixmap>
#include <QTimer>

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

} // namespace

ScreenshotOutcome screenshotAfterRun(MainWindow& window, model::Scenario scenario, const QString& scenarioPath,
                                     const QString& file, QSize size, int timeoutMs)
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

    settle(300);
    if (!window.grab().save(file, "PNG")) {
        outcome.ok = false;
        outcome.error = QStringLiteral("cannot write %1").arg(file);
    }
    return outcome;
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
// The Playback page driven as a user does: it records the window's run when shown, steps forward
// and back, jumps to a time, plays a few frames at 60 steps per second, and the Compare page's
// cursor follows. Offscreen.
#include "comparepage.h"
#include "mainwindow.h"
#include "playbackexport.h"
#include "playbackpage.h"
#include "playbackpainter.h"
#include "workspace.h"

#include <QLabel>
#include <QPainter>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

namespace {

constexpr int kTimeoutMs = 120000;

QString teaching(const char* name)
{
    return QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/teaching/") + QLatin1String(name);
}

} // namespace

class TestPlaybackPage : public QObject
{
    Q_OBJECT

private slots:
    void recordsStepsAndJumps();
    void playsAtSixtyStepsPerSecond();
    void exportsNumberedFrames();
    void openingAnotherFileReplacesThePlayback();
    void labelsReadOnADarkBackground();
};

void TestPlaybackPage::recordsStepsAndJumps()
{
    ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(window.openScenario(teaching("01-mig-vs-whole-gpu.json")));
    QTRY_VERIFY_WITH_TIMEOUT(window.workspace()->lastRun().has_value(), kTimeoutMs);
    QVERIFY(window.showPage(QStringLiteral("playback")));
    ui::PlaybackPage* page = window.playbackPage();
    QTRY_VERIFY_WITH_TIMEOUT(page->playback() != nullptr, kTimeoutMs);
    QCOMPARE(page->currentStep(), -1);
    QSignalSpy time(page, &ui::PlaybackPage::timeChanged);

    // Step forward by the button: the burst at t = 0 and its seven decisions in words.
    QTest::mouseClick(page->findChild<QToolButton*>(QStringLiteral("playbackForward")), Qt::LeftButton);
    QCOMPARE(page->currentStep(), 0);
    const QString text = page->explanationText();
    QVERIFY2(text.contains(QLatin1String("job 1 to GPU 0, 1g.5gb at start 0: ")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("released: jobs 1, 2, 3")), qPrintable(text));
    QCOMPARE(time.count(), 1);
    QCOMPARE(time.last().at(0).toDouble(), 0.0);

    page->stepForward();
    page->stepForward();
    QCOMPARE(page->currentStep(), 2);
    page->stepBack();
    QCOMPARE(page->currentStep(), 1);
    QCOMPARE(page->state().time, page->playback()->step(1).time);

    // Jump by time: the last event at or before 31 min (the third burst arrives at 30 min).
    page->jumpToTime(31.0);
    QCOMPARE(page->state().time, 30.0);
    QVERIFY(page->explanationText().contains(QLatin1String("released: jobs 15, 16")));
    auto* slider = page->findChild<QSlider*>(QStringLiteral("playbackSlider"));
    QCOMPARE(slider->value(), 300);
    slider->setValue(0);
    QCOMPARE(page->currentStep(), 0);
    // Running jobs: the state after step 0 has a job on each of the seven 1g slices.
    int busy = 0;
    for (const auto& inst : page->state().gpus.front())
        busy += inst.job >= 0 ? 1 : 0;
    QCOMPARE(busy, 7);
    QVERIFY(!page->canvas()->grab().isNull());
}

void TestPlaybackPage::playsAtSixtyStepsPerSecond()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(teaching("03-repartition-pays-off.json")));
    QTRY_VERIFY_WITH_TIMEOUT(window.workspace()->lastRun().has_value(), kTimeoutMs);
    window.showPage(QStringLiteral("playback"));
    ui::PlaybackPage* page = window.playbackPage();
    QTRY_VERIFY_WITH_TIMEOUT(page->playback() != nullptr, kTimeoutMs);
    page->setSpeed(60);
    page->play();
    QVERIFY(page->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(page->currentStep() >= 10, 5000);
    page->pause();
    const int at = page->currentStep();
    // Paused, the step timer is stopped: nothing can move the step any more.
    QVERIFY(!page->isPlaying());
    QCoreApplication::processEvents();
    QCOMPARE(page->currentStep(), at);
    // Playing to the end stops by itself.
    page->goToStep(page->playback()->stepCount() - 3);
    page->play();
    QTRY_VERIFY(!page->isPlaying());
    QCOMPARE(page->currentStep(), page->playback()->stepCount() - 1);
}

void TestPlaybackPage::exportsNumberedFrames()
{
    model::Problems problems;
    auto sc = std::make_shared<const model::Scenario>(
        model::loadScenario(teaching("02-fragmentation.json").toStdString(), problems));
    QVERIFY(problems.empty());
    const auto pb = model::Playback::record(sc, model::scenarioJobs(*sc, std::nullopt, problems));
    const auto frames = ui::framesBetween(*pb, 0.0, 10.0, 5);
    QCOMPARE(static_cast<int>(frames.size()), 5);
    QVERIFY(pb->step(frames.back()).time <= 10.0);
    QTemporaryDir dir;
    QString error;
    QCOMPARE(ui::writePlaybackFrames(*pb, frames, dir.path(), {640, 400}, &error), 5);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QImage first(QDir(dir.path()).filePath(QStringLiteral("frame-0001.png")));
    QCOMPARE(first.size(), QSize(640, 400));
    QVERIFY(QFileInfo::exists(QDir(dir.path()).filePath(QStringLiteral("frame-0005.png"))));
}

void TestPlaybackPage::openingAnotherFileReplacesThePlayback()
{
    // File › Open left the previous file's playback on the page (issue #17, studio).
    ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(window.openScenario(teaching("01-mig-vs-whole-gpu.json")));
    QVERIFY(window.showPage(QStringLiteral("playback")));
    ui::PlaybackPage* page = window.playbackPage();
    QTRY_VERIFY_WITH_TIMEOUT(page->playback() != nullptr, kTimeoutMs);
    const std::string first = page->playback()->scenario().name;

    QVERIFY(window.openScenario(teaching("02-fragmentation.json")));
    QVERIFY(page->playback() == nullptr || page->playback()->scenario().name != first);
    QTRY_VERIFY_WITH_TIMEOUT(page->playback() != nullptr, kTimeoutMs);
    QCOMPARE(page->playback()->scenario().name, window.workspace()->scenario()->name);
    QVERIFY(page->playback()->scenario().name != first);
    QCOMPARE(page->currentStep(), -1);
}

void TestPlaybackPage::labelsReadOnADarkBackground()
{
    // The dark theme left the legend and the "GPU n" labels dark on dark (issue #17, studio).
    model::Problems problems;
    auto sc = std::make_shared<const model::Scenario>(
        model::loadScenario(teaching("02-fragmentation.json").toStdString(), problems));
    QVERIFY(problems.empty());
    const auto pb = model::Playback::record(sc, model::scenarioJobs(*sc, std::nullopt, problems));
    const QColor dark(0x1e, 0x20, 0x24);
    QImage image(900, 420, QImage::Format_ARGB32);
    image.fill(dark);
    {
        QPainter painter(&image);
        ui::paintPlayback(painter, QRectF(image.rect()), *pb, pb->stateAt(-1), QFont(), dark);
    }
    image.save(QDir::temp().filePath(QStringLiteral("migsight-playback-dark.png")));
    // Light pixels in the label column of the first GPU row (left of its slices) and in the legend.
    auto lightIn = [&](const QRect& area) {
        int light = 0;
        for (int y = area.top(); y <= area.bottom(); ++y)
            for (int x = area.left(); x <= area.right(); ++x)
                light += QColor(image.pixel(x, y)).lightness() > 160 ? 1 : 0;
        return light;
    };
    QVERIFY(lightIn(QRect(0, 30, 60, 110)) > 10); // "GPU 0"
    QVERIFY(lightIn(QRect(14, 0, 60, 22)) > 10);  // the first job type's name
}

QTEST_MAIN(TestPlaybackPage)
#include "tst_playbackpage.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The studio's exception boundary (ui::StudioApplication): an exception escaping an event handler
// or a slot ends as a message, and the studio keeps running.
#include "mainwindow.h"
#include "studioapplication.h"

#include <QMessageBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

#include <new>
#include <stdexcept>

namespace {

/// An object whose handler of one event type throws, as a buggy slot or handler would.
class Thrower : public QObject
{
public:
    static constexpr QEvent::Type kThrow = QEvent::User;
    bool event(QEvent* event) override
    {
        if (event->type() == kThrow)
            throw std::runtime_error("jobs.csv, line 7: work is not a number");
        return QObject::event(event);
    }
};

ui::StudioApplication* studio()
{
    return qobject_cast<ui::StudioApplication*>(QCoreApplication::instance());
}

void closeBox()
{
    if (QMessageBox* box = studio()->messageBox())
        box->close();
    QTRY_VERIFY(studio()->messageBox() == nullptr);
}

} // namespace

class TestGuiBoundary : public QObject
{
    Q_OBJECT

private slots:
    void exceptionInAnEventHandlerBecomesAMessage();
    void exceptionInATimerSlotBecomesAMessage();
    void outOfMemoryIsNamed();
    void repeatedErrorsShareOneMessage();
};

void TestGuiBoundary::exceptionInAnEventHandlerBecomesAMessage()
{
    ui::MainWindow window;
    window.show();
    QSignalSpy caught(studio(), &ui::StudioApplication::exceptionCaught);
    const int before = studio()->caughtCount();
    Thrower thrower;
    QEvent event(Thrower::kThrow);
    QCOMPARE(QCoreApplication::sendEvent(&thrower, &event), false); // no abort: the boundary took it
    QCOMPARE(studio()->caughtCount(), before + 1);
    QCOMPARE(studio()->lastError(), QStringLiteral("jobs.csv, line 7: work is not a number"));
    QCOMPARE(caught.size(), 1);
    QTRY_VERIFY(studio()->messageBox() != nullptr && studio()->messageBox()->isVisible());
    QVERIFY(studio()->messageBox()->text().contains(QStringLiteral("line 7: work is not a number")));
    QVERIFY(studio()->messageBox()->text().contains(QStringLiteral("Nothing on disk was changed")));
    closeBox();
    QVERIFY(window.isVisible()); // the studio goes on
}

void TestGuiBoundary::exceptionInATimerSlotBecomesAMessage()
{
    const int before = studio()->caughtCount();
    QTimer::singleShot(0, studio(), [] { throw std::invalid_argument("scenario.json: fleet[0].count: -3"); });
    QTRY_COMPARE(studio()->caughtCount(), before + 1);
    QCOMPARE(studio()->lastError(), QStringLiteral("scenario.json: fleet[0].count: -3"));
    QTRY_VERIFY(studio()->messageBox() != nullptr);
    closeBox();
}

void TestGuiBoundary::outOfMemoryIsNamed()
{
    QTimer::singleShot(0, studio(), [] { throw std::bad_alloc(); });
    QTRY_VERIFY(studio()->lastError().startsWith(QStringLiteral("out of memory")));
    closeBox();
}

void TestGuiBoundary::repeatedErrorsShareOneMessage()
{
    ui::MainWindow window;
    window.show();
    for (int i = 0; i < 5; ++i)
        QTimer::singleShot(0, studio(), [i] { throw std::runtime_error("failure " + std::to_string(i)); });
    QTRY_COMPARE(studio()->lastError(), QStringLiteral("failure 4"));
    QTRY_VERIFY(studio()->messageBox() != nullptr);
    // The boxes are opened by zero-delay timers, run from the event queue in order: once a marker
    // queued after all of them has run, every one of them has had its turn.
    bool drained = false;
    QTimer::singleShot(0, studio(), [&drained] { drained = true; });
    QTRY_VERIFY(drained);
    int boxes = 0;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (w->objectName() == QStringLiteral("boundaryErrorBox") && w->isVisible())
            ++boxes;
    QCOMPARE(boxes, 1);
    QVERIFY(studio()->messageBox()->text().contains(QStringLiteral("failure 4"))); // the newest
    closeBox();
}

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    ui::StudioApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    TestGuiBoundary test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_guiboundary.moc"

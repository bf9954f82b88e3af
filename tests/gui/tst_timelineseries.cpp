// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline chart's maths: series in hours and round axis ranges.
#include "results.h"
#include "timelineseries.h"

#include <QTest>

#include <limits>

class TestTimelineSeries : public QObject
{
    Q_OBJECT

private slots:
    void convertsMinutesToHours();
    void emptySeries();
    void niceUpperBound_data();
    void niceUpperBound();
    void hoursAxisEnd_data();
    void hoursAxisEnd();
};

void TestTimelineSeries::convertsMinutesToHours()
{
    simcore::StepSeries s;
    s.time = {0.5, 60.0, 720.0, 1470.0};
    s.powerW = {80.0, 400.0, 496.0, 80.0};
    s.queued = {0, 3, 7, 0};
    s.running = {1, 2, 2, 0};
    s.energyWmin = {0.0, 1.0, 2.0, 3.0};
    s.tardinessMin = {0.0, 0.0, 0.0, 0.0};
    const ui::TimelineSeries t = ui::timelineSeries(s);
    QCOMPARE(t.hours.size(), 4);
    QCOMPARE(t.hours[1], 1.0);
    QCOMPARE(t.hours[2], 12.0);
    QCOMPARE(t.powerW[2], 496.0);
    QCOMPARE(t.queued[2], 7.0);
    QCOMPARE(t.maxPowerW, 496.0);
    QCOMPARE(t.maxQueued, 7.0);
    QCOMPARE(t.endHours, 24.5);
}

void TestTimelineSeries::emptySeries()
{
    const ui::TimelineSeries t = ui::timelineSeries(simcore::StepSeries{});
    QVERIFY(t.empty());
    QCOMPARE(t.endHours, 0.0);
}

void TestTimelineSeries::niceUpperBound_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<double>("bound");
    QTest::newRow("two GPUs' peak power") << 495.0 << 600.0;
    QTest::newRow("eight GPUs' peak power") << 2000.0 << 2500.0;
    QTest::newRow("a short queue") << 4.0 << 5.0;
    QTest::newRow("just over a decade") << 9.6 << 12.0;
    QTest::newRow("one") << 1.0 << 1.2;
    QTest::newRow("below one") << 0.3 << 0.4;
    QTest::newRow("nothing: fallback") << 0.0 << 10.0;
    QTest::newRow("negative: fallback") << -5.0 << 10.0;
    QTest::newRow("NaN: fallback") << std::numeric_limits<double>::quiet_NaN() << 10.0;
}

void TestTimelineSeries::niceUpperBound()
{
    QFETCH(double, value);
    QFETCH(double, bound);
    QCOMPARE(ui::niceUpperBound(value, 10.0), bound);
}

void TestTimelineSeries::hoursAxisEnd_data()
{
    QTest::addColumn<double>("end");
    QTest::addColumn<double>("axisEnd");
    QTest::newRow("no run: a day") << 0.0 << 24.0;
    QTest::newRow("a day") << 24.0 << 24.0;
    QTest::newRow("nearly a day") << 23.2 << 24.0;
    QTest::newRow("past midnight: where the data ends") << 24.3 << 24.3;
    QTest::newRow("two hours: one 3-hour tick") << 2.0 << 3.0;
    QTest::newRow("13 hours") << 13.0 << 15.0;
}

void TestTimelineSeries::hoursAxisEnd()
{
    QFETCH(double, end);
    QFETCH(double, axisEnd);
    QCOMPARE(ui::hoursAxisEnd(end), axisEnd);
}

QTEST_GUILESS_MAIN(TestTimelineSeries)
#include "tst_timelineseries.moc"

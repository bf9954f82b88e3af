// SPDX-License-Identifier: GPL-3.0-or-later
// The metrics table model: a correct Qt item model whose rows read as a user expects.
#include "metricsmodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

namespace {

simcore::RunMetrics sampleMetrics()
{
    simcore::RunMetrics m;
    m.jobs = 821;
    m.completed = 820;
    m.unfinished = 1;
    m.energyWmin = 552060.0; // 9.201 kWh
    m.avgTardinessMin = 1.98;
    m.tardyFraction = 0.5;
    m.utilisation = 0.62;
    m.makespanMin = 1442.2;
    m.steps = 1642;
    return m;
}

} // namespace

class TestMetricsModel : public QObject
{
    Q_OBJECT

private slots:
    void isAValidModelThroughResets();
    void showsEnergyInKilowattHours();
    void columnsAndHeaders();
    void rowsAreTheDisplayedMetrics_data();
    void rowsAreTheDisplayedMetrics();
};

void TestMetricsModel::isAValidModelThroughResets()
{
    ui::MetricsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setMetrics(sampleMetrics());
    QCOMPARE(model.rowCount(), static_cast<int>(ui::metricRows(sampleMetrics()).size()));
    model.setMetrics(simcore::RunMetrics{});
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    model.setMetrics(sampleMetrics());
    QVERIFY(model.rowCount() > 10);
}

void TestMetricsModel::showsEnergyInKilowattHours()
{
    ui::MetricsModel model;
    model.setMetrics(sampleMetrics());
    const int row = model.rowOf(QStringLiteral("Energy"));
    QVERIFY(row >= 0);
    const QModelIndex value = model.index(row, ui::MetricsModel::ValueColumn);
    QCOMPARE(model.data(value, ui::MetricsModel::ValueRole).toDouble(), 9.201);
    QCOMPARE(model.data(value).toString(), QLocale().toString(9.201, 'f', 3));
    QCOMPARE(model.data(model.index(row, ui::MetricsModel::UnitColumn)).toString(), QStringLiteral("kWh"));
    QVERIFY(!model.data(model.index(row, ui::MetricsModel::NameColumn), Qt::ToolTipRole).toString().isEmpty());
}

void TestMetricsModel::columnsAndHeaders()
{
    ui::MetricsModel model;
    QCOMPARE(model.columnCount(), 3);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Metric"));
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("Value"));
    QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("Unit"));
    model.setMetrics(sampleMetrics());
    const auto alignment = model.data(model.index(0, ui::MetricsModel::ValueColumn), Qt::TextAlignmentRole).toInt();
    QVERIFY(alignment & Qt::AlignRight);            // numbers line up on the right
    QCOMPARE(model.rowCount(model.index(0, 0)), 0); // a table: no children
}

void TestMetricsModel::rowsAreTheDisplayedMetrics_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("unit");
    QTest::newRow("jobs") << "Jobs" << 821.0 << "jobs";
    QTest::newRow("unfinished") << "Unfinished" << 1.0 << "jobs";
    QTest::newRow("late jobs in percent") << "Late jobs" << 50.0 << "%";
    QTest::newRow("utilisation in percent") << "Utilisation" << 62.0 << "%";
    QTest::newRow("makespan") << "Makespan" << 1442.2 << "min";
    QTest::newRow("steps") << "Simulation steps" << 1642.0 << "";
}

void TestMetricsModel::rowsAreTheDisplayedMetrics()
{
    QFETCH(QString, name);
    QFETCH(double, value);
    QFETCH(QString, unit);
    ui::MetricsModel model;
    model.setMetrics(sampleMetrics());
    const int row = model.rowOf(name);
    QVERIFY2(row >= 0, qPrintable(name));
    QCOMPARE(model.data(model.index(row, 1), ui::MetricsModel::ValueRole).toDouble(), value);
    QCOMPARE(model.data(model.index(row, 2)).toString(), unit);
}

QTEST_GUILESS_MAIN(TestMetricsModel)
#include "tst_metricsmodel.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// Churn figures of runs stored in a session (docs/sessions.md, "Churn in stored runs"): metrics
// JSON written with them reads back as written; metrics JSON written before them (no churn keys)
// still reads, the changes per GPU per day derived from the stored count, fleet and makespan, and
// the downtime unknown (NaN, shown as n/a) rather than a made-up 0.
#include "report_data.h"

#include <QtTest>

#include <cmath>

class TestStoredChurn : public QObject
{
    Q_OBJECT

private slots:
    void currentMetricsReadBack();
    void oldMetricsDeriveTheChangeRate();
    void oldMetricsWithoutFleet();
};

void TestStoredChurn::currentMetricsReadBack()
{
    const auto m = model::metricsFromJson(
        R"({"jobs": 3, "reconfigurations": 4, "changes_per_gpu_day": 288.0, "reconfig_downtime_gpu_min": 1.2,
            "downtime_per_gpu_day_min": 86.4, "makespan_min": 10.0, "gpu_energy_wmin": [1.0, 2.0]})");
    QCOMPARE(m.reconfigurations, 4);
    QCOMPARE(m.changesPerGpuDay, 288.0);
    QCOMPARE(m.reconfigDowntimeGpuMin, 1.2);
    QCOMPARE(m.downtimePerGpuDayMin, 86.4);
}

void TestStoredChurn::oldMetricsDeriveTheChangeRate()
{
    // 6 changes on 4 GPUs over half a day (720 min): 6 / (4 x 0.5) = 3 per GPU per day.
    const auto m = model::metricsFromJson(
        R"({"jobs": 3, "reconfigurations": 6, "makespan_min": 720.0, "gpu_energy_wmin": [1, 2, 3, 4]})");
    QCOMPARE(m.changesPerGpuDay, 3.0);
    QVERIFY(std::isnan(m.reconfigDowntimeGpuMin));
    QVERIFY(std::isnan(m.downtimePerGpuDayMin));
}

void TestStoredChurn::oldMetricsWithoutFleet()
{
    const auto m = model::metricsFromJson(R"({"jobs": 1, "energy_wmin": 12.5})");
    QCOMPARE(m.changesPerGpuDay, 0.0);
    QVERIFY(std::isnan(m.downtimePerGpuDayMin));
    QCOMPARE(m.steps, 0LL);
    // The engine steps too (a stored sweep counts its events from them, model/sweep_session.cpp).
    QCOMPARE(model::metricsFromJson(R"({"jobs": 1, "steps": 8320})").steps, 8320LL);
}

QTEST_GUILESS_MAIN(TestStoredChurn)
#include "tst_stored_churn.moc"

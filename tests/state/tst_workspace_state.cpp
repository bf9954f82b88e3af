// SPDX-License-Identifier: GPL-3.0-or-later
// Workspace and SimulationRunner driven without a widget (Qt Core event loop only): a run of the
// open scenario, a run spec, and an edit that makes it stale and re-runs it all give the numbers model::simulate gives
// for the same scenario.
#include "problems.h"
#include "scenario.h"
#include "simulation.h"
#include "workspace.h"

#include <QTest>

using namespace ui;

class TestWorkspaceState : public QObject
{
    Q_OBJECT

private:
    static model::Scenario sample()
    {
        model::Problems problems;
        model::Scenario s = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-single.json", problems);
        if (!problems.empty())
            qFatal("%s", problems.text().c_str());
        return s;
    }

    static double expectedEnergy(const model::Scenario& s, const std::string& scheduler)
    {
        model::Problems problems;
        const auto jobs = model::scenarioJobs(s, std::nullopt, problems);
        model::RunOptions options;
        options.timeSeries = false;
        options.scheduler = model::PolicyChoice{scheduler, {}};
        return model::simulate(s, jobs, options).metrics.energyWmin;
    }

private slots:
    void runsGiveTheEngineNumbers()
    {
        Workspace ws;
        ws.setDebounceMs(0);
        const model::Scenario s = sample();
        ws.setScenario(s, QStringLiteral("paper-single.json"));
        QTRY_VERIFY_WITH_TIMEOUT(ws.lastRun().has_value(), 60000);
        QCOMPARE(ws.lastRun()->result->metrics.energyWmin, expectedEnergy(s, s.scheduler.id));

        const int key = ws.addRun(model::PolicyChoice{"cedf", {}}, model::PolicyChoice{"static", {}});
        QTRY_VERIFY_WITH_TIMEOUT(ws.runSpec(key) && ws.runSpec(key)->latest, 60000);
        QCOMPARE(ws.runSpec(key)->latest->result->metrics.energyWmin, expectedEnergy(s, "cedf"));
        QCOMPARE(ws.runSpec(key)->label(), QStringLiteral("cedf / static"));
        // Two runs of one policy with other parameters have names that tell them apart.
        const int other = ws.addRun(model::PolicyChoice{"cedf", {}},
                                    model::PolicyChoice{"lookahead", {{"change_cost", 0.5}, {"samples", 2.0}}});
        QCOMPARE(ws.runSpec(other)->label(), QStringLiteral("cedf / lookahead:change_cost=0.5;samples=2"));
        QCOMPARE(ws.runSpec(other)->verdictLabel(false), std::string("cedf/lookahead:change_cost=0.5;samples=2"));
    }

    void anEditMakesSpecsStaleAndReRunsThem()
    {
        Workspace ws;
        ws.setDebounceMs(0);
        model::Scenario s = sample();
        ws.setScenario(s, QStringLiteral("paper-single.json"));
        const int key = ws.addRun(model::PolicyChoice{"cedf", {}}, model::PolicyChoice{"static", {}});
        QTRY_VERIFY_WITH_TIMEOUT(ws.runSpec(key) && ws.runSpec(key)->latest && !ws.isRunning(), 60000);
        const double before = ws.runSpec(key)->latest->result->metrics.energyWmin;

        model::Scenario edited = s;
        edited.workload.diurnal.multiplier = s.workload.diurnal.multiplier * 1.5;
        ws.editScenario(edited, QStringLiteral("more load"));
        QVERIFY(ws.isModified());
        QTRY_VERIFY_WITH_TIMEOUT(ws.runSpec(key)->latest && !ws.runSpec(key)->stale() && !ws.isRunning(), 60000);
        const double after = ws.runSpec(key)->latest->result->metrics.energyWmin;
        QVERIFY(after != before);
        QCOMPARE(after, expectedEnergy(edited, "cedf"));
    }
};

QTEST_GUILESS_MAIN(TestWorkspaceState)
#include "tst_workspace_state.moc"

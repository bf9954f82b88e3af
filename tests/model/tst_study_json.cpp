// SPDX-License-Identifier: GPL-3.0-or-later
// Planning studies kept in sessions (docs/sessions.md, "Planning studies"): each result written
// and read back is the same to the last bit (written again, the text is identical), a value that
// is not finite comes back as NaN, and damaged or foreign studies are refused with their place.
#include "day_plan.h"
#include "plan_static.h"
#include "scenario.h"
#include "study_json.h"
#include "sweep.h"

#include <QTest>

#include <cmath>
#include <limits>

namespace {

model::Scenario paperFleet(int gpus, double multiplier, double hours)
{
    model::Problems problems;
    model::Scenario s = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json", problems);
    if (!problems.empty())
        qFatal("%s", problems.text().c_str());
    auto& g = s.fleet.front();
    g.count = gpus;
    g.layouts.resize(static_cast<size_t>(gpus), g.layouts.front());
    s.workload.diurnal.multiplier = multiplier;
    s.workload.diurnal.hours = hours;
    return s;
}

QString refusal(const std::function<void()>& read)
{
    try {
        read();
    } catch (const std::invalid_argument& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestStudyJson : public QObject
{
    Q_OBJECT

private slots:
    void staticSearchRoundTrips()
    {
        model::StaticSearchOptions o;
        o.seeds = {1, 2};
        o.top = 4;
        o.threads = 2;
        model::Problems problems;
        const auto r = model::searchStaticLayouts(paperFleet(2, 4.0, 6.0), o, problems);
        QVERIFY(problems.empty());
        QVERIFY(r.best.size() == 4);
        const std::string text = model::staticSearchStudyJson(r);
        const auto back = model::staticSearchFromStudy(text, "s.sqlite (static layout study)");
        QCOMPARE(model::staticSearchStudyJson(back), text);
        QCOMPARE(back.best[3].etBySeed, r.best[3].etBySeed);
        QVERIFY(back.best[0].layouts == r.best[0].layouts);
        QCOMPARE(back.current.configs, r.current.configs);
        QCOMPARE(back.layouts, r.layouts);
    }

    void dayPlanRoundTrips()
    {
        model::DayPlanOptions o;
        o.seeds = {1, 2};
        o.refine = 4;
        o.threads = 2;
        model::Problems problems;
        const auto r = model::planDay(paperFleet(3, 8.0, 24.0), o, problems);
        QVERIFY(problems.empty());
        QVERIFY(r.lp.solved);
        const std::string text = model::dayPlanStudyJson(r);
        const auto back = model::dayPlanFromStudy(text, "d");
        QCOMPARE(model::dayPlanStudyJson(back), text);
        QCOMPARE(back.planned, r.planned);
        QCOMPARE(back.lp.served.size(), r.lp.served.size());
        QCOMPARE(back.refinement.counts, r.refinement.counts);
        QCOMPARE(back.scores.size(), r.scores.size());
        QVERIFY(back.fluidPolicy == r.fluidPolicy);
    }

    void sweepRoundTripsWithNan()
    {
        model::SweepOptions o;
        o.gpuCounts = {1, 2};
        o.loads = {0.5, 1.0};
        o.seeds = {1};
        o.threads = 2;
        model::Problems problems;
        auto r = model::runSweep(paperFleet(2, 4.0, 6.0), o, problems);
        QVERIFY(problems.empty());
        r.cells[1].et.ci95 = std::numeric_limits<double>::quiet_NaN(); // e.g. an interval of one seed
        const std::string text = model::sweepStudyJson(r);
        const auto back = model::sweepFromStudy(text, "w");
        QVERIFY(std::isnan(back.cells[1].et.ci95));
        QCOMPARE(back.cells[3].etBySeed, r.cells[3].etBySeed);
        QCOMPARE(model::sweepStudyJson(back), text);
    }

    void damagedStudiesAreRefused()
    {
        model::SweepResult sweep;
        sweep.boards = {"A100-40GB"};
        sweep.loads = {1.0};
        sweep.multipliers = {20.0};
        sweep.gpuCounts = {1, 2};
        sweep.seeds = {1};
        const std::string place = "s.sqlite (fleet sweep)";
        // Two GPU counts but no cell: the Fleet size view would index past the end.
        QVERIFY(refusal([&] {
                    (void)model::sweepFromStudy(model::sweepStudyJson(sweep), place);
                }).contains("s.sqlite (fleet sweep): the cells are not boards x loads x GPU counts"));
        QVERIFY(refusal([&] { (void)model::sweepFromStudy("{oops", place); }).contains("not a study"));
        QVERIFY(refusal([&] {
                    (void)model::dayPlanFromStudy(model::sweepStudyJson(sweep), place);
                }).contains("a 'fleet-sweep' study, not 'day-plan'"));
        std::string newer = model::sweepStudyJson(sweep);
        newer.replace(newer.find("\"version\":1"), 11, "\"version\":9");
        QVERIFY(refusal([&] { (void)model::sweepFromStudy(newer, place); }).contains("written by a newer MIGsight"));
        std::string numbered = model::sweepStudyJson(sweep);
        numbered.replace(numbered.find("\"kind\":\"fleet-sweep\""), 20, "\"kind\":7");
        QVERIFY(refusal([&] {
                    (void)model::sweepFromStudy(numbered, place);
                }).startsWith(QString::fromStdString(place) + ": a '' study, not 'fleet-sweep'"));
        std::string typed = model::staticSearchStudyJson(model::StaticSearchResult{});
        typed.replace(typed.find("\"exhaustive\":true"), 17, "\"exhaustive\":\"yes\"");
        const QString message = refusal([&] { (void)model::staticSearchFromStudy(typed, place); });
        QVERIFY2(message.startsWith(QString::fromStdString(place) + ": type must be boolean"), qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestStudyJson)
#include "tst_study_json.moc"

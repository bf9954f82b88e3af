// SPDX-License-Identifier: GPL-3.0-or-later
// Playback: a run re-simulated with explanations on gives the same figures as the normal run, its
// state at any step rebuilt from keyframes equals stepping there, and the policies' reasons for
// known decisions of the teaching samples say what the policy did and why.
#include "all_pairs_test_support.h"
#include "playback.h"
#include "registry.h"
#include "scenario.h"
#include "simulation.h"

#include <QtTest>

#include <memory>

namespace {

const QString kTeaching = QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/teaching");

std::shared_ptr<const model::Scenario> load(const QString& name)
{
    model::Problems problems;
    auto sc = model::loadScenario(QDir(kTeaching).filePath(name).toStdString(), problems);
    if (!problems.empty())
        qFatal("%s: %s", qPrintable(name), problems.items().front().text().c_str());
    return std::make_shared<const model::Scenario>(std::move(sc));
}

std::vector<simcore::Job> jobsOf(const model::Scenario& sc)
{
    model::Problems problems;
    return model::scenarioJobs(sc, std::nullopt, problems);
}

/// Every figure and every job's outcome, compared exactly (bit for bit).
void compareRuns(const simcore::RunResult& a, const simcore::RunResult& b, const QByteArray& what)
{
    const auto& m = a.metrics;
    const auto& n = b.metrics;
    QVERIFY2(m.energyWmin == n.energyWmin && m.avgTardinessMin == n.avgTardinessMin && m.et == n.et &&
                 m.makespanMin == n.makespanMin && m.meanWaitMin == n.meanWaitMin && m.steps == n.steps &&
                 m.reconfigurations == n.reconfigurations && m.preemptions == n.preemptions &&
                 m.completed == n.completed && m.utilisation == n.utilisation,
             what.constData());
    QCOMPARE(a.jobs.size(), b.jobs.size());
    for (size_t j = 0; j < a.jobs.size(); ++j) {
        const auto& x = a.jobs[j];
        const auto& y = b.jobs[j];
        QVERIFY2(x.id == y.id && x.start == y.start && x.end == y.end && x.gpu == y.gpu && x.profile == y.profile &&
                     x.instanceStart == y.instanceStart && x.preemptions == y.preemptions,
                 (what + " job " + QByteArray::number(x.id)).constData());
    }
}

const model::PlaybackStart* startOf(const model::Playback& pb, int step, int jobId)
{
    for (const auto& s : pb.step(step).starts) {
        if (pb.jobs()[static_cast<size_t>(s.job)].id == jobId)
            return &s;
    }
    return nullptr;
}

} // namespace

class TestPlayback : public QObject
{
    Q_OBJECT

private slots:
    void sameFiguresAsTheNormalRun_data();
    void sameFiguresAsTheNormalRun();
    void explanationsDoNotChangeAnyPolicyPair();
    void stateFromKeyframesEqualsStepping();
    void explainsMostPackedOnOneGSlices();
    void explainsFragmentationWaits();
    void explainsRepartitionWithDowntime();
    void explainsFaultsWithTheWorkLost();
};

void TestPlayback::sameFiguresAsTheNormalRun_data()
{
    QTest::addColumn<QString>("file");
    for (const QString& f : QDir(kTeaching).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(f)) << f;
}

void TestPlayback::sameFiguresAsTheNormalRun()
{
    QFETCH(QString, file);
    const auto sc = load(file);
    const auto jobs = jobsOf(*sc);
    const simcore::RunResult normal = model::simulate(*sc, jobs);
    const auto pb = model::Playback::record(sc, jobs);
    compareRuns(normal, pb->result(), file.toUtf8());
    QCOMPARE(static_cast<long long>(pb->stepCount()), normal.metrics.steps);
}

void TestPlayback::explanationsDoNotChangeAnyPolicyPair()
{
    // Every registered scheduler with every registered repartitioner, explanations on and off: on a
    // teaching sample and on six busy hours of the quick start (repartitions, preemptions, waits).
    model::Problems problems;
    auto quick = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/quickstart.json", problems);
    QVERIFY(problems.empty());
    quick.workload.diurnal.hours = 6.0;
    quick.workload.diurnal.multiplier = 12.0;
    const std::vector<std::shared_ptr<const model::Scenario>> scenarios{
        load(QStringLiteral("06-lower-bound.json")), std::make_shared<const model::Scenario>(std::move(quick))};
    const auto& reg = policies::builtinRegistry();
    size_t pairs = 0;
    int repartitions = 0;
    for (const auto& sc : scenarios) {
        const auto jobs = jobsOf(*sc);
        for (const auto& s : reg.schedulers()) {
            for (const auto& r : reg.repartitioners()) {
                model::RunOptions o;
                o.scheduler = model::PolicyChoice{s.id, {}};
                o.repartitioner = model::PolicyChoice{r.id, allpairs::repartitionerParams(r.id)};
                o.timeSeries = false;
                const simcore::RunResult normal = model::simulate(*sc, jobs, o);
                const auto pb = model::Playback::record(sc, jobs, o);
                compareRuns(normal, pb->result(), (s.id + "/" + r.id).c_str());
                repartitions += normal.metrics.reconfigurations;
                ++pairs;
            }
        }
    }
    QCOMPARE(pairs, 2 * reg.schedulers().size() * reg.repartitioners().size());
    QVERIFY(reg.schedulers().size() >= 8 && reg.repartitioners().size() >= 7);
    QVERIFY(repartitions > 0);
}

void TestPlayback::stateFromKeyframesEqualsStepping()
{
    const auto sc = load(QStringLiteral("03-repartition-pays-off.json"));
    const auto pb = model::Playback::record(sc, jobsOf(*sc), {}, 8);
    model::PlaybackState walk = pb->stateAt(-1);
    for (int i = 0; i < pb->stepCount(); ++i) {
        pb->advance(walk);
        const model::PlaybackState jump = pb->stateAt(i);
        QCOMPARE(jump.step, i);
        QCOMPARE(jump.time, pb->step(i).time);
        QCOMPARE(jump.gpus.size(), walk.gpus.size());
        for (size_t g = 0; g < walk.gpus.size(); ++g) {
            QCOMPARE(jump.gpus[g].size(), walk.gpus[g].size());
            int running = 0;
            for (size_t k = 0; k < walk.gpus[g].size(); ++k) {
                QCOMPARE(jump.gpus[g][k].job, walk.gpus[g][k].job);
                QCOMPARE(jump.gpus[g][k].profile, walk.gpus[g][k].profile);
                running += walk.gpus[g][k].job >= 0 ? 1 : 0;
            }
            QCOMPARE(running, pb->step(i).summary.running); // one GPU here
        }
        QCOMPARE(pb->stepAtTime(pb->step(i).time), i);
    }
    // Remaining work decreases while a job runs and is within [0, 1].
    const model::PlaybackState mid = pb->stateAt(pb->stepCount() / 2);
    for (const auto& inst : mid.gpus.front()) {
        if (inst.job >= 0) {
            const double r = pb->remaining(inst, mid.time);
            QVERIFY(r > 0.0 && r <= 1.0);
        }
    }
}

void TestPlayback::explainsMostPackedOnOneGSlices()
{
    // Lesson 1 at t = 0: seven ResNet inference jobs (3 min on 1g, due at 8 min) arrive together;
    // EDF Most Packed puts job 1 on the first 1g slice, which meets its deadline with 5 min to spare.
    const auto sc = load(QStringLiteral("01-mig-vs-whole-gpu.json"));
    const auto pb = model::Playback::record(sc, jobsOf(*sc));
    QCOMPARE(pb->step(0).time, 0.0);
    QCOMPARE(pb->step(0).starts.size(), size_t{7});
    const auto* s = startOf(*pb, 0, 1);
    QVERIFY(s != nullptr);
    QCOMPARE(s->gpu, 0);
    QCOMPARE(s->start, 0);
    QCOMPARE(QString::fromStdString(pb->gpuModel(0).profiles[static_cast<size_t>(s->profile)].name),
             QStringLiteral("1g.5gb"));
    const QString why = QString::fromStdString(s->reason);
    QVERIFY2(why.startsWith(QLatin1String("job 1 to GPU 0, 1g.5gb at start 0: ")), qPrintable(why));
    QVERIFY2(why.contains(QLatin1String("most packed GPU")), qPrintable(why));
    QVERIFY2(why.contains(QLatin1String("smallest free slice there that meets its deadline")), qPrintable(why));
    QVERIFY2(why.contains(QLatin1String("done 5.0 min before its deadline")), qPrintable(why));
    // The 7 jobs of the burst fill the 7 slices; the pane lists the release and the 7 decisions.
    const auto lines = pb->describe(0);
    QCOMPARE(lines.size(), size_t{8});
    QVERIFY(QString::fromStdString(lines.front()).startsWith(QLatin1String("released: jobs 1, 2, 3")));
}

void TestPlayback::explainsFragmentationWaits()
{
    // Lesson 2: jobs 1-8 need 12 GiB, which only the 3g.20gb slice holds. Job 1 takes it at t = 0;
    // job 2 (released at 0.25 min) waits although four 1g slices are free.
    const auto sc = load(QStringLiteral("02-fragmentation.json"));
    const auto pb = model::Playback::record(sc, jobsOf(*sc));
    const auto* s = startOf(*pb, 0, 1);
    QVERIFY(s != nullptr);
    QCOMPARE(QString::fromStdString(pb->gpuModel(0).profiles[static_cast<size_t>(s->profile)].name),
             QStringLiteral("3g.20gb"));
    QVERIFY2(QString::fromStdString(s->reason).startsWith(QLatin1String("job 1 to GPU 0, 3g.20gb at start 4: ")),
             s->reason.c_str());
    const int at1 = pb->stepAtTime(0.25);
    QCOMPARE(pb->step(at1).time, 0.25);
    bool waits = false;
    for (const auto& [j, why] : pb->step(at1).waits)
        waits = waits ||
                (pb->jobs()[static_cast<size_t>(j)].id == 2 && why == "job 2 waits: no free slice holds its 12 GiB");
    QVERIFY(waits);
    QCOMPARE(pb->jobs()[static_cast<size_t>(pb->step(at1).queue.front())].id, 2); // first in EDF order
}

void TestPlayback::explainsRepartitionWithDowntime()
{
    // Lesson 3: the plan switches the GPU from seven 1g slices to one 7g at 01:00, 4 s of downtime.
    const auto sc = load(QStringLiteral("03-repartition-pays-off.json"));
    const auto pb = model::Playback::record(sc, jobsOf(*sc));
    const int i = pb->stepAtTime(60.0);
    QCOMPARE(pb->step(i).time, 60.0);
    QCOMPARE(pb->step(i).repartitions.size(), size_t{1});
    const auto& r = pb->step(i).repartitions.front();
    QCOMPARE(r.downtimeMin, 4.0 / 60.0);
    QVERIFY2(r.reason.find("scheduled layout from 1:00: configuration 1 of fleet-12") != std::string::npos,
             r.reason.c_str());
    bool described = false;
    for (const auto& line : pb->describe(i))
        described = described || line.find("new instances down for 4 s") != std::string::npos;
    QVERIFY(described);
    const model::PlaybackState after = pb->stateAt(i);
    QCOMPARE(after.gpus.front().size(), size_t{1});
    QCOMPARE(after.gpus.front().front().readyAt, 60.0 + 4.0 / 60.0);
}

void TestPlayback::explainsFaultsWithTheWorkLost()
{
    // The shared cluster's GPUs fail (MTBF 168 h, repair 120 min; training jobs checkpoint every
    // 10 min). Each failure's step says which GPU failed when, which jobs lost how much work and
    // that they restart from their checkpoint; the minutes lost, turned back into 1g-minutes,
    // add up to what the engine counted; the failed GPU is down in the state until its repair.
    model::Problems problems;
    auto sc = std::make_shared<const model::Scenario>(
        model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/shared-cluster.json", problems));
    QVERIFY(problems.empty());
    const auto pb = model::Playback::record(sc, jobsOf(*sc));
    const simcore::RunResult& r = pb->result();
    QVERIFY(!r.faults.empty());
    int described = 0;
    int withLoss = 0;
    for (int i = 0; i < pb->stepCount(); ++i) {
        const auto lines = pb->describe(i);
        for (size_t k = 0; k < pb->step(i).faults.size(); ++k) {
            const model::PlaybackFault& f = pb->step(i).faults[k];
            const simcore::FaultEvent& ev = r.faults[static_cast<size_t>(f.fault)];
            QCOMPARE(ev.time, pb->step(i).time);
            QVERIFY(lines.size() > k); // the faults come first
            const QString first = QString::fromStdString(lines[k]);
            QVERIFY2(first.startsWith(QStringLiteral("GPU %1 failed at %2")
                                          .arg(ev.gpu)
                                          .arg(QString::fromStdString(model::clockText(ev.time)))),
                     qPrintable(first));
            QVERIFY2(
                first.endsWith(QStringLiteral("repaired at ") + QString::fromStdString(model::clockText(ev.untilMin))),
                qPrintable(first));
            const auto hits = model::faultHits(*sc, r, ev);
            QCOMPARE(static_cast<int>(hits.size()), ev.jobsHit);
            // What the playback saw stop (it has no segments without time series) is the same.
            QCOMPARE(f.hits.size(), hits.size());
            for (size_t h = 0; h < hits.size(); ++h) {
                QCOMPARE(f.hits[h].job, hits[h].job);
                QVERIFY(std::abs(f.hits[h].lostMin - hits[h].lostMin) < 1e-9);
            }
            double lost1g = 0.0;
            for (const model::FaultHit& h : hits) {
                const simcore::JobResult& job = r.jobs[static_cast<size_t>(h.job)];
                QVERIFY(h.lostMin >= 0.0);
                QString expected = QStringLiteral("job %1 lost %2 min of work, restarts from ")
                                       .arg(job.id)
                                       .arg(QString::number(h.lostMin, 'f', 1));
                expected +=
                    h.checkpoint ? QStringLiteral("its checkpoint") : QStringLiteral("the start of its segment");
                QVERIFY2(first.contains(expected), qPrintable(first + QStringLiteral(" lacks ") + expected));
                if (h.checkpoint)
                    QVERIFY(h.lostMin < 10.0);
                // The job's run time on that instance for all its work, as the engine counts it.
                const auto& gpu = pb->gpuModel(ev.gpu);
                int compute = 0;
                for (const auto& s : r.segments)
                    if (s.job == h.job && std::abs(s.t1 - ev.time) < 1e-6)
                        compute = gpu.profiles[static_cast<size_t>(s.profile)].compute;
                QVERIFY(compute > 0);
                lost1g += h.lostMin / pb->processing(h.job, compute) * job.work1g;
                withLoss += h.lostMin > 0.0 ? 1 : 0;
            }
            QVERIFY2(std::abs(lost1g - ev.lostWork1gMin) < 1e-6,
                     qPrintable(QStringLiteral("%1 vs %2").arg(lost1g).arg(ev.lostWork1gMin)));
            // Down in the playback until the repair, up again afterwards.
            const model::PlaybackState at = pb->stateAt(i);
            for (const auto& inst : at.gpus[static_cast<size_t>(ev.gpu)])
                QCOMPARE(inst.failedUntil, ev.untilMin);
            ++described;
        }
    }
    QCOMPARE(described, static_cast<int>(r.faults.size()));
    QVERIFY(withLoss > 0);
}

QTEST_GUILESS_MAIN(TestPlayback)
#include "tst_playback.moc"

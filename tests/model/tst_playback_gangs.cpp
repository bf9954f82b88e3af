// SPDX-License-Identifier: GPL-3.0-or-later
// Gang decisions in playback (docs/playback.md, docs/tenants.md "Gang jobs"): on hand-made tiny
// scenarios, the step where a gang waits for its tenant's quota, reserves instances or starts
// all at once says so in words, and explanations change no figure.
#include "playback.h"
#include "scenario.h"
#include "simulation.h"

#include <QtTest>

#include <memory>

namespace {

/// A scenario on one A100 per entry of @p gpus (configuration 5: two 3g.20gb), jobs from @p csv.
std::shared_ptr<const model::Scenario> scenario(const QTemporaryDir& dir, int gpus, const QString& extra,
                                                const QString& csv)
{
    QFile jobs(dir.filePath(QStringLiteral("jobs.csv")));
    if (!jobs.open(QIODevice::WriteOnly) || jobs.write(csv.toUtf8()) < 0)
        qFatal("cannot write the jobs");
    jobs.close();
    const QString json = QStringLiteral(R"({"format": "migsight-scenario", "version": 1, "name": "gangs",
  "fleet": [{"gpu": "A100-40GB", "count": %1, "config_list": "fleet-12", "layouts": [%3]}],
  "workload": {"kind": "csv", "path": "jobs.csv"},
  "preemption": "on-repartition", "scheduler": {"id": "edf-most-packed"}, "repartitioner": {"id": "static"}%2})")
                             .arg(gpus)
                             .arg(extra, gpus == 1 ? QStringLiteral("5") : QStringLiteral("5, 5"));
    QFile file(dir.filePath(QStringLiteral("gangs.json")));
    if (!file.open(QIODevice::WriteOnly) || file.write(json.toUtf8()) < 0)
        qFatal("cannot write the scenario");
    file.close();
    model::Problems problems;
    auto sc = model::loadScenario(file.fileName().toStdString(), problems);
    if (!problems.empty())
        qFatal("%s", problems.items().front().text().c_str());
    return std::make_shared<const model::Scenario>(std::move(sc));
}

std::shared_ptr<const model::Playback> record(const std::shared_ptr<const model::Scenario>& sc)
{
    model::Problems problems;
    auto pb = model::Playback::record(sc, model::scenarioJobs(*sc, std::nullopt, problems));
    // Explanations change nothing: the same figures as the normal run.
    const simcore::RunResult plain = model::simulate(*sc, model::scenarioJobs(*sc, std::nullopt, problems));
    const auto& a = pb->result();
    if (a.metrics.energyWmin != plain.metrics.energyWmin || a.metrics.steps != plain.metrics.steps ||
        a.jobs.size() != plain.jobs.size())
        qFatal("the playback's run differs from the normal run");
    for (size_t j = 0; j < a.jobs.size(); ++j) {
        if (a.jobs[j].start != plain.jobs[j].start || a.jobs[j].end != plain.jobs[j].end)
            qFatal("job %d differs with explanations", a.jobs[j].id);
    }
    return pb;
}

int stepAt(const model::Playback& pb, double t)
{
    const int i = pb.stepAtTime(t);
    if (i < 0 || pb.step(i).time != t)
        qFatal("no step at %g", t);
    return i;
}

QStringList lines(const model::Playback& pb, int step)
{
    QStringList out;
    for (const auto& line : pb.describe(step))
        out << QString::fromStdString(line);
    return out;
}

/// The line starting with @p head, or an empty string.
QString lineStarting(const QStringList& lines, const QString& head)
{
    for (const QString& l : lines) {
        if (l.startsWith(head))
            return l;
    }
    return {};
}

const simcore::JobResult& byId(const model::Playback& pb, int id)
{
    for (const auto& j : pb.result().jobs) {
        if (j.id == id)
            return j;
    }
    qFatal("no job %d", id);
}

} // namespace

class TestPlaybackGangs : public QObject
{
    Q_OBJECT

private slots:
    void gangWaitsForItsQuotaThenStarts();
    void gangReservesAndStartsOnItsReservations();
    void sharedClusterGangsAreExplained();
};

void TestPlaybackGangs::gangWaitsForItsQuotaThenStarts()
{
    // Two GPUs of 3g+3g; nlp is guaranteed 6 slices and may not borrow. Its single job holds a 3g
    // over [0, 10); its gang of two 3g members (released at 0) would take it to 9 slices: the
    // playback says at 0 that the gang waits for nlp's quota (3 of 6 free, it needs 6), and at 10
    // that it started on two 3g after 10 minutes (docs/tenants.md's worked case).
    QTemporaryDir dir;
    const auto sc =
        scenario(dir, 2, QStringLiteral(R"(, "tenants": [{"name": "nlp", "quota_slices": 6, "may_borrow": false}])"),
                 QStringLiteral("id,type,release_min,deadline_min,work_1g_min,tenant,gang,gang_min_slices\n"
                                "1,bert_infer,0,10,30,nlp,,\n"
                                "101,bert_train,0,100,30,nlp,100,3\n"
                                "102,bert_train,0,100,30,nlp,100,3\n"));
    const auto pb = record(sc);
    QCOMPARE(byId(*pb, 101).start, 10.0);
    const QStringList first = lines(*pb, stepAt(*pb, 0.0));
    QVERIFY2(
        first.contains(QStringLiteral("Gang 100 waits: nlp's quota (6 slices) has 3 free, it needs 6 (2 x 3 slices)")),
        qPrintable(first.join('\n')));
    const int s = stepAt(*pb, 10.0);
    const QStringList at10 = lines(*pb, s);
    const simcore::JobResult& m1 = byId(*pb, 101);
    const simcore::JobResult& m2 = byId(*pb, 102);
    const QString gpus =
        m1.gpu == m2.gpu ? QStringLiteral("GPU %1").arg(m1.gpu)
                         : QStringLiteral("GPUs %1, %2").arg(std::min(m1.gpu, m2.gpu)).arg(std::max(m1.gpu, m2.gpu));
    const QString started = QStringLiteral("Gang 100 (nlp, 2 x 3g.20gb) started on %1 after 10.0 min waiting, all "
                                           "members at once")
                                .arg(gpus);
    QVERIFY2(at10.contains(started), qPrintable(at10.join('\n') + QStringLiteral("\nlacks: ") + started));
    // The other member's start names its place and its gang.
    const QString member =
        QStringLiteral("job 102 to GPU %1, 3g.20gb at start %2 with gang 100").arg(m2.gpu).arg(m2.instanceStart);
    QVERIFY2(at10.contains(member), qPrintable(at10.join('\n') + QStringLiteral("\nlacks: ") + member));
    // The wait is said once, not at every step until the start.
    int waits = 0;
    for (int i = 0; i < pb->stepCount(); ++i)
        waits += static_cast<int>(lines(*pb, i).filter(QStringLiteral("Gang 100 waits")).size());
    QCOMPARE(waits, 1);
}

void TestPlaybackGangs::gangReservesAndStartsOnItsReservations()
{
    // One GPU of 3g+3g; single jobs of 10 min arrive every 5 min, so one 3g is always busy. The
    // gang waits for room at 0, has waited 10 min at 10 (> 8) and reserves the 3g freed then,
    // reserves the one freed at 15 and starts on both at 15 (docs/tenants.md's worked case).
    QTemporaryDir dir;
    QString csv = QStringLiteral("id,type,release_min,deadline_min,work_1g_min,gang,gang_min_slices\n");
    for (int i = 0; i < 6; ++i)
        csv += QStringLiteral("%1,bert_infer,%2,%3,30,,\n").arg(i + 1).arg(5 * i).arg(5 * i + 10);
    csv += QStringLiteral("101,bert_train,0,200,30,100,3\n102,bert_train,0,200,30,100,3\n");
    const auto sc = scenario(dir, 1, QStringLiteral(R"(, "gangs": {"reserve_after_min": 8})"), csv);
    const auto pb = record(sc);
    QCOMPARE(byId(*pb, 101).start, 15.0);
    const QStringList at0 = lines(*pb, stepAt(*pb, 0.0));
    QVERIFY2(lineStarting(at0, QStringLiteral("Gang 100 waits: 1 free instance of at least 3 slices"))
                 .endsWith(QStringLiteral(", it needs 2 at once")),
             qPrintable(at0.join('\n')));
    // The instances freed at 10 (job 1's) and at 15 (job 2's).
    const int first = byId(*pb, 1).instanceStart;
    const int second = byId(*pb, 2).instanceStart;
    QVERIFY(first != second);
    const QStringList at10 = lines(*pb, stepAt(*pb, 10.0));
    const QString reserves =
        QStringLiteral("Gang 100 has waited 10.0 min, the longest of the waiting gangs: it reserves instances of at "
                       "least 3 slices as they free up, so no other job takes them; it reserves GPU 0, 3g.20gb at "
                       "start %1: it holds 1 of the 2 instances it needs")
            .arg(first);
    QVERIFY2(at10.contains(reserves), qPrintable(at10.join('\n') + QStringLiteral("\nlacks: ") + reserves));
    // At 15 it reserves the second 3g and starts on both: the start says it all (the reservation
    // made in this step is not said apart).
    const QStringList at15 = lines(*pb, stepAt(*pb, 15.0));
    const QString started =
        QStringLiteral("Gang 100 (2 x 3g.20gb) started on GPU 0 after 15.0 min waiting, all members "
                       "at once; it had reserved GPU 0, 3g.20gb at start %1 since 00:10 and GPU "
                       "0, 3g.20gb at start %2 in this step")
            .arg(first)
            .arg(second);
    QVERIFY2(at15.contains(started), qPrintable(at15.join('\n') + QStringLiteral("\nlacks: ") + started));
    QVERIFY2(lineStarting(at15, QStringLiteral("Gang 100 reserves")).isEmpty(), qPrintable(at15.join('\n')));
}

void TestPlaybackGangs::sharedClusterGangsAreExplained()
{
    // The shared cluster's day: every gang start has its sentence on its first member's start,
    // every reservation is said, and the figures equal the normal run's (record() checks them).
    model::Problems problems;
    auto sc = std::make_shared<const model::Scenario>(
        model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/shared-cluster.json", problems));
    QVERIFY(problems.empty());
    const auto pb = record(sc);
    int starts = 0;
    int reserving = 0;
    int quotaWaits = 0;
    for (int i = 0; i < pb->stepCount(); ++i) {
        for (const QString& l : lines(*pb, i)) {
            starts += l.startsWith(QStringLiteral("Gang ")) && l.contains(QStringLiteral(") started on GPU"));
            reserving += l.contains(QStringLiteral(": it reserves instances of at least"));
            quotaWaits += l.contains(QStringLiteral(" waits: nlp's quota (16 slices) has "));
        }
    }
    QCOMPARE(starts, pb->result().platform.gangStarts);
    QVERIFY(reserving > 0);
    QVERIFY(quotaWaits >= pb->result().platform.gangQuotaWaits);
}

QTEST_GUILESS_MAIN(TestPlaybackGangs)
#include "tst_playback_gangs.moc"

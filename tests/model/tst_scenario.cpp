// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files (docs/scenario-format.md): every sample loads, and every kind of mistake is
// reported with the file, the JSON path and a message that says what to do, all at once.
#include "catalog.h"
#include "registry.h"
#include "scenario.h"
#include "simulation.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

namespace {

const char* kFile = "/scenarios/day.json";

/// A small valid scenario; the data rows change it with a JSON merge patch (RFC 7386: objects
/// merge, null deletes a key, arrays are replaced).
const char* kBase = R"({
  "format": "migsight-scenario",
  "version": 1,
  "name": "base",
  "fleet": [{"gpu": "A100-40GB", "count": 1, "layout": ["7g.40gb@0"]}],
  "workload": {"kind": "diurnal", "multiplier": 1, "seed": 3}
})";

std::string patched(const QString& patch)
{
    nlohmann::json doc = nlohmann::json::parse(kBase);
    doc.merge_patch(nlohmann::json::parse(patch.toStdString()));
    return doc.dump(2);
}

model::Scenario parse(const std::string& text, model::Problems& problems)
{
    return model::parseScenario(text, kFile, problems);
}

QString describe(const model::Problems& problems)
{
    return QString::fromStdString(problems.text());
}

/// The problem at @p location, or nullptr.
const model::Problem* at(const model::Problems& problems, const QString& location)
{
    for (const auto& p : problems.items()) {
        if (QString::fromStdString(p.location) == location)
            return &p;
    }
    return nullptr;
}

const simcore::GpuModel& a100()
{
    return *model::Catalog::builtin().find("A100-40GB");
}

} // namespace

class TestScenario : public QObject
{
    Q_OBJECT

private slots:
    void samplesLoad_data();
    void samplesLoad();
    void paperFleetContents();
    void baseIsValid();
    void badScenario_data();
    void badScenario();
    void unknownPolicyListsEveryId();
    void malformedJson();
    void numberBeyondDouble();
    void emptyFile();
    void unreadableFile();
    void allProblemsAtOnce();
    void csvWorkload();
    void overrides();
};

void TestScenario::samplesLoad_data()
{
    QTest::addColumn<QString>("path");
    const QDir dir(QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples"));
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QVERIFY(!files.isEmpty());
    for (const QString& f : files) {
        // A variants file is not a scenario (docs/planning.md, "Variants"); tst_cli_variants reads it.
        if (!f.endsWith(QLatin1String("-variants.json")))
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
}

void TestScenario::samplesLoad()
{
    QFETCH(QString, path);
    model::Problems problems;
    const model::Scenario sc = model::loadScenario(path.toStdString(), problems);
    QVERIFY2(problems.empty(), qPrintable(describe(problems)));
    QVERIFY(sc.gpuCount() > 0);
    QCOMPARE(sc.fleetGpus().size(), static_cast<size_t>(sc.gpuCount()));
    for (const auto& gpu : sc.fleetGpus())
        QVERIFY(simcore::validateLayout(*gpu.model, gpu.layout).empty());
    QVERIFY(!sc.name.empty());
    const auto jobs = model::scenarioJobs(sc, std::nullopt, problems);
    QVERIFY2(problems.empty(), qPrintable(describe(problems)));
    QVERIFY(!jobs.empty());
}

void TestScenario::paperFleetContents()
{
    // The paper's fleet: 8 x A100-40GB in configurations 1,1,2,3,3,5,5,10 of the 12-list, diurnal
    // 20x, seed 1, 4 s reconfigurations (0.0667 min), a = 2e-7, full reschedule, EDF Most Packed.
    model::Problems problems;
    const model::Scenario sc = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json", problems);
    QVERIFY2(problems.empty(), qPrintable(describe(problems)));
    QCOMPARE(sc.gpuCount(), 8);
    const auto& list = a100().findList("fleet-12")->layouts;
    const int numbers[] = {1, 1, 2, 3, 3, 5, 5, 10};
    const auto gpus = sc.fleetGpus();
    for (int g = 0; g < 8; ++g)
        QVERIFY(gpus[static_cast<size_t>(g)].layout == list[static_cast<size_t>(numbers[g] - 1)]);
    QCOMPARE(sc.workload.kind, model::WorkloadSpec::Kind::Diurnal);
    QCOMPARE(sc.workload.diurnal.multiplier, 20.0);
    QCOMPARE(sc.workload.diurnal.seed, std::uint64_t(1));
    QCOMPARE(sc.energyWeight, 2e-7);
    QCOMPARE(sc.preemption, simcore::PreemptionMode::FullReschedule);
    QCOMPARE(model::engineConfig(sc, 1).reconfigurationMin, 4.0 / 60.0);
    QCOMPARE(QString::fromStdString(sc.scheduler.id), QStringLiteral("edf-most-packed"));
    QCOMPARE(QString::fromStdString(sc.repartitioner.id), QStringLiteral("static"));
}

void TestScenario::baseIsValid()
{
    model::Problems problems;
    const model::Scenario sc = parse(patched(QStringLiteral("{}")), problems);
    QVERIFY2(problems.empty(), qPrintable(describe(problems)));
    QCOMPARE(sc.gpuCount(), 1);
    QCOMPARE(sc.workload.diurnal.seed, std::uint64_t(3));
    // Defaults of docs/scenario-format.md.
    QCOMPARE(sc.reconfigurationS, 4.0);
    QCOMPARE(sc.energyWeight, 2e-7);
    QCOMPARE(sc.preemption, simcore::PreemptionMode::FullReschedule);
    QCOMPARE(sc.jobTypes.size(), size_t(4));
}

void TestScenario::badScenario_data()
{
    QTest::addColumn<QString>("patch");
    QTest::addColumn<QString>("location");
    QTest::addColumn<QStringList>("words"); // all must appear in the message

    const QString group = QStringLiteral(R"({"fleet": [{"gpu": "A100-40GB", "count": %1}]})");
    auto fleet = [](const char* g) { return QStringLiteral(R"({"fleet": [%1]})").arg(QLatin1String(g)); };

    QTest::newRow("wrong format") << R"({"format": "migsight-session"})"
                                  << "$.format" << QStringList{"migsight-session", "migsight-scenario"};
    QTest::newRow("newer version") << R"({"version": 2})"
                                   << "$.version" << QStringList{"version 2", "newer", "up to version 1"};
    QTest::newRow("version missing") << R"({"version": null})"
                                     << "$.version" << QStringList{"missing"};
    QTest::newRow("version not a number") << R"({"version": "1"})"
                                          << "$.version" << QStringList{"whole number"};
    QTest::newRow("unknown key (typo)") << R"({"energy_wieght": 0.1})"
                                        << "$.energy_wieght" << QStringList{"unknown key", "energy_weight"};
    QTest::newRow("fleet missing") << R"({"fleet": null})"
                                   << "$.fleet" << QStringList{"missing"};
    QTest::newRow("fleet empty") << R"({"fleet": []})"
                                 << "$.fleet" << QStringList{"at least one"};
    QTest::newRow("unknown GPU") << fleet(R"({"gpu": "A100-41GB", "count": 1, "layout": ["7g.40gb@0"]})")
                                 << "$.fleet[0].gpu"
                                 << QStringList{"unknown GPU", "A100-41GB", "A100-40GB", "H100-80GB"};
    QTest::newRow("count 0") << fleet(R"({"gpu": "A100-40GB", "count": 0, "layout": ["7g.40gb@0"]})")
                             << "$.fleet[0].count" << QStringList{"0", "between 1"};
    QTest::newRow("count not whole") << fleet(R"({"gpu": "A100-40GB", "count": 1.5, "layout": ["7g.40gb@0"]})")
                                     << "$.fleet[0].count" << QStringList{"whole number"};
    QTest::newRow("typo in a group") << fleet(R"({"gpu": "A100-40GB", "cuont": 1, "layout": ["7g.40gb@0"]})")
                                     << "$.fleet[0].cuont" << QStringList{"unknown key", "count"};
    QTest::newRow("layout number 13 of 12")
        << fleet(R"({"gpu": "A100-40GB", "count": 1, "config_list": "fleet-12", "layout": 13})") << "$.fleet[0].layout"
        << QStringList{"13", "fleet-12", "1..12"};
    QTest::newRow("layout number 0")
        << fleet(R"({"gpu": "A100-40GB", "count": 1, "config_list": "single-19", "layout": 0})") << "$.fleet[0].layout"
        << QStringList{"0", "1..19"};
    QTest::newRow("layout number without list") << fleet(R"({"gpu": "A100-40GB", "count": 1, "layout": 2})")
                                                << "$.fleet[0].layout" << QStringList{"config_list"};
    QTest::newRow("unknown list")
        << fleet(R"({"gpu": "A100-40GB", "count": 1, "config_list": "fleet-13", "layout": ["7g.40gb@0"]})")
        << "$.fleet[0].config_list" << QStringList{"fleet-13", "fleet-12", "single-19"};
    QTest::newRow("overlapping layout")
        << fleet(R"({"gpu": "A100-40GB", "count": 1, "layout": ["3g.20gb@0", "4g.20gb@0"]})") << "$.fleet[0].layout"
        << QStringList{"overlaps"};
    QTest::newRow("start not allowed") << fleet(R"({"gpu": "A100-40GB", "count": 1, "layout": ["3g.20gb@2"]})")
                                       << "$.fleet[0].layout" << QStringList{"3g.20gb", "start", "2", "0, 4"};
    QTest::newRow("1g at 7")
        << fleet(R"({"gpu": "A100-40GB", "count": 1, "layout": ["4g.20gb@0", "1g.5gb@4", "1g.5gb@7"]})")
        << "$.fleet[0].layout" << QStringList{"1g.5gb", "7"};
    QTest::newRow("unknown profile") << fleet(R"({"gpu": "A100-40GB", "count": 1, "layout": ["5g.25gb@0"]})")
                                     << "$.fleet[0].layout" << QStringList{"5g.25gb", "3g.20gb"};
    QTest::newRow("start not a number") << fleet(R"({"gpu": "A100-40GB", "count": 1, "layout": ["3g.20gb@x"]})")
                                        << "$.fleet[0].layout" << QStringList{"whole number"};
    QTest::newRow("no placement exists") << fleet(
                                                R"({"gpu": "A100-40GB", "count": 1, "layout": ["4g.20gb", "4g.20gb"]})")
                                         << "$.fleet[0].layout" << QStringList{"no valid placement"};
    QTest::newRow("layouts of the wrong length")
        << fleet(R"({"gpu": "A100-40GB", "count": 2, "config_list": "fleet-12", "layouts": [1]})")
        << "$.fleet[0].layouts" << QStringList{"one layout per GPU", "2"};
    QTest::newRow("bad entry of layouts")
        << fleet(R"({"gpu": "A100-40GB", "count": 3, "config_list": "fleet-12", "layouts": [1, 2, 99]})")
        << "$.fleet[0].layouts[2]" << QStringList{"99"};
    QTest::newRow("layout and layouts")
        << fleet(R"({"gpu": "A100-40GB", "count": 1, "layout": ["7g.40gb@0"], "layouts": [["7g.40gb@0"]]})")
        << "$.fleet[0]" << QStringList{"layout", "layouts"};
    QTest::newRow("neither layout nor layouts") << group.arg(1) << "$.fleet[0]" << QStringList{"layout"};
    QTest::newRow("unknown scheduler") << R"({"scheduler": "edf-most-pakced"})"
                                       << "$.scheduler" << QStringList{"edf-most-pakced", "edf-most-packed"};
    QTest::newRow("unknown repartitioner") << R"({"repartitioner": {"id": "dynamic-typo"}})"
                                           << "$.repartitioner" << QStringList{"dynamic-typo", "static", "none"};
    QTest::newRow("unknown scheduler parameter")
        << R"({"scheduler": {"id": "edf-most-packed", "params": {"speed": 2}}})"
        << "$.scheduler.params" << QStringList{"speed"};
    QTest::newRow("negative multiplier") << R"({"workload": {"multiplier": -1}})"
                                         << "$.workload.multiplier" << QStringList{"-1"};
    QTest::newRow("unknown workload kind") << R"({"workload": {"kind": "trace"}})"
                                           << "$.workload.kind" << QStringList{"trace", "diurnal", "poisson", "csv"};
    QTest::newRow("workload missing") << R"({"workload": null})"
                                      << "$.workload" << QStringList{"missing"};
    QTest::newRow("23 hourly rates")
        << R"({"workload": {"hourly_rates": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}})"
        << "$.workload.hourly_rates" << QStringList{"24"};
    QTest::newRow("csv workload without path") << R"({"workload": {"kind": "csv", "multiplier": null, "seed": null}})"
                                               << "$.workload.path" << QStringList{"missing"};
    QTest::newRow("csv workload with a diurnal key") << R"({"workload": {"kind": "csv", "path": "jobs.csv"}})"
                                                     << "$.workload.multiplier" << QStringList{"unknown key"};
    QTest::newRow("bad preemption") << R"({"preemption": "sometimes"})"
                                    << "$.preemption"
                                    << QStringList{"sometimes", "full-reschedule", "on-repartition", "none"};
    QTest::newRow("negative energy weight") << R"({"energy_weight": -0.5})"
                                            << "$.energy_weight" << QStringList{"-0.5"};
    QTest::newRow("negative reconfiguration") << R"({"reconfiguration_s": -4})"
                                              << "$.reconfiguration_s" << QStringList{"-4"};
    QTest::newRow("power curve of 7 values") << R"({"power_w": {"A100-40GB": [40, 119, 160, 205, 243, 247, 248]}})"
                                             << R"($.power_w["A100-40GB"])" << QStringList{"8"};
    QTest::newRow("job mix of an unknown type")
        << R"({"job_mix": {"llm_infer": 1}})"
        << "$.job_mix.llm_infer" << QStringList{"unknown job type", "bert_infer"};
    QTest::newRow("job type speed-up missing")
        << R"({"job_types": [{"id": "llm", "speedup": {"2": 1.9, "3": 2.7, "4": 3.4}}]})"
        << "$.job_types[0].speedup.7" << QStringList{"missing"};
    QTest::newRow("slack_max below slack_min") << R"({"sizes": {"slack_min": 2, "slack_max": 1}})"
                                               << "$.sizes.slack_max" << QStringList{"slack_min"};
}

void TestScenario::badScenario()
{
    QFETCH(QString, patch);
    QFETCH(QString, location);
    QFETCH(QStringList, words);
    model::Problems problems;
    (void)parse(patched(patch), problems);
    QVERIFY2(!problems.empty(), "the mistake was not reported");
    const model::Problem* p = at(problems, location);
    QVERIFY2(p != nullptr, qPrintable(QStringLiteral("nothing at %1; got:\n%2").arg(location, describe(problems))));
    QCOMPARE(QString::fromStdString(p->file), QString::fromLatin1(kFile));
    const QString message = QString::fromStdString(p->message);
    for (const QString& w : words)
        QVERIFY2(message.contains(w), qPrintable(QStringLiteral("'%1' not in: %2").arg(w, message)));
    // The one-line text a user sees names the file, the path and the reason.
    const QString text = QString::fromStdString(p->text());
    QVERIFY(text.startsWith(QString::fromLatin1(kFile)));
    QVERIFY(text.contains(location));
}

void TestScenario::unknownPolicyListsEveryId()
{
    model::Problems problems;
    (void)parse(patched(QStringLiteral(R"({"scheduler": "edf", "repartitioner": "dynamic"})")), problems);
    const model::Problem* s = at(problems, QStringLiteral("$.scheduler"));
    const model::Problem* r = at(problems, QStringLiteral("$.repartitioner"));
    QVERIFY2(s && r, qPrintable(describe(problems)));
    for (const auto& info : policies::builtinRegistry().schedulers())
        QVERIFY2(s->message.find(info.id) != std::string::npos, info.id.c_str());
    for (const auto& info : policies::builtinRegistry().repartitioners())
        QVERIFY2(r->message.find(info.id) != std::string::npos, info.id.c_str());
}

void TestScenario::numberBeyondDouble()
{
    // Found by fuzz_scenario (docs/fuzzing.md): 1e999 escaped as a library exception with no file
    // or place; now a problem at its JSON path.
    model::Problems problems;
    (void)parse("{\n  \"format\": \"migsight-scenario\",\n  \"energy_weight\": 1e999\n}\n", problems);
    QCOMPARE(problems.size(), size_t(1));
    const model::Problem& p = problems.items().front();
    QCOMPARE(p.file, std::string(kFile));
    QCOMPARE(p.location, std::string("$.energy_weight"));
    QVERIFY2(p.message.find("number overflow parsing '1e999'") != std::string::npos, p.message.c_str());
}

void TestScenario::malformedJson()
{
    // The '}' on line 5, column 1 closes an object while the array of "fleet" is still open.
    const std::string text = "{\n"
                             "  \"format\": \"migsight-scenario\",\n"
                             "  \"version\": 1,\n"
                             "  \"fleet\": [\n"
                             "}\n";
    model::Problems problems;
    (void)parse(text, problems);
    QCOMPARE(problems.size(), size_t(1));
    const model::Problem& p = problems.items().front();
    const QString all = QString::fromStdString(p.location + " " + p.message);
    QVERIFY2(all.contains(QLatin1String("line 5")), qPrintable(all));
    QVERIFY2(all.contains(QLatin1String("column 1")), qPrintable(all));
    QVERIFY2(all.contains(QLatin1String("JSON")), qPrintable(all));

    // A missing comma on line 1: the unexpected token is the string "version", which starts at
    // column 32 ('{' is column 1, "format" 2-9, ':' 10, "migsight-scenario" 12-30, '"' at 32).
    // That is where the comma is missing and where editors and other parsers point.
    model::Problems second;
    (void)parse(R"({"format": "migsight-scenario" "version": 1})", second);
    QCOMPARE(second.size(), size_t(1));
    QVERIFY2(QString::fromStdString(second.items().front().location).contains(QLatin1String("line 1, column 32")),
             qPrintable(describe(second)));
}

void TestScenario::emptyFile()
{
    model::Problems problems;
    (void)parse("", problems);
    QVERIFY(!problems.empty());
    model::Problems array;
    (void)parse("[1, 2]", array);
    QVERIFY(at(array, QStringLiteral("$")) != nullptr);
}

void TestScenario::unreadableFile()
{
    model::Problems problems;
    (void)model::loadScenario("/no/such/folder/scenario.json", problems);
    QCOMPARE(problems.size(), size_t(1));
    QCOMPARE(QString::fromStdString(problems.items().front().file), QStringLiteral("/no/such/folder/scenario.json"));
}

void TestScenario::allProblemsAtOnce()
{
    // Five independent mistakes: all five are reported, each at its own path.
    const QString patch = QStringLiteral(R"({
        "fleet": [{"gpu": "A100-41GB", "count": 1, "layout": ["7g.40gb@0"]},
                  {"gpu": "A100-40GB", "count": 1, "layout": ["3g.20gb@2"]}],
        "workload": {"multiplier": -3},
        "scheduler": "fastest",
        "energy_wieght": 1
    })");
    model::Problems problems;
    (void)parse(patched(patch), problems);
    for (const char* location :
         {"$.fleet[0].gpu", "$.fleet[1].layout", "$.workload.multiplier", "$.scheduler", "$.energy_wieght"})
        QVERIFY2(at(problems, QString::fromLatin1(location)) != nullptr,
                 qPrintable(QStringLiteral("%1 missing from:\n%2").arg(QLatin1String(location), describe(problems))));
    QCOMPARE(problems.size(), size_t(5));
}

void TestScenario::csvWorkload()
{
    // A relative path is resolved against the scenario file's folder.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string scenarioPath = dir.filePath(QStringLiteral("sc.json")).toStdString();
    const std::string text = patched(QStringLiteral(R"({"workload": {"kind": "csv", "path": "jobs.csv",
                                                                    "multiplier": null, "seed": null}})"));
    model::Problems problems;
    const model::Scenario sc = model::parseScenario(text, scenarioPath, problems);
    QVERIFY2(problems.empty(), qPrintable(describe(problems)));
    QCOMPARE(sc.workload.kind, model::WorkloadSpec::Kind::Csv);
    QCOMPARE(QString::fromStdString(sc.workload.csvPath.string()), dir.filePath(QStringLiteral("jobs.csv")));

    // The file does not exist yet: loading the jobs reports it with its path.
    (void)model::scenarioJobs(sc, std::nullopt, problems);
    QCOMPARE(problems.size(), size_t(1));
    QCOMPARE(QString::fromStdString(problems.items().front().file), dir.filePath(QStringLiteral("jobs.csv")));

    QFile f(dir.filePath(QStringLiteral("jobs.csv")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("id,type,release_min,deadline_min,work_1g_min\n1,bert_infer,0.5,4.25,2.75\n2,resnet_train,3,90,50\n");
    f.close();
    model::Problems again;
    const auto jobs = model::scenarioJobs(sc, std::nullopt, again);
    QVERIFY2(again.empty(), qPrintable(describe(again)));
    QCOMPARE(jobs.size(), size_t(2));
    QCOMPARE(jobs[0].deadline, 4.25);
    QCOMPARE(jobs[1].type, sc.jobTypeIndex("resnet_train"));
}

void TestScenario::overrides()
{
    // power_w replaces the board's curve; job_types adds a type whose 5g and 6g speed-ups are
    // interpolated linearly between 4 and 7: 3.4 + (5.2 - 3.4) / 3 = 4.0 and 4.6.
    const QString patch = QStringLiteral(R"({
        "power_w": {"A100-40GB": [10, 20, 30, 40, 50, 60, 70, 80]},
        "job_types": [{"id": "llm_infer", "speedup": {"2": 1.9, "3": 2.7, "4": 3.4, "7": 5.2}}],
        "job_mix": {"llm_infer": 1, "bert_infer": 1},
        "preemption": "none",
        "reconfiguration_s": 30,
        "scheduler": {"id": "edf-most-packed", "params": {}}
    })");
    model::Problems problems;
    const model::Scenario sc = parse(patched(patch), problems);
    QVERIFY2(problems.empty(), qPrintable(describe(problems)));
    const std::vector<double> power = {10, 20, 30, 40, 50, 60, 70, 80};
    QCOMPARE(sc.fleetGpus().front().powerW, power);
    QCOMPARE(a100().powerW.front(), 40.0); // the catalog itself is untouched
    const int llm = sc.jobTypeIndex("llm_infer");
    QCOMPARE(llm, 4);
    const auto& s = sc.jobTypes[static_cast<size_t>(llm)].speedup;
    QCOMPARE(s[5], 4.0);
    QCOMPARE(s[6], 4.6);
    QCOMPARE(s[7], 5.2);
    QCOMPARE(sc.workload.mix.size(), size_t(5));
    QCOMPARE(sc.workload.mix[0], 0.0); // bert_train: not in the given mix
    QCOMPARE(sc.preemption, simcore::PreemptionMode::None);
    QCOMPARE(model::engineConfig(sc, 1).reconfigurationMin, 0.5);
}

QTEST_GUILESS_MAIN(TestScenario)
#include "tst_scenario.moc"

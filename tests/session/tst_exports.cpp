// SPDX-License-Identifier: GPL-3.0-or-later
// Exports (model/exports.h): mig-parted YAML reads back to the same instance counts per GPU and
// those counts place validly; the placement sidecar lists every GPU's exact layout; impossible or
// ambiguous mig-parted configs are refused with a reason; a Perfetto trace holds well-formed
// trace events, one slice per segment; the series CSV has one row per step.
#include "catalog.h"
#include "exports.h"
#include "scenario.h"
#include "simulation.h"

#include <QtTest>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <sstream>

namespace {

using Counts = std::map<std::string, int>;

model::Scenario loadSample(const char* name)
{
    model::Problems problems;
    auto sc = model::loadScenario(std::string(MIGSIGHT_SOURCE_DIR "/samples/") + name, problems);
    if (!problems.empty())
        qWarning("%s", problems.text().c_str());
    return sc;
}

Counts countsOf(const simcore::GpuModel& gpu, const simcore::Layout& layout)
{
    Counts c;
    for (const auto& p : layout)
        ++c[gpu.profiles[static_cast<size_t>(p.profile)].name];
    return c;
}

Counts countsOf(const std::vector<std::pair<std::string, int>>& counts)
{
    Counts c;
    for (const auto& [name, n] : counts)
        c[name] += n;
    return c;
}

const simcore::GpuModel& a100()
{
    const auto* gpu = model::Catalog::builtin().find("A100-40GB");
    Q_ASSERT(gpu != nullptr);
    return *gpu;
}

std::vector<model::MigPartedGroup> readYaml(const std::string& text, const std::string& config,
                                            model::Problems& problems)
{
    return model::readMigParted(text, "config.yaml", config, problems);
}

const char* kSeveralConfigs = R"(version: v1
mig-configs:
  all-disabled:
    - devices: all
      mig-enabled: false
  all-1g.5gb:
    - devices: all
      mig-enabled: true
      mig-devices:
        "1g.5gb": 7
  balanced:
    - devices: [0, 1]
      mig-enabled: true
      mig-devices:
        "3g.20gb": 1
        "2g.10gb": 1
        "1g.5gb": 2
)";

} // namespace

class TestExports : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void migPartedRoundTrip_data();
    void migPartedRoundTrip();
    void placementSidecar();
    void impossibleCounts_data();
    void impossibleCounts();
    void severalConfigsNeedAName();
    void badYaml();
    void nonScalarConfigNameIsAProblem();
    void perfettoTraceEvents();
    void seriesCsvOneRowPerStep();

private:
    model::Scenario m_quickstart;
    simcore::RunResult m_run;
};

void TestExports::initTestCase()
{
    m_quickstart = loadSample("quickstart.json");
    QCOMPARE(m_quickstart.gpuCount(), 2);
    model::Problems problems;
    const auto jobs = model::scenarioJobs(m_quickstart, std::nullopt, problems);
    QVERIFY(problems.empty());
    model::RunOptions options;
    options.timeSeries = true;
    m_run = model::simulate(m_quickstart, jobs, options);
    QVERIFY(m_run.segments.size() > 100);
}

void TestExports::migPartedRoundTrip_data()
{
    QTest::addColumn<QString>("sample");
    QTest::addColumn<int>("groups");
    QTest::newRow("paper fleet") << "paper-fleet.json" << 5; // configurations 1,1,2,3,3,5,5,10 of the 12-list
    QTest::newRow("quickstart") << "quickstart.json" << 2;
}

void TestExports::migPartedRoundTrip()
{
    QFETCH(QString, sample);
    QFETCH(int, groups);
    const model::Scenario sc = loadSample(qPrintable(sample));
    const auto gpus = sc.fleetGpus();
    QVERIFY(!gpus.empty());
    std::ostringstream yaml, sidecar;
    model::writeMigParted(yaml, sc, "migsight-test", &sidecar);
    const std::string text = yaml.str();
    // The file warns that mig-parted keeps counts, not placements, before anything else.
    QVERIFY2(text.rfind("# ", 0) == 0 && text.find("WARNING") < text.find("version:"), text.c_str());

    model::Problems problems;
    const auto read = readYaml(text, "", problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    QCOMPARE(static_cast<int>(read.size()), groups);
    // Each GPU is in exactly one device group, whose counts are the GPU's.
    std::map<int, Counts> perGpu;
    for (const auto& g : read) {
        QVERIFY(g.migEnabled);
        std::vector<int> devices = g.devices;
        if (devices.empty())
            for (size_t i = 0; i < gpus.size(); ++i)
                devices.push_back(static_cast<int>(i));
        for (int d : devices) {
            QVERIFY2(!perGpu.count(d), qPrintable(QString("GPU %1 is in two groups").arg(d)));
            perGpu[d] = countsOf(g.counts);
        }
    }
    QCOMPARE(perGpu.size(), gpus.size());
    for (size_t i = 0; i < gpus.size(); ++i) {
        const auto& gpu = *gpus[i].model;
        const Counts expected = countsOf(gpu, gpus[i].layout);
        QVERIFY2(perGpu[static_cast<int>(i)] == expected, qPrintable(QString("GPU %1 counts differ").arg(i)));
        // mig-parted would have to find a placement for these counts: there is a valid one.
        std::vector<std::pair<std::string, int>> counts(expected.begin(), expected.end());
        simcore::Layout placed;
        std::string error;
        QVERIFY2(model::placeCounts(gpu, counts, placed, error), error.c_str());
        QVERIFY2(simcore::validateLayout(gpu, placed).empty(), simcore::layoutText(gpu, placed).c_str());
        QVERIFY(countsOf(gpu, placed) == expected);
        for (size_t k = 1; k < placed.size(); ++k)
            QVERIFY(placed[k - 1].start < placed[k].start);
    }
    // The config can also be asked for by name; another name is not there.
    QCOMPARE(readYaml(text, "migsight-test", problems).size(), read.size());
    QVERIFY(problems.empty());
    QVERIFY(readYaml(text, "other", problems).empty());
    QCOMPARE(problems.size(), size_t(1));
    QVERIFY2(problems.items()[0].location.find("other") != std::string::npos, problems.text().c_str());
}

void TestExports::placementSidecar()
{
    const model::Scenario sc = loadSample("paper-fleet.json");
    const auto gpus = sc.fleetGpus();
    QCOMPARE(gpus.size(), size_t(8));
    std::ostringstream yaml, sidecar;
    model::writeMigParted(yaml, sc, "fleet", &sidecar);
    nlohmann::json side;
    try {
        side = nlohmann::json::parse(sidecar.str());
    } catch (const nlohmann::json::exception& e) {
        QFAIL(e.what());
    }
    QCOMPARE(side.value("format", ""), std::string("migsight-placement"));
    QCOMPARE(side.value("mig_config", ""), std::string("fleet"));
    QVERIFY(side["gpus"].is_array());
    QCOMPARE(side["gpus"].size(), gpus.size());
    for (size_t g = 0; g < gpus.size(); ++g) {
        const auto& entry = side["gpus"][g];
        QCOMPARE(entry.value("index", -1), static_cast<int>(g));
        QCOMPARE(entry.value("board", ""), gpus[g].model->name);
        QVERIFY(entry["layout"].is_array());
        simcore::Layout layout;
        for (const auto& item : entry["layout"]) {
            simcore::Placement p;
            std::string error;
            QVERIFY2(model::parsePlacement(*gpus[g].model, item.get<std::string>(), p, error), error.c_str());
            QVERIFY(p.start >= 0);
            layout.push_back(p);
        }
        QVERIFY2(layout == gpus[g].layout,
                 qPrintable(QString("GPU %1: %2").arg(g).arg(entry["layout"].dump().c_str())));
    }
}

void TestExports::impossibleCounts_data()
{
    QTest::addColumn<QString>("devices");
    QTest::addColumn<QString>("reason");
    QTest::newRow("4g + 3g + 3g: 10 compute slices") << "\"4g.20gb\": 1\n        \"3g.20gb\": 2"
                                                     << "need 10 compute slices; A100-40GB has 7";
    QTest::newRow("3g + 3g + 1g: memory slices") << "\"3g.20gb\": 2\n        \"1g.5gb\": 1"
                                                 << "no valid placement";
    QTest::newRow("unknown profile") << "\"5g.25gb\": 1"
                                     << "unknown profile '5g.25gb'";
    QTest::newRow("eight 1g") << "\"1g.5gb\": 8"
                              << "impossible";
}

void TestExports::impossibleCounts()
{
    QFETCH(QString, devices);
    QFETCH(QString, reason);
    const std::string text = "version: v1\nmig-configs:\n  custom:\n    - devices: all\n      mig-enabled: true\n"
                             "      mig-devices:\n        " +
                             devices.toStdString() + "\n";
    model::Problems problems;
    const auto groups = readYaml(text, "", problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    QCOMPARE(groups.size(), size_t(1));
    simcore::Layout layout;
    std::string error;
    QVERIFY(!model::placeCounts(a100(), groups[0].counts, layout, error));
    QVERIFY2(error.find(reason.toStdString()) != std::string::npos, error.c_str());
}

void TestExports::severalConfigsNeedAName()
{
    model::Problems problems;
    auto groups = readYaml(kSeveralConfigs, "", problems);
    QVERIFY(groups.empty());
    QCOMPARE(problems.size(), size_t(1));
    const auto& p = problems.items()[0];
    QCOMPARE(p.file, std::string("config.yaml"));
    for (const char* name : {"all-disabled", "all-1g.5gb", "balanced"})
        QVERIFY2(p.message.find(name) != std::string::npos, p.message.c_str());

    problems = {};
    groups = readYaml(kSeveralConfigs, "balanced", problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    QCOMPARE(groups.size(), size_t(1));
    QCOMPARE(groups[0].devices, (std::vector<int>{0, 1}));
    QVERIFY(countsOf(groups[0].counts) == (Counts{{"3g.20gb", 1}, {"2g.10gb", 1}, {"1g.5gb", 2}}));
    simcore::Layout layout;
    std::string error;
    QVERIFY2(model::placeCounts(a100(), groups[0].counts, layout, error), error.c_str());
    QVERIFY(simcore::validateLayout(a100(), layout).empty());

    groups = readYaml(kSeveralConfigs, "all-disabled", problems);
    QCOMPARE(groups.size(), size_t(1));
    QVERIFY(!groups[0].migEnabled);
    QVERIFY(groups[0].devices.empty());
}

void TestExports::badYaml()
{
    model::Problems problems;
    auto groups = readYaml("version: v1\nmig-configs: [unclosed\n", "", problems);
    QVERIFY(groups.empty());
    QVERIFY(!problems.empty());
    QVERIFY2(problems.items()[0].location.rfind("line ", 0) == 0, problems.text().c_str());

    problems = {};
    groups = readYaml("version: v2\nmig-configs:\n  c:\n    - devices: gpu0\n      mig-devices: {}\n", "", problems);
    QVERIFY(groups.empty());
    QCOMPARE(problems.size(), size_t(2));
    QVERIFY2(problems.text().find("version: v1") != std::string::npos, problems.text().c_str());
    QVERIFY2(problems.text().find("mig-configs.c[0].devices") != std::string::npos, problems.text().c_str());
}

void TestExports::nonScalarConfigNameIsAProblem()
{
    // Found by fuzz_migparted (docs/fuzzing.md): a config name that is a list threw out of the reader.
    for (const char* text : {"version: v1\nmig-configs:\n  ? [a, b]\n  : []\n",
                             "version: v1\nmig-configs:\n  ? [a, b]\n  : []\n  c: []\n"}) {
        model::Problems problems;
        const auto groups = readYaml(text, "", problems);
        QVERIFY(groups.empty());
        QCOMPARE(problems.size(), size_t(1));
        QCOMPARE(problems.items()[0].file, std::string("config.yaml"));
        QVERIFY2(problems.text().find("mig-configs, line 3") != std::string::npos, problems.text().c_str());
    }
}

void TestExports::perfettoTraceEvents()
{
    std::ostringstream out;
    model::writePerfetto(out, m_quickstart, m_run);
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(out.str());
    } catch (const nlohmann::json::exception& e) {
        QFAIL(e.what());
    }
    QVERIFY(doc["traceEvents"].is_array());
    size_t slices = 0, power = 0, queue = 0;
    std::set<long long> processNamed;
    std::set<std::pair<long long, long long>> threadNamed, threadsUsed;
    for (const auto& e : doc["traceEvents"]) {
        const QString where = QString::fromStdString(e.dump());
        QVERIFY2(e.is_object() && e.contains("ph") && e["ph"].is_string(), qPrintable(where));
        QVERIFY2(e.contains("pid") && e["pid"].is_number_integer(), qPrintable(where));
        QVERIFY2(e.contains("tid") && e["tid"].is_number_integer(), qPrintable(where));
        QVERIFY2(e.contains("name") && e["name"].is_string(), qPrintable(where));
        const std::string ph = e["ph"];
        const auto pid = e["pid"].get<long long>();
        const auto tid = e["tid"].get<long long>();
        if (ph == "X") {
            QVERIFY2(e["ts"].is_number() && e["ts"].get<double>() >= 0.0, qPrintable(where));
            QVERIFY2(e["dur"].is_number() && e["dur"].get<double>() >= 0.0, qPrintable(where));
            QVERIFY(slices < m_run.segments.size());
            const auto& seg = m_run.segments[slices];
            QCOMPARE(pid, static_cast<long long>(seg.gpu));
            QCOMPARE(e["name"].get<std::string>(),
                     "job " + std::to_string(m_run.jobs[static_cast<size_t>(seg.job)].id));
            QCOMPARE(e["ts"].get<double>(), seg.t0 * 60e6);
            threadsUsed.insert({pid, tid});
            ++slices;
        } else if (ph == "C") {
            QVERIFY2(e["ts"].is_number(), qPrintable(where));
            QVERIFY2(e["args"].is_object() && !e["args"].empty(), qPrintable(where));
            for (const auto& [k, v] : e["args"].items())
                QVERIFY2(v.is_number(), qPrintable(where));
            (e["name"] == "power" ? power : queue)++;
        } else if (ph == "M") {
            const std::string name = e["name"];
            QVERIFY2(name == "process_name" || name == "thread_name", qPrintable(where));
            QVERIFY2(e["args"]["name"].is_string() && !e["args"]["name"].get<std::string>().empty(), qPrintable(where));
            if (name == "process_name")
                processNamed.insert(pid);
            else
                threadNamed.insert({pid, tid});
        } else {
            QFAIL(qPrintable("unexpected phase: " + where));
        }
    }
    QCOMPARE(slices, m_run.segments.size());
    size_t steps = 0;
    for (const auto& g : m_run.gpuPower)
        steps += g.size();
    QCOMPARE(power, steps);
    QCOMPARE(queue, m_run.series.time.size());
    // Every GPU and the fleet are named processes; every track holding a slice is a named thread.
    QCOMPARE(processNamed, (std::set<long long>{0, 1, 2}));
    QVERIFY(threadNamed == threadsUsed);
}

void TestExports::seriesCsvOneRowPerStep()
{
    std::ostringstream out;
    model::writeSeriesCsv(out, m_run);
    std::istringstream in(out.str());
    std::string line;
    QVERIFY(std::getline(in, line));
    QCOMPARE(line, std::string("time_min,queued,running,power_w,energy_wmin,tardiness_sum_min"));
    const auto& s = m_run.series;
    size_t rows = 0;
    while (std::getline(in, line)) {
        QStringList cells = QString::fromStdString(line).split(',');
        QCOMPARE(cells.size(), 6);
        QVERIFY(rows < s.time.size());
        bool ok = false;
        QCOMPARE(cells[0].toDouble(&ok), s.time[rows]);
        QVERIFY(ok);
        QCOMPARE(cells[1].toInt(), s.queued[rows]);
        QCOMPARE(cells[2].toInt(), s.running[rows]);
        QCOMPARE(cells[3].toDouble(), s.powerW[rows]);
        QCOMPARE(cells[4].toDouble(), s.energyWmin[rows]);
        ++rows;
    }
    QCOMPARE(rows, s.time.size());
    QCOMPARE(static_cast<long long>(rows), m_run.metrics.steps);
}

QTEST_GUILESS_MAIN(TestExports)
#include "tst_exports.moc"

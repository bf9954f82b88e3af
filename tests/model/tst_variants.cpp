// SPDX-License-Identifier: GPL-3.0-or-later
// Variants of a scenario (docs/planning.md, "Variants: comparing fleets and layouts"): every
// problem of a variants file named by its JSON path, the inline form and its problems, overrides
// applied with the rest inherited from the base, a variant's fleet giving exactly what simulate()
// gives for a scenario with that fleet, identical results on any number of threads, and a verdict
// across variants against a baseline that names one.
#include "compare.h"
#include "scenario.h"
#include "simulation.h"
#include "variants.h"
#include "verdict.h"

#include <QTest>

#include <cstring>
#include <fstream>
#include <sstream>

namespace {

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

const std::string kPaperFleet = MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json";
const std::string kPaperLayouts = R"([1, 1, 2, 3, 3, 5, 5, 10])";

/// The paper fleet's scenario text with a shorter day (quick) and, optionally, another fleet.
std::string paperText(const std::string& fleet = {})
{
    std::string text = readFile(kPaperFleet);
    const auto hours = text.find("\"hours\": 24");
    text.replace(hours, std::strlen("\"hours\": 24"), "\"hours\": 6");
    if (!fleet.empty()) {
        const auto from = text.find("\"fleet\": [");
        const auto to = text.find(']', text.find(kPaperLayouts, from) + kPaperLayouts.size()) + 1;
        text.replace(from, to - from, "\"fleet\": " + fleet);
    }
    return text;
}

model::Scenario parse(const std::string& text)
{
    model::Problems problems;
    auto s = model::parseScenario(text, "base.json", problems);
    if (!problems.empty())
        qFatal("%s", problems.text().c_str());
    return s;
}

std::string variantsFile(const std::string& variants)
{
    // (No raw string here: moc mis-reads one with an unbalanced brace, see twelveVariant().)
    std::string text = "{\"format\": \"migsight-variants\", \"version\": 1, \"variants\": [";
    text += variants;
    text += "]}";
    return text;
}

std::vector<model::Variant> parseOk(const std::string& variants, const model::Scenario& base)
{
    model::Problems problems;
    auto out = model::parseVariants(variantsFile(variants), "v.json", base, problems);
    if (!problems.empty())
        qFatal("%s", problems.text().c_str());
    return out;
}

bool hasProblem(const model::Problems& problems, const std::string& location, const std::string& words)
{
    for (const auto& p : problems.items()) {
        if (p.location == location && p.message.find(words) != std::string::npos)
            return true;
    }
    return false;
}

const std::string kTwelve = R"([{"gpu": "A100-40GB", "count": 12, "config_list": "fleet-12", "layout": 2}])";

/// A variant named @p name with the 12-GPU fleet. (Built without raw strings with an unbalanced
/// brace: moc mis-reads those and then misses the test class.)
std::string twelveVariant(const std::string& name)
{
    std::string text = "{\"name\": \"";
    text += name;
    text += "\", \"fleet\": ";
    text += kTwelve;
    text += "}";
    return text;
}

} // namespace

class TestVariants : public QObject
{
    Q_OBJECT

private slots:
    void everyProblemNamedByPath()
    {
        const auto base = parse(paperText());
        model::Problems problems;
        (void)model::parseVariants(
            variantsFile(R"({"name": "A", "fleet": [{"gpu": "A100-40GB", "count": 0, "layout": 1}]},
                            {"name": "A", "preemption": "sometimes", "colour": "red"},
                            {"name": "x:y", "multiplier": -1, "seed": -3},
                            {"name": "", "energy_weight": "heavy"},
                            {"fleet": [{"gpu": "Z100", "count": 1, "layout": 1}]})"),
            "v.json", base, problems);
        for (const auto& p : problems.items())
            QCOMPARE(p.file, std::string("v.json"));
        QVERIFY(hasProblem(problems, "$.variants[0].fleet[0].count", ""));
        QVERIFY(hasProblem(problems, "$.variants[0].fleet[0].layout", "config_list"));
        QVERIFY(hasProblem(problems, "$.variants[1].name", "earlier variant"));
        QVERIFY(hasProblem(problems, "$.variants[1].preemption", "valid: full-reschedule"));
        QVERIFY(hasProblem(problems, "$.variants[1].colour", ""));
        QVERIFY(hasProblem(problems, "$.variants[2].name", "':'"));
        QVERIFY(hasProblem(problems, "$.variants[2].multiplier", ""));
        QVERIFY(hasProblem(problems, "$.variants[2].seed", "whole number"));
        QVERIFY(hasProblem(problems, "$.variants[3].name", "1..64"));
        QVERIFY(hasProblem(problems, "$.variants[3].energy_weight", ""));
        QVERIFY(hasProblem(problems, "$.variants[4].name", ""));
        QVERIFY(hasProblem(problems, "$.variants[4].fleet[0].gpu", "unknown GPU 'Z100'"));
    }

    void boundsOnTheFile()
    {
        const auto base = parse(paperText());
        std::string many;
        for (int i = 0; i <= 32; ++i) {
            many += i ? ", {\"name\": \"v" : "{\"name\": \"v";
            many += std::to_string(i);
            many += "\"}";
        }
        model::Problems problems;
        (void)model::parseVariants(variantsFile(many), "v.json", base, problems);
        QVERIFY(hasProblem(problems, "$.variants", "1..32 variants, has 33"));
        model::Problems wrong;
        (void)model::parseVariants(R"({"format": "migsight-scenario", "variants": []})", "v.json", base, wrong);
        QVERIFY(hasProblem(wrong, "$.format", "migsight-variants"));
        model::Problems newer;
        (void)model::parseVariants(R"({"format": "migsight-variants", "version": 2, "variants": []})", "v.json", base,
                                   newer);
        QVERIFY(hasProblem(newer, "$.version", "newer MIGsight"));
        model::Problems syntax;
        (void)model::parseVariants("{\"variants\": [", "v.json", base, syntax);
        QVERIFY(!syntax.empty());
        QVERIFY(syntax.items().front().text().find("v.json") != std::string::npos);
    }

    void overridesAppliedRestInherited()
    {
        const auto base = parse(paperText());
        const auto vs = parseOk(R"({"name": "load", "multiplier": 1.5, "seed": 9, "preemption": "none",
                                     "energy_weight": 1e-6}, )" +
                                    twelveVariant("fleet"),
                                base);
        QCOMPARE(vs.size(), size_t(2));
        const auto load = model::applyVariant(base, vs[0]);
        QCOMPARE(load.workload.diurnal.multiplier, 30.0); // 1.5 x the base's 20, as sweep --loads scales it
        QCOMPARE(load.workload.diurnal.seed, std::uint64_t(9));
        QCOMPARE(load.workload.diurnal.hours, base.workload.diurnal.hours);
        QVERIFY(load.preemption == simcore::PreemptionMode::None);
        QCOMPARE(load.energyWeight, 1e-6);
        QCOMPARE(load.gpuCount(), 8);
        QVERIFY(load.fleet.front().layouts == base.fleet.front().layouts);
        QCOMPARE(load.reconfigurationS, base.reconfigurationS);
        QCOMPARE(load.scheduler.id, base.scheduler.id);

        const auto fleet = model::applyVariant(base, vs[1]);
        QCOMPARE(fleet.gpuCount(), 12);
        QCOMPARE(fleet.workload.diurnal.multiplier, 20.0);
        QCOMPARE(fleet.workload.diurnal.seed, base.workload.diurnal.seed);
        QVERIFY(fleet.preemption == base.preemption);
        QCOMPARE(fleet.energyWeight, base.energyWeight);

        // An edit of the base reaches a variant that does not override that part.
        auto edited = base;
        edited.energyWeight = 5e-7;
        QCOMPARE(model::applyVariant(edited, vs[1]).energyWeight, 5e-7);
    }

    void boardKeepsTheBasePowerCurve()
    {
        std::string text = paperText();
        text.insert(text.rfind('}'), R"(, "power_w": {"A100-40GB": [30, 100, 150, 200, 240, 245, 248, 250]})");
        const auto base = parse(text);
        const auto vs = parseOk(twelveVariant("fleet"), base);
        const auto v = model::applyVariant(base, vs[0]);
        QCOMPARE(v.fleet.front().model->powerW.front(), 30.0);
    }

    void inlineForm()
    {
        const auto base = parse(paperText());
        model::Problems problems;
        const auto v = model::parseInlineVariant("B:layouts=1,2;gpus=5;multiplier=0.5;seed=4;preemption=on-repartition;"
                                                 "energy_weight=0",
                                                 base, problems);
        QVERIFY2(problems.empty(), problems.text().c_str());
        QCOMPARE(v.name, std::string("B"));
        QVERIFY(v.fleet.has_value());
        const auto& group = v.fleet->front();
        QCOMPARE(group.count, 5);
        const auto* list = group.model->findList("fleet-12");
        QVERIFY(list != nullptr);
        const std::vector<simcore::Layout> expected{list->layouts[0], list->layouts[1], list->layouts[0],
                                                    list->layouts[1], list->layouts[0]};
        QVERIFY(group.layouts == expected);
        QCOMPARE(*v.multiplier, 0.5);
        QCOMPARE(*v.seed, std::uint64_t(4));
        QVERIFY(*v.preemption == simcore::PreemptionMode::OnRepartition);
        QCOMPARE(*v.energyWeight, 0.0);

        // gpus= alone repeats the base's layouts.
        const auto big = model::parseInlineVariant("big:gpus=12", base, problems);
        QVERIFY(problems.empty());
        QCOMPARE(big.fleet->front().count, 12);
        QVERIFY(big.fleet->front().layouts[8] == base.fleet.front().layouts[0]);
        QVERIFY(big.fleet->front().layouts[11] == base.fleet.front().layouts[3]);
    }

    void inlineProblems()
    {
        const auto base = parse(paperText());
        model::Problems problems;
        (void)model::parseInlineVariant("C:layouts=1,13;gpus=0;multiplier=x;colour=red;seed=-1;oops", base, problems);
        QVERIFY(hasProblem(problems, "layouts", "configuration 13 does not exist"));
        QVERIFY(hasProblem(problems, "gpus", "'0'"));
        QVERIFY(hasProblem(problems, "multiplier", "'x'"));
        QVERIFY(hasProblem(problems, "colour", "unknown key"));
        QVERIFY(hasProblem(problems, "seed", "'-1'"));
        QVERIFY(hasProblem(problems, "oops", "key=value"));
        QCOMPARE(problems.items().front().file, std::string("--variant C"));
        model::Problems unnamed;
        (void)model::parseInlineVariant(":gpus=3", base, unnamed);
        QVERIFY(hasProblem(unnamed, "", "1..64"));
        // layouts= and gpus= change a single fleet group only.
        const std::string two = R"([{"gpu": "A100-40GB", "count": 1, "layout": ["7g.40gb@0"]},
                                    {"gpu": "A100-40GB", "count": 1, "layout": ["7g.40gb@0"]}])";
        model::Problems multi;
        (void)model::parseInlineVariant("D:gpus=4", parse(paperText(two)), multi);
        QVERIFY(hasProblem(multi, "gpus", "one fleet group"));
    }

    void fleetVariantIsSimulateOfThatFleet()
    {
        const auto base = parse(paperText());
        const auto vs = parseOk(twelveVariant("twelve"), base);
        const std::vector<model::RunPair> pairs{{{"cedf", {}}, {"static", {}}}};
        model::Problems problems;
        const auto result = model::compareVariants(
            {{"base", base, {3}}, {"twelve", model::applyVariant(base, vs[0]), {3}}}, pairs, std::nullopt, problems, 2);
        QVERIFY(problems.empty());
        QCOMPARE(result.label(1), std::string("twelve: cedf/static"));
        const auto own = parse(paperText(kTwelve));
        model::RunOptions options;
        options.seed = 3;
        options.scheduler = pairs[0].scheduler;
        options.repartitioner = pairs[0].repartitioner;
        options.timeSeries = false;
        const auto direct = model::simulate(own, model::scenarioJobs(own, 3, problems), options);
        const auto& run = result.runs.at(1);
        QCOMPARE(run.variant, size_t(1));
        // Bit-identical, not merely close (QCOMPARE on doubles is fuzzy).
        QVERIFY(std::memcmp(&run.metrics.energyWmin, &direct.metrics.energyWmin, sizeof(double)) == 0);
        QVERIFY(std::memcmp(&run.metrics.avgTardinessMin, &direct.metrics.avgTardinessMin, sizeof(double)) == 0);
        QVERIFY(std::memcmp(&run.metrics.et, &direct.metrics.et, sizeof(double)) == 0);
        QVERIFY(run.metrics.energyWmin != result.runs.at(0).metrics.energyWmin);
        // Each variant has its own bounds: 12 GPUs idle more than 8.
        QVERIFY(result.bounds.at(1).energy.energyWmin > result.bounds.at(0).energy.energyWmin);
    }

    void sameResultsOnAnyThreadCount()
    {
        const auto base = parse(paperText());
        model::Problems problems;
        const auto v = model::parseInlineVariant("half:multiplier=0.5;layouts=1,1,1,2,2,2,6,7", base, problems);
        const std::vector<model::RunPair> pairs{{{"cedf", {}}, {"static", {}}},
                                                {{"edf-most-packed", {}}, {"static", {}}}};
        const std::vector<model::CompareSubject> subjects{{"base", base, {1, 2}},
                                                          {"half", model::applyVariant(base, v), {1, 2}}};
        const auto one = model::compareVariants(subjects, pairs, std::nullopt, problems, 1);
        const auto three = model::compareVariants(subjects, pairs, std::nullopt, problems, 3);
        QCOMPARE(one.runs.size(), size_t(8));
        for (size_t i = 0; i < one.runs.size(); ++i) {
            QVERIFY(std::memcmp(&one.runs[i].metrics.et, &three.runs[i].metrics.et, sizeof(double)) == 0);
            QVERIFY(std::memcmp(&one.runs[i].metrics.energyWmin, &three.runs[i].metrics.energyWmin, sizeof(double)) ==
                    0);
        }
    }

    void verdictAcrossVariants()
    {
        const auto base = parse(paperText());
        model::Problems problems;
        const auto heavy = model::parseInlineVariant("heavy:multiplier=2", base, problems);
        const std::vector<model::RunPair> pairs{{{"cedf", {}}, {"static", {}}}};
        const auto result =
            model::compareVariants({{"base", base, {1, 2, 3}}, {"heavy", model::applyVariant(base, heavy), {1, 2, 3}}},
                                   pairs, std::nullopt, problems, 2);
        const auto input = model::verdictInput(result);
        QCOMPARE(input.labels, (std::vector<std::string>{"base: cedf/static", "heavy: cedf/static"}));
        const auto baseline = model::findBaseline(input.labels, "heavy: cedf/static");
        QCOMPARE(baseline, size_t(1));
        const auto verdict = model::makeVerdict(input, model::parseObjective("et"), baseline);
        // Half the load on the same fleet: less tardy, so ET is lower than the heavy baseline's.
        QCOMPARE(verdict.ranked.front().run, size_t(0));
        QVERIFY(verdict.of(0).diff.mean < 0.0);
        QVERIFY(verdict.sentence.find("base: cedf/static") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::findBaseline(input.labels, "cedf/static"));
    }
};

QTEST_GUILESS_MAIN(TestVariants)
#include "tst_variants.moc"

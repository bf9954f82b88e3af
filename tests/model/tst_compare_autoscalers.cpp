// SPDX-License-Identifier: GPL-3.0-or-later
// An autoscaler per run in `migsight-cli compare` (docs/services.md, "Runs, Compare, sessions and
// reports"): "cedf/static/wva,cedf/static/hpa" gives the figures `simulate --autoscaler` and
// `services --autoscaler` give for the same runs, labels that name the autoscaler, a session that
// keeps it, and clear refusals.
#include "../cli_test_support.h"
#include "compare.h"
#include "report_data.h"
#include "run_autoscaler.h"
#include "scenario.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const char* kSample = "samples/inference-services.json";

QJsonArray jsonArray(const QByteArray& text)
{
    return QJsonDocument::fromJson(text).array();
}

QJsonObject jsonObject(const QByteArray& text)
{
    return QJsonDocument::fromJson(text).object();
}

} // namespace

class TestCompareAutoscalers : public QObject
{
    Q_OBJECT

private slots:
    void parsesTheThirdPart()
    {
        const auto pairs = model::parseRunPairs("cedf/static/wva,cedf/smart-mig:top_k=2/hpa:tolerance=0.2,cedf/none");
        QCOMPARE(pairs.size(), size_t(3));
        QCOMPARE(pairs[0].autoscaler->id, std::string("wva"));
        QCOMPARE(pairs[0].label(), std::string("cedf/static/wva"));
        QCOMPARE(pairs[1].repartitioner.id, std::string("smart-mig"));
        QCOMPARE(pairs[1].autoscaler->id, std::string("hpa"));
        QCOMPARE(std::get<double>(pairs[1].autoscaler->params.at("tolerance")), 0.2);
        QCOMPARE(pairs[1].label(), std::string("cedf/smart-mig:top_k=2/hpa:tolerance=0.2"));
        QVERIFY(!pairs[2].autoscaler);
        QCOMPARE(pairs[2].label(), std::string("cedf/none"));
        // A '/' in a repartitioner's parameter value (a weights file) is not an autoscaler.
        QString weights;
        try {
            (void)model::parseRunPairs("cedf/smart-mig:weights=/no/such/w.json");
        } catch (const std::exception& e) {
            weights = QString::fromUtf8(e.what());
        }
        QVERIFY2(!weights.contains(QLatin1String("autoscaler")), qPrintable(weights));
        for (const char* bad : {"cedf/static/keda", "cedf/static/hpa:bogus=1", "cedf/static/hpa:tolerance=9",
                                "cedf/static/wva:headroom=high"}) {
            bool refused = false;
            try {
                (void)model::parseRunPairs(bad);
            } catch (const policies::PolicyError& e) {
                const QString item = QString::fromUtf8(bad);
                refused = QString::fromUtf8(e.what()).contains(item.mid(item.lastIndexOf(QLatin1Char('/')) + 1));
            }
            QVERIFY2(refused, bad);
        }
    }

    void effectiveParameters()
    {
        model::ServicesConfig services;
        services.autoscaler = "wva";
        services.autoscalerParams["headroom"] = 0.6;
        // The scenario's own; its id again keeps its parameters; another id has its defaults; the
        // run's parameters go over them (as simulate --autoscaler and services --param).
        QCOMPARE(model::runAutoscaler(services, std::nullopt), (model::RunAutoscaler{"wva", {{"headroom", 0.6}}}));
        QCOMPARE(model::runAutoscaler(services, model::PolicyChoice{"wva", {}}),
                 (model::RunAutoscaler{"wva", {{"headroom", 0.6}}}));
        QCOMPARE(model::runAutoscaler(services, model::PolicyChoice{"hpa", {}}), (model::RunAutoscaler{"hpa", {}}));
        QCOMPARE(model::runAutoscaler(services, model::PolicyChoice{"wva", {{"max_step", 2.0}}}),
                 (model::RunAutoscaler{"wva", {{"headroom", 0.6}, {"max_step", 2.0}}}));
    }

    /// The figures of each row are those of `simulate --autoscaler` for the same policies and of
    /// `services --autoscaler` for the scenario's own pair.
    void sameFiguresAsSimulateAndServices()
    {
        const auto o = clitest::cli({"compare", kSample, "--runs", "cedf/static/wva,cedf/static/hpa", "--json"});
        QCOMPARE(o.exitCode, 0);
        const QJsonArray runs = jsonArray(o.out);
        QCOMPARE(runs.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const QString id = i == 0 ? QStringLiteral("wva") : QStringLiteral("hpa");
            const QJsonObject run = runs[i].toObject();
            QCOMPARE(run.value("label").toString(), QStringLiteral("cedf/static/") + id);
            QCOMPARE(run.value("autoscaler").toObject().value("id").toString(), id);
            const auto sim = clitest::cli({"simulate", kSample, "--scheduler", "cedf", "--repartitioner", "static",
                                           "--autoscaler", id, "--json"});
            QCOMPARE(sim.exitCode, 0);
            const QJsonObject simulated = jsonObject(sim.out);
            QCOMPARE(run.value("services").toObject(), simulated.value("services").toObject());
            for (const char* key : {"energy_wmin", "avg_tardiness_min", "et", "utilisation", "reconfigurations"})
                QCOMPARE(run.value(key).toDouble(), simulated.value(key).toDouble());
        }
        const QJsonObject wva = runs[0].toObject().value("services").toObject().value("overall").toObject();
        const QJsonObject hpa = runs[1].toObject().value("services").toObject().value("overall").toObject();
        QVERIFY(wva.value("failed").toInteger() != hpa.value("failed").toInteger());

        // The scenario's own pair under its WVA and under HPA: `services` gives the same overall figures.
        const auto own = clitest::cli(
            {"compare", kSample, "--runs", "edf-most-packed/static/wva,edf-most-packed/static/hpa", "--json"});
        const auto services =
            clitest::cli({"services", kSample, "--autoscaler", "wva", "--autoscaler", "hpa", "--json"});
        QCOMPARE(own.exitCode, 0);
        QCOMPARE(services.exitCode, 0);
        const QJsonArray byServices = jsonObject(services.out).value("runs").toArray();
        for (int i = 0; i < 2; ++i)
            QCOMPARE(jsonArray(own.out)[i].toObject().value("services").toObject().value("overall").toObject(),
                     byServices[i].toObject().value("overall").toObject());
    }

    /// A pair without a third part runs under the scenario's autoscaler beside one that names
    /// another; the text table names both.
    void mixedRowsAndText()
    {
        const auto o = clitest::cli({"compare", kSample, "--runs", "cedf/static,cedf/static/hpa"});
        QCOMPARE(o.exitCode, 0);
        QVERIFY2(o.out.contains("cedf/static/hpa"), o.out.constData());
        QVERIFY2(o.out.contains("Inference services, overall"), o.out.constData());
        const auto j = clitest::cli(
            {"compare", kSample, "--runs", "cedf/static,cedf/static/hpa", "--json", "--baseline", "cedf/static/hpa"});
        QCOMPARE(j.exitCode, 0);
        const QJsonArray runs = jsonArray(j.out);
        QCOMPARE(runs[0].toObject().value("services").toObject().value("autoscaler").toString(), QStringLiteral("wva"));
        QVERIFY(!runs[0].toObject().contains("autoscaler"));
        QVERIFY(runs[1].toObject().value("is_baseline").toBool());
        // Without any third part compare runs the batch day alone, as before.
        const auto batch = clitest::cli({"compare", kSample, "--runs", "cedf/static", "--json"});
        QCOMPARE(batch.exitCode, 0);
        QVERIFY(!jsonArray(batch.out)[0].toObject().contains("services"));
    }

    void refusals()
    {
        const auto none = clitest::cli({"compare", "samples/quickstart.json", "--runs", "cedf/static/hpa"});
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains("cedf/static/hpa") && none.err.contains("has no services section"),
                 none.err.constData());
        const auto unknown = clitest::cli({"compare", kSample, "--runs", "cedf/static/keda"});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("unknown autoscaler 'keda'") && unknown.err.contains("wva, hpa, static-replicas"),
                 unknown.err.constData());
        const auto param = clitest::cli({"compare", kSample, "--runs", "cedf/static/hpa:bogus=1"});
        QCOMPARE(param.exitCode, 2);
        QVERIFY2(param.err.contains("bogus"), param.err.constData());
    }

    /// --db keeps each run's autoscaler; `sessions` and a report of the session name it.
    void storedInTheSession()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("two.sqlite"));
        const auto o = clitest::cli({"compare", kSample, "--runs", "cedf/static/wva,cedf/static/hpa", "--db", db});
        QCOMPARE(o.exitCode, 0);
        const auto listed = clitest::cli({"sessions", db});
        QCOMPARE(listed.exitCode, 0);
        QVERIFY2(listed.out.contains("cedf/static/wva") && listed.out.contains("cedf/static/hpa"),
                 listed.out.constData());
        model::Problems problems;
        const model::ReportData data = model::reportFromSession(db.toStdString(), std::nullopt, problems);
        QVERIFY(problems.empty());
        QCOMPARE(data.runs.size(), size_t(2));
        QCOMPARE(data.runs[0].label(), std::string("cedf/static/wva"));
        QCOMPARE(data.runs[1].label(), std::string("cedf/static/hpa"));
        QCOMPARE(data.runs[1].services->autoscaler, std::string("hpa")); // the stored figures
    }
};

QTEST_GUILESS_MAIN(TestCompareAutoscalers)
#include "tst_compare_autoscalers.moc"

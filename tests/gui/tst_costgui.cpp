// SPDX-License-Identifier: GPL-3.0-or-later
// Cost and carbon in the studio (docs/planning.md, Cost and carbon): the settings dialog's fields
// and checks, an accepted dialog editing the scenario, and the cost shown on the Overview, Runs
// and Compare pages.
#include "comparepage.h"
#include "costdialog.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "metricsmodel.h"
#include "overviewpage.h"
#include "runsmodel.h"
#include "runspage.h"
#include "scenariosettings.h"
#include "workspace.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QTest>

namespace {

using guitest::kRunTimeoutMs;
using guitest::sample;

template <typename T>
T* child(QWidget* parent, const char* name)
{
    auto* w = parent->findChild<T*>(QLatin1String(name));
    if (w == nullptr)
        qFatal("no child %s", name);
    return w;
}

double metric(const ui::MetricsModel* model, const char* name)
{
    const int row = model->rowOf(QLatin1String(name));
    return row < 0 ? -1.0
                   : model->index(row, ui::MetricsModel::ValueColumn).data(ui::MetricsModel::ValueRole).toDouble();
}

bool runsDone(const ui::Workspace& workspace)
{
    for (const ui::RunSpec& spec : workspace.runs())
        if (spec.running() || !spec.latest)
            return false;
    return !workspace.runs().empty();
}

} // namespace

class TestCostGui : public QObject
{
    Q_OBJECT

private slots:
    void dialogFieldsAndChecks();
    void curveTextRoundTrip();
    void overviewShowsAndEditsCost();
    void runsAndCompareShowCost();
};

void TestCostGui::dialogFieldsAndChecks()
{
    model::CostSettings s;
    s.currency = "EUR";
    s.pricePerKwh.assign(24, 0.2);
    s.pricePerKwh[3] = 0.05;
    s.carbonGPerKwh = {350.0};
    s.gpuHourCost = 1.25;
    ui::CostDialog dialog(s);
    auto* enabled = child<QCheckBox>(&dialog, "costEnabled");
    auto* price = child<QPlainTextEdit>(&dialog, "pricePerKwh");
    auto* carbon = child<QPlainTextEdit>(&dialog, "carbonGPerKwh");
    auto* gpuHour = child<QDoubleSpinBox>(&dialog, "gpuHourCost");
    auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QVERIFY(enabled->isChecked());
    QCOMPARE(child<QLineEdit>(&dialog, "currency")->text(), QStringLiteral("EUR"));
    QCOMPARE(carbon->toPlainText(), QStringLiteral("350"));
    QCOMPARE(gpuHour->value(), 1.25);
    QCOMPARE(*dialog.settings(), s); // unchanged fields give the same settings back
    QVERIFY(ok->isEnabled());

    price->setPlainText(QStringLiteral("0.1, 0.2, 0.3"));
    QVERIFY(!ok->isEnabled());
    QVERIFY(dialog.problems().join(QLatin1Char(' ')).contains(QStringLiteral("3 values")));
    QVERIFY(child<QLabel>(&dialog, "costProblems")->isVisibleTo(&dialog));
    price->setPlainText(QStringLiteral("cheap"));
    QVERIFY(dialog.problems().join(QLatin1Char(' ')).contains(QStringLiteral("not a number")));
    price->setPlainText(QStringLiteral("-1"));
    QVERIFY(dialog.problems().join(QLatin1Char(' ')).contains(QStringLiteral("between 0 and")));
    carbon->setPlainText(QStringLiteral("99999"));
    QCOMPARE(dialog.problems().size(), 2);
    price->setPlainText(QStringLiteral("0.3"));
    carbon->setPlainText(QStringLiteral("120"));
    QVERIFY(ok->isEnabled());
    QCOMPARE(dialog.settings()->pricePerKwh, std::vector<double>{0.3});

    enabled->setChecked(false); // off: no settings, and OK whatever the fields hold
    price->setPlainText(QStringLiteral("nonsense"));
    QVERIFY(!price->isEnabled());
    QVERIFY(!dialog.settings().has_value());
    QVERIFY(ok->isEnabled());
}

void TestCostGui::curveTextRoundTrip()
{
    std::vector<double> curve;
    for (int h = 0; h < 24; ++h)
        curve.push_back(0.05 + 0.01 * h);
    QCOMPARE(ui::parseCurveText(ui::curveText(curve)), curve);
    QCOMPARE(ui::parseCurveText(QStringLiteral(" 0.1; 0.2  0.3 ")), (std::vector<double>{0.1, 0.2, 0.3}));
    QVERIFY(ui::parseCurveText(QStringLiteral("0.1, x")).empty());
}

void TestCostGui::overviewShowsAndEditsCost()
{
    ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(window.openScenario(sample("paper-fleet-cost.json")));
    ui::Workspace* workspace = window.workspace();
    ui::OverviewPage* page = window.overviewPage();
    QTRY_VERIFY_WITH_TIMEOUT(workspace->lastRun().has_value() && !workspace->isRunning(), kRunTimeoutMs);
    const ui::MetricsModel* metrics = page->metricsModel();
    const auto expected = model::runCost(*workspace->scenario()->cost, 8, *workspace->lastRun()->result);
    QCOMPARE(metric(metrics, "Total cost"), expected.total);
    QCOMPARE(metric(metrics, "Carbon"), expected.carbonKg);
    QCOMPARE(metrics->rowOf(QStringLiteral("Total cost")), metrics->rowOf(QStringLiteral("Energy")) + 3);
    QCOMPARE(page->settingsView()->valueOf(QStringLiteral("Energy price")),
             QStringLiteral("0.08–0.24 USD/kWh by hour"));
    QCOMPARE(page->settingsView()->valueOf(QStringLiteral("GPU cost")), QStringLiteral("0.45 USD/GPU-hour"));

    // The dialog, as the "Cost and carbon…" button opens it: a dearer GPU-hour re-runs the day.
    ui::CostDialog* dialog = page->editCostDialog();
    QVERIFY(dialog);
    child<QDoubleSpinBox>(dialog, "gpuHourCost")->setValue(0.9);
    dialog->accept();
    QCOMPARE(workspace->scenario()->cost->gpuHourCost, 0.9);
    QVERIFY(workspace->isModified());
    QCOMPARE(page->settingsView()->valueOf(QStringLiteral("GPU cost")), QStringLiteral("0.9 USD/GPU-hour"));
    QTRY_VERIFY_WITH_TIMEOUT(metric(metrics, "GPU cost") > 1.9 * expected.gpuCost, kRunTimeoutMs);

    // Switched off: the rows go, the settings say so.
    dialog = page->editCostDialog();
    child<QCheckBox>(dialog, "costEnabled")->setChecked(false);
    dialog->accept();
    QVERIFY(!workspace->scenario()->cost.has_value());
    QCOMPARE(page->settingsView()->valueOf(QStringLiteral("Cost")), QStringLiteral("not counted"));
    QTRY_VERIFY_WITH_TIMEOUT(metrics->rowOf(QStringLiteral("Total cost")) < 0 && metric(metrics, "Energy") > 0,
                             kRunTimeoutMs);
}

void TestCostGui::runsAndCompareShowCost()
{
    ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(window.openScenario(sample("paper-fleet-cost.json")));
    ui::Workspace* workspace = window.workspace();
    const int a = workspace->addRun({"edf-most-packed", {}}, {"static", {}});
    const int b = workspace->addRun({"cedf", {}}, {"static", {}});
    QTRY_VERIFY_WITH_TIMEOUT(runsDone(*workspace), kRunTimeoutMs);

    QTableView* table = window.runsPage()->table();
    QVERIFY(!table->isColumnHidden(ui::RunsModel::CostColumn));
    const QAbstractItemModel* model = table->model();
    QCOMPARE(model->headerData(ui::RunsModel::CostColumn, Qt::Horizontal).toString(),
             QStringLiteral("Cost/day\n(USD)"));
    for (int row = 0; row < 2; ++row) {
        const ui::RunSpec& spec = workspace->runs()[static_cast<size_t>(row)];
        const auto cost = model::scenarioRunCost(*spec.latest->scenario, *spec.latest->result);
        QCOMPARE(model->index(row, ui::RunsModel::CostColumn).data(ui::RunsModel::SortRole).toDouble(),
                 cost->totalPerDay);
        QCOMPARE(model->index(row, ui::RunsModel::CarbonColumn).data(ui::RunsModel::SortRole).toDouble(),
                 cost->carbonKgPerDay);
        QVERIFY(!model->index(row, ui::RunsModel::CostColumn).data().toString().isEmpty());
    }

    window.comparePage()->setRuns({a, b});
    const auto headersWithCost = [&window] {
        int n = 0;
        for (const QLabel* label : window.comparePage()->findChildren<QLabel*>())
            n += label->text().contains(QStringLiteral("USD ")) && label->text().contains(QStringLiteral("kg CO2"));
        return n;
    };
    QTRY_COMPARE_WITH_TIMEOUT(headersWithCost(), 2, 20000);

    // Without prices the Runs page hides the cost columns.
    model::Scenario plain = *workspace->scenario();
    plain.cost.reset();
    workspace->editScenario(plain, QStringLiteral("no cost"));
    QVERIFY(table->isColumnHidden(ui::RunsModel::CostColumn));
    QVERIFY(table->isColumnHidden(ui::RunsModel::CarbonColumn));
}

QTEST_MAIN(TestCostGui)
#include "tst_costgui.moc"

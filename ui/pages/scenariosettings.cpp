// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenariosettings.h"

#include "policy_registry.h"
#include "scenario.h"

#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStringList>
#include <QVBoxLayout>

#include <algorithm>

namespace ui {

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

QString policyTip(const policies::PolicyInfo* info)
{
    return info == nullptr ? ScenarioSettingsView::tr("Not a built-in policy") : q(info->description);
}

void addWorkloadRows(const model::WorkloadSpec& w, std::vector<SettingRow>& rows)
{
    const auto tr = [](const char* text) { return ScenarioSettingsView::tr(text); };
    const QLocale locale;
    const QString none = QStringLiteral("—");
    switch (w.kind) {
    case model::WorkloadSpec::Kind::Diurnal:
        rows.push_back({tr("Workload"), tr("Diurnal arrivals, %1 h").arg(locale.toString(w.diurnal.hours)),
                        tr("Poisson arrivals following the hourly rates of the Alibaba PAI day")});
        rows.push_back({tr("Load multiplier"), tr("%1×").arg(locale.toString(w.diurnal.multiplier)),
                        tr("Hourly base rates are multiplied by this")});
        rows.push_back({tr("Seed"), QString::number(w.diurnal.seed), tr("Seed of the generated jobs")});
        break;
    case model::WorkloadSpec::Kind::Poisson:
        rows.push_back({tr("Workload"),
                        tr("Poisson, %1 jobs/min for %2 h")
                            .arg(locale.toString(w.poisson.ratePerMin, 'g', 4))
                            .arg(locale.toString(w.poisson.durationMin / 60.0, 'g', 4)),
                        tr("Fixed-rate Poisson arrivals")});
        rows.push_back({tr("Load multiplier"), none, {}});
        rows.push_back({tr("Seed"), QString::number(w.poisson.seed), tr("Seed of the generated jobs")});
        break;
    case model::WorkloadSpec::Kind::Csv:
        rows.push_back(
            {tr("Workload"), tr("Jobs from %1").arg(q(w.csvPath.filename().string())), q(w.csvPath.string())});
        rows.push_back({tr("Load multiplier"), none, {}});
        rows.push_back({tr("Seed"), QString::number(w.diurnal.seed),
                        tr("Seeds the seeded policies (random, dynamic-rl, smart-mig); the jobs come from the file")});
        break;
    }
}

/// "0.25 USD/kWh", or "0.08–0.24 USD/kWh by hour" for an hourly curve.
QString curveSummary(const std::vector<double>& curve, const QString& unit)
{
    const QLocale locale;
    if (curve.size() == 1)
        return QStringLiteral("%1 %2").arg(locale.toString(curve.front(), 'g', 6), unit);
    const auto [low, high] = std::minmax_element(curve.begin(), curve.end());
    return ScenarioSettingsView::tr("%1–%2 %3 by hour")
        .arg(locale.toString(*low, 'g', 6), locale.toString(*high, 'g', 6), unit);
}

void addCostRows(const model::Scenario& s, std::vector<SettingRow>& rows)
{
    const auto tr = [](const char* text) { return ScenarioSettingsView::tr(text); };
    if (!s.cost) {
        rows.push_back({tr("Cost"), tr("not counted"), tr("Set prices and carbon intensity with Cost and carbon…")});
        return;
    }
    const QString currency = q(s.cost->currency);
    rows.push_back({tr("Energy price"), curveSummary(s.cost->pricePerKwh, currency + tr("/kWh")),
                    tr("Price of a kWh in each hour of the day (docs/planning.md, Cost and carbon)")});
    rows.push_back({tr("Carbon intensity"), curveSummary(s.cost->carbonGPerKwh, tr("gCO2/kWh")),
                    tr("Grid carbon intensity in each hour of the day")});
    rows.push_back(
        {tr("GPU cost"),
         QStringLiteral("%1 %2").arg(QLocale().toString(s.cost->gpuHourCost, 'g', 6), currency + tr("/GPU-hour")),
         tr("Amortised purchase and hosting per GPU-hour")});
}

} // namespace

QString fleetSummary(const model::Scenario& scenario)
{
    QStringList parts;
    for (const model::FleetGroup& group : scenario.fleet) {
        QString part = QStringLiteral("%1 × %2").arg(group.count).arg(group.model ? q(group.model->name) : QString());
        if (!group.configList.empty())
            part += ScenarioSettingsView::tr(" (%1 list)").arg(q(group.configList));
        parts << part;
    }
    return parts.join(QStringLiteral(", "));
}

std::vector<SettingRow> scenarioSettings(const model::Scenario& s)
{
    const auto tr = [](const char* text) { return ScenarioSettingsView::tr(text); };
    const auto& registry = model::policyRegistry();
    std::vector<SettingRow> rows;
    rows.push_back({tr("GPUs"), fleetSummary(s), tr("%1 GPUs in total").arg(s.gpuCount())});
    addWorkloadRows(s.workload, rows);
    rows.push_back({tr("Scheduler"), q(s.scheduler.id), policyTip(registry.findScheduler(s.scheduler.id))});
    rows.push_back(
        {tr("Repartitioner"), q(s.repartitioner.id), policyTip(registry.findRepartitioner(s.repartitioner.id))});
    rows.push_back(
        {tr("Preemption"), q(model::preemptionName(s.preemption)), tr("How running jobs are treated at events")});
    rows.push_back({tr("Reconfiguration"), tr("%1 s").arg(QLocale().toString(s.reconfigurationS)),
                    tr("Downtime of an instance that a repartition changes")});
    rows.push_back({tr("Energy weight a"), QString::number(s.energyWeight, 'g', 4),
                    tr("Weight of energy (per W·min) in the ET objective")});
    addCostRows(s, rows);
    return rows;
}

ScenarioSettingsView::ScenarioSettingsView(QWidget* parent) : QWidget(parent), m_form(new QFormLayout)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_form);
    m_costButton = new QPushButton(tr("Cost and carbon…"));
    m_costButton->setObjectName(QStringLiteral("costButton"));
    m_costButton->setToolTip(tr("Energy prices, carbon intensity and GPU cost of the scenario"));
    m_costButton->setEnabled(false);
    layout->addWidget(m_costButton, 0, Qt::AlignRight);
    connect(m_costButton, &QPushButton::clicked, this, &ScenarioSettingsView::costEditRequested);
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->setLabelAlignment(Qt::AlignLeft);
    m_form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    m_form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
}

void ScenarioSettingsView::setScenario(const std::shared_ptr<const model::Scenario>& scenario)
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_costButton->setEnabled(scenario != nullptr);
    if (!scenario)
        return;
    for (const SettingRow& row : scenarioSettings(*scenario)) {
        auto* value = new QLabel(row.value);
        value->setToolTip(row.toolTip);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto* label = new QLabel(row.label + QLatin1Char(':'));
        label->setToolTip(row.toolTip);
        m_form->addRow(label, value);
    }
}

QString ScenarioSettingsView::valueOf(const QString& label) const
{
    for (int r = 0; r < m_form->rowCount(); ++r) {
        auto* name = qobject_cast<QLabel*>(m_form->itemAt(r, QFormLayout::LabelRole)->widget());
        auto* value = qobject_cast<QLabel*>(m_form->itemAt(r, QFormLayout::FieldRole)->widget());
        if (name != nullptr && value != nullptr && name->text() == label + QLatin1Char(':'))
            return value->text();
    }
    return {};
}

} // namespace ui

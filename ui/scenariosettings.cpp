// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenariosettings.h"

#include "scenario.h"

#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QStringList>

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
        rows.push_back({tr("Seed"), none, tr("A jobs file is not generated")});
        break;
    }
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
    const auto& registry = policies::builtinRegistry();
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
    return rows;
}

ScenarioSettingsView::ScenarioSettingsView(QWidget* parent) : QWidget(parent), m_form(new QFormLayout(this))
{
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->setLabelAlignment(Qt::AlignLeft);
    m_form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    m_form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
}

void ScenarioSettingsView::setScenario(const std::shared_ptr<const model::Scenario>& scenario)
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
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

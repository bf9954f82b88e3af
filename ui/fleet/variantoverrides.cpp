// SPDX-License-Identifier: GPL-3.0-or-later
#include "variantoverrides.h"

#include "input_limits.h"
#include "sweep.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace ui {

namespace {

/// A row: the tick that makes the override, then its value (greyed while the base's is used).
QWidget* overrideRow(QCheckBox* use, QWidget* value)
{
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(use);
    layout->addWidget(value, 1);
    value->setEnabled(use->isChecked());
    QObject::connect(use, &QCheckBox::toggled, value, &QWidget::setEnabled);
    return row;
}

constexpr simcore::PreemptionMode kModes[] = {simcore::PreemptionMode::FullReschedule,
                                              simcore::PreemptionMode::OnRepartition, simcore::PreemptionMode::None};

} // namespace

VariantOverridesDialog::VariantOverridesDialog(const model::Variant& current, const model::Scenario& base,
                                               std::function<QString(const model::Variant&)> apply, QWidget* parent)
    : QDialog(parent), m_apply(std::move(apply))
{
    setObjectName(QStringLiteral("variantOverridesDialog"));
    setWindowTitle(tr("Overrides of %1").arg(QString::fromStdString(current.name)));
    const bool generated = base.workload.kind != model::WorkloadSpec::Kind::Csv;

    m_useMultiplier = new QCheckBox(tr("Override"));
    m_multiplier = new QDoubleSpinBox;
    m_multiplier->setObjectName(QStringLiteral("overrideMultiplier"));
    m_multiplier->setRange(0.01, model::kMaxSweepLoad);
    m_multiplier->setDecimals(2);
    m_multiplier->setSingleStep(0.1);
    m_multiplier->setSuffix(tr(" × the base's arrival rate"));
    m_multiplier->setValue(current.multiplier.value_or(1.0));
    m_useMultiplier->setChecked(current.multiplier.has_value());

    m_useSeed = new QCheckBox(tr("Override"));
    m_seed = new QLineEdit;
    m_seed->setObjectName(QStringLiteral("overrideSeed"));
    m_seed->setText(QString::number(current.seed.value_or(model::workloadSeed(base))));
    m_useSeed->setChecked(current.seed.has_value());

    if (!generated) { // a jobs file is what it is: neither scaled nor re-drawn
        const QString why = tr("The base workload is a jobs file: it has no arrival rate or seed to change.");
        for (QWidget* w : std::initializer_list<QWidget*>{m_useMultiplier, m_useSeed}) {
            w->setEnabled(false);
            w->setToolTip(why);
        }
    }

    m_usePreemption = new QCheckBox(tr("Override"));
    m_preemption = new QComboBox;
    m_preemption->setObjectName(QStringLiteral("overridePreemption"));
    for (simcore::PreemptionMode mode : kModes)
        m_preemption->addItem(QString::fromStdString(model::preemptionName(mode)), static_cast<int>(mode));
    m_preemption->setCurrentIndex(
        m_preemption->findData(static_cast<int>(current.preemption.value_or(base.preemption))));
    m_usePreemption->setChecked(current.preemption.has_value());

    m_useEnergyWeight = new QCheckBox(tr("Override"));
    m_energyWeight = new QDoubleSpinBox;
    m_energyWeight->setObjectName(QStringLiteral("overrideEnergyWeight"));
    m_energyWeight->setRange(0.0, 1e6);
    m_energyWeight->setDecimals(9);
    m_energyWeight->setSingleStep(1e-7);
    m_energyWeight->setValue(current.energyWeight.value_or(base.energyWeight));
    m_useEnergyWeight->setChecked(current.energyWeight.has_value());

    auto* form = new QFormLayout;
    form->addRow(tr("Workload multiplier:"), overrideRow(m_useMultiplier, m_multiplier));
    form->addRow(tr("Workload seed:"), overrideRow(m_useSeed, m_seed));
    form->addRow(tr("Preemption:"), overrideRow(m_usePreemption, m_preemption));
    form->addRow(tr("Energy weight a:"), overrideRow(m_useEnergyWeight, m_energyWeight));

    auto* note = new QLabel(tr("Unticked values follow the base scenario, so its later edits reach this variant. "
                               "The variant's fleet is edited on the Layouts page."));
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("overridesProblem"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #b71c1c;"));
    m_problem->hide();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &VariantOverridesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    setMinimumWidth(520);
}

std::optional<model::Variant> VariantOverridesDialog::overrides() const
{
    model::Variant out;
    if (m_useMultiplier->isEnabled() && m_useMultiplier->isChecked())
        out.multiplier = m_multiplier->value();
    if (m_useSeed->isEnabled() && m_useSeed->isChecked()) {
        bool ok = false;
        const QString text = m_seed->text().trimmed();
        const qulonglong seed = text.toULongLong(&ok);
        if (!ok || text.startsWith(QLatin1Char('+')) || seed > model::limits::kMaxSeed)
            return std::nullopt;
        out.seed = seed;
    }
    if (m_usePreemption->isChecked())
        out.preemption = static_cast<simcore::PreemptionMode>(m_preemption->currentData().toInt());
    if (m_useEnergyWeight->isChecked())
        out.energyWeight = m_energyWeight->value();
    return out;
}

QString VariantOverridesDialog::problem() const
{
    return m_lastProblem;
}

void VariantOverridesDialog::accept()
{
    const std::optional<model::Variant> wanted = overrides();
    if (!wanted) {
        showProblem(tr("Workload seed: '%1' is not a whole number from 0 to %2.")
                        .arg(m_seed->text().trimmed())
                        .arg(model::limits::kMaxSeed));
        return;
    }
    if (const QString refused = m_apply ? m_apply(*wanted) : QString(); !refused.isEmpty()) {
        showProblem(tr("Refused: %1").arg(refused));
        return;
    }
    m_lastProblem.clear();
    QDialog::accept();
}

void VariantOverridesDialog::showProblem(const QString& text)
{
    m_lastProblem = text;
    m_problem->setText(text);
    m_problem->show();
}

} // namespace ui

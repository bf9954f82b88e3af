// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "variants.h"

#include <QDialog>

#include <functional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace ui {

/// "Overrides…" of the Layouts page's variant bar (docs/planning.md, "Variants"): the workload
/// multiplier, workload seed, preemption mode and energy weight of one variant. A box left
/// unticked follows the base scenario (its value is shown, greyed). OK hands the overrides to
/// @p apply, which returns why they are refused (shown in the dialog, which stays open) or an
/// empty text when they are set.
class VariantOverridesDialog : public QDialog
{
    Q_OBJECT

public:
    VariantOverridesDialog(const model::Variant& current, const model::Scenario& base,
                           std::function<QString(const model::Variant&)> apply, QWidget* parent = nullptr);

    /// The overrides as the form shows them; nullopt when the form is not valid (problem() says why).
    [[nodiscard]] std::optional<model::Variant> overrides() const;
    [[nodiscard]] QString problem() const;

    [[nodiscard]] QCheckBox* multiplierBox() const { return m_useMultiplier; }
    [[nodiscard]] QDoubleSpinBox* multiplierEdit() const { return m_multiplier; }
    [[nodiscard]] QCheckBox* seedBox() const { return m_useSeed; }
    [[nodiscard]] QLineEdit* seedEdit() const { return m_seed; }
    [[nodiscard]] QCheckBox* preemptionBox() const { return m_usePreemption; }
    [[nodiscard]] QComboBox* preemptionEdit() const { return m_preemption; }
    [[nodiscard]] QCheckBox* energyWeightBox() const { return m_useEnergyWeight; }
    [[nodiscard]] QDoubleSpinBox* energyWeightEdit() const { return m_energyWeight; }

public slots:
    void accept() override;

private:
    void showProblem(const QString& text);

    std::function<QString(const model::Variant&)> m_apply;
    QCheckBox* m_useMultiplier = nullptr;
    QDoubleSpinBox* m_multiplier = nullptr;
    QCheckBox* m_useSeed = nullptr;
    QLineEdit* m_seed = nullptr;
    QCheckBox* m_usePreemption = nullptr;
    QComboBox* m_preemption = nullptr;
    QCheckBox* m_useEnergyWeight = nullptr;
    QDoubleSpinBox* m_energyWeight = nullptr;
    QLabel* m_problem = nullptr;
    QString m_lastProblem;
};

} // namespace ui

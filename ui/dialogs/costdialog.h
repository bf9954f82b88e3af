// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cost.h"

#include <QDialog>
#include <QStringList>

#include <optional>
#include <vector>

class QCheckBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace ui {

/// Parses "0.25" or 24 values separated by commas, semicolons or spaces (one per hour of the
/// day); an empty result means the text is not a number list.
[[nodiscard]] std::vector<double> parseCurveText(const QString& text);
/// One value as is, 24 values joined by ", ".
[[nodiscard]] QString curveText(const std::vector<double>& curve);

/// Edits a scenario's cost and carbon settings (docs/planning.md, Cost and carbon): currency,
/// price per kWh and carbon intensity (one value or 24 hourly values), amortised cost per
/// GPU-hour. OK is enabled only while every field is valid; the problems are listed under them.
class CostDialog : public QDialog
{
    Q_OBJECT

public:
    explicit CostDialog(const std::optional<model::CostSettings>& settings, QWidget* parent = nullptr);

    /// The settings as edited; nullopt when cost is switched off.
    [[nodiscard]] std::optional<model::CostSettings> settings() const;
    /// What is wrong with the fields (empty when OK is enabled).
    [[nodiscard]] QStringList problems() const;

private:
    void setupWidgets(const model::CostSettings& settings);
    void validate();

    QCheckBox* m_enabled = nullptr;
    QLineEdit* m_currency = nullptr;
    QPlainTextEdit* m_price = nullptr; ///< one value or 24, wrapped over a few lines
    QPlainTextEdit* m_carbon = nullptr;
    QDoubleSpinBox* m_gpuHour = nullptr;
    QLabel* m_problems = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace ui

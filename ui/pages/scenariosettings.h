// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

class QFormLayout;
class QPushButton;

namespace model {
struct Scenario;
} // namespace model

namespace ui {

/// One "label: value" line of a scenario's key settings.
struct SettingRow
{
    QString label;
    QString value;
    QString toolTip;
};

/// The key settings of a scenario as a user reads them (fleet, workload, policies, costs).
[[nodiscard]] std::vector<SettingRow> scenarioSettings(const model::Scenario& scenario);

/// "2 × A100-40GB", or one part per fleet group ("4 × A100-40GB, 2 × H100-80GB").
[[nodiscard]] QString fleetSummary(const model::Scenario& scenario);

/// A form with the key settings of the open scenario.
class ScenarioSettingsView : public QWidget
{
    Q_OBJECT

public:
    explicit ScenarioSettingsView(QWidget* parent = nullptr);
    void setScenario(const std::shared_ptr<const model::Scenario>& scenario);
    /// The value shown for @p label, empty when there is no such row (for tests).
    [[nodiscard]] QString valueOf(const QString& label) const;

signals:
    /// The user asked to edit the cost and carbon settings (the "Cost and carbon…" button).
    void costEditRequested();

private:
    QFormLayout* m_form = nullptr;
    QPushButton* m_costButton = nullptr;
};

} // namespace ui

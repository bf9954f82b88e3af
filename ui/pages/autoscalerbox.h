// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario.h"

#include <QWidget>

#include <optional>

class QComboBox;

namespace ui {

/// The Runs page's choice of a run's autoscaler (docs/services.md, "Runs, Compare, sessions and
/// reports"): "scenario's (X)", then wva, hpa and static-replicas. Shown only for a scenario with
/// services; a run without services has no autoscaler to choose.
class AutoscalerBox : public QWidget
{
    Q_OBJECT

public:
    explicit AutoscalerBox(QWidget* parent = nullptr);

    /// Names the scenario's own autoscaler in the first item and shows the box when @p scenario
    /// (may be null) has services; the choice stays.
    void setScenario(const model::Scenario* scenario);
    /// The choice: nullopt for the scenario's own; else the id with @p kept's parameters when it is
    /// @p kept's id (a run loaded with parameters from a session keeps them), none otherwise.
    [[nodiscard]] std::optional<model::PolicyChoice> choice(const std::optional<model::PolicyChoice>& kept = {}) const;
    /// Shows @p choice (nullopt: the scenario's own); no changed() signal.
    void setChoice(const std::optional<model::PolicyChoice>& choice);
    [[nodiscard]] QComboBox* box() const { return m_box; }

signals:
    /// The user picked another autoscaler.
    void changed();

private:
    QComboBox* m_box = nullptr;
};

} // namespace ui

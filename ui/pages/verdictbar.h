// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "results.h"
#include "verdict.h"

#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace ui {

/// The verdict over a set of runs (docs/planning.md, "Verdicts"): an objective selector (with the
/// tardiness limit of "energy with avg tardiness <= T"), a baseline selector and the verdict
/// sentence. The Runs and Compare pages feed it their finished runs and read the ranking back.
class VerdictBar : public QWidget
{
    Q_OBJECT

public:
    /// A finished run: its key on the page, its label and its metrics on the scenario's seed.
    struct Entry
    {
        int key = 0;
        std::string label; ///< "scheduler/repartitioner"
        simcore::RunMetrics metrics;
        std::optional<double> costPerDay; ///< when the scenario has cost settings
    };

    explicit VerdictBar(QWidget* parent = nullptr);

    /// Ranks these runs (in this order: ties rank by it); keeps the chosen baseline when it is
    /// still among them, else the first.
    void setEntries(std::vector<Entry> entries);
    [[nodiscard]] const std::optional<model::Verdict>& verdict() const { return m_verdict; }
    /// The ranked row of the run with @p key, null when it is not ranked.
    [[nodiscard]] const model::RankedRun* ranked(int key) const;
    [[nodiscard]] model::Objective objective() const;
    [[nodiscard]] int baselineKey() const;
    void setObjective(const model::Objective& objective);
    void setBaselineKey(int key);
    [[nodiscard]] QString sentence() const;

    [[nodiscard]] QComboBox* objectiveBox() const { return m_objective; }
    [[nodiscard]] QDoubleSpinBox* limitBox() const { return m_limit; }
    [[nodiscard]] QComboBox* baselineBox() const { return m_baseline; }
    [[nodiscard]] QLabel* sentenceLabel() const { return m_sentence; }

signals:
    /// The ranking or its sentence changed (new runs, objective or baseline).
    void verdictChanged();

private:
    void setupWidgets();
    void connectSignals();
    void refreshBaselines();
    void recompute();

    QComboBox* m_objective = nullptr;
    QDoubleSpinBox* m_limit = nullptr;
    QComboBox* m_baseline = nullptr;
    QLabel* m_sentence = nullptr;
    std::vector<Entry> m_entries;
    int m_baselineKey = 0;
    bool m_baselineChosen = false; ///< the user (or setBaselineKey) picked the baseline
    std::optional<model::Verdict> m_verdict;
    bool m_updating = false;
};

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario.h"
#include "trace_import.h"

#include <QDialog>

class QComboBox;
class QCustomPlot;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace ui {

/// Reads a trace with the chosen importer and shows its sanity report (rows read, used, skipped
/// and rejected with reasons, time span, arrivals by hour, demand against the scenario's fleet)
/// before the jobs are used. The report is redone whenever a setting changes.
class ImportDialog : public QDialog
{
    Q_OBJECT

public:
    ImportDialog(const QString& tracePath, const model::Scenario& scenario, QWidget* parent = nullptr);

    [[nodiscard]] const model::ImportReport& report() const { return m_report; }
    [[nodiscard]] const std::vector<simcore::Job>& jobs() const { return m_jobs; }
    [[nodiscard]] QString reportText() const;
    [[nodiscard]] QComboBox* formatBox() const { return m_format; }
    [[nodiscard]] QComboBox* typeBox() const { return m_type; }
    [[nodiscard]] QComboBox* multiGpuBox() const { return m_multiGpu; }
    [[nodiscard]] QLineEdit* slackEdit() const { return m_slack; }
    [[nodiscard]] QLineEdit* windowEdit() const { return m_window; }
    /// The option problem shown (the CLI's message, e.g. for a bad slack), empty when none.
    [[nodiscard]] QString optionProblem() const;
    /// The warning shown when almost every job fits only a 7g slice (model::wholeGpuOnlyWarning).
    [[nodiscard]] QString sliceWarning() const;
    [[nodiscard]] bool canAccept() const;

    /// Writes the jobs as a jobs CSV in jobsDirectory(); returns its path, empty on failure.
    [[nodiscard]] QString writeJobs() const;
    /// Where imported workloads are kept: the application data folder's "imports".
    [[nodiscard]] static QString jobsDirectory();

private:
    void setupWidgets();
    QWidget* createSettings();
    void createOptionFields();
    void reimport();
    void showReport(const model::Problems& problems);
    /// The settings the fields give; "" or the first option's problem (the CLI's message).
    [[nodiscard]] std::string readSettings(model::ImportSettings& s) const;

    QString m_path;
    model::Scenario m_scenario;
    model::ImportReport m_report;
    std::vector<simcore::Job> m_jobs;
    QComboBox* m_format = nullptr;
    QLineEdit* m_columns = nullptr;
    QDoubleSpinBox* m_timeUnit = nullptr;
    QDoubleSpinBox* m_scale = nullptr;
    QSpinBox* m_seed = nullptr;
    QComboBox* m_type = nullptr;
    QComboBox* m_multiGpu = nullptr;
    QLineEdit* m_slack = nullptr;
    QLineEdit* m_window = nullptr;
    QLabel* m_problem = nullptr;
    QLabel* m_warning = nullptr;
    QLabel* m_headline = nullptr;
    QPlainTextEdit* m_text = nullptr;
    QCustomPlot* m_hourly = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace ui

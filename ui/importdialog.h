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

    /// Writes the jobs as a jobs CSV in jobsDirectory(); returns its path, empty on failure.
    [[nodiscard]] QString writeJobs() const;
    /// Where imported workloads are kept: the application data folder's "imports".
    [[nodiscard]] static QString jobsDirectory();
    /// The importer a file's header suggests.
    [[nodiscard]] static model::ImportSettings::Format guessFormat(const QString& path);

private:
    void setupWidgets();
    QWidget* createSettings();
    void reimport();
    [[nodiscard]] model::ImportSettings settings() const;

    QString m_path;
    model::Scenario m_scenario;
    model::ImportReport m_report;
    std::vector<simcore::Job> m_jobs;
    QComboBox* m_format = nullptr;
    QLineEdit* m_columns = nullptr;
    QDoubleSpinBox* m_timeUnit = nullptr;
    QDoubleSpinBox* m_scale = nullptr;
    QSpinBox* m_seed = nullptr;
    QLabel* m_headline = nullptr;
    QPlainTextEdit* m_text = nullptr;
    QCustomPlot* m_hourly = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace ui

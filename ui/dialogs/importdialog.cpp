// SPDX-License-Identifier: GPL-3.0-or-later
#include "importdialog.h"

#include "atomic_file.h"
#include "import_options.h"
#include "jobs_csv.h"
#include "palette.h"
#include "workloadpagecharts.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <sstream>

namespace ui {

using Format = model::ImportSettings::Format;

ImportDialog::ImportDialog(const QString& tracePath, const model::Scenario& scenario, QWidget* parent)
    : QDialog(parent), m_path(tracePath), m_scenario(scenario)
{
    setWindowTitle(tr("Import %1").arg(QFileInfo(tracePath).fileName()));
    setupWidgets();
    {
        // The header names the importer, as the CLI's --format auto does (model::sniffTraceFormat).
        const QSignalBlocker blocker(m_format);
        const auto guessed = model::sniffTraceFormat(tracePath.toStdString());
        m_format->setCurrentIndex(m_format->findData(static_cast<int>(guessed)));
    }
    emit m_format->currentIndexChanged(m_format->currentIndex()); // enables the generic fields, imports
    resize(820, 720);
}

void ImportDialog::setupWidgets()
{
    m_headline = new QLabel;
    m_headline->setObjectName(QStringLiteral("importHeadline"));
    m_headline->setWordWrap(true);
    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("importProblem"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(textStyle(problemTextColour()) + QStringLiteral("; font-weight: bold"));
    m_warning = new QLabel;
    m_warning->setObjectName(QStringLiteral("importWarning"));
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(textStyle(problemTextColour()));
    m_text = new QPlainTextEdit;
    m_text->setObjectName(QStringLiteral("importReport"));
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_hourly = createBarChart(tr("Arrivals by hour of day"), tr("hour of day"), tr("jobs"), this);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Use these jobs"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(createSettings());
    layout->addWidget(m_problem);
    layout->addWidget(m_headline);
    layout->addWidget(m_warning);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_hourly, 1);
    layout->addWidget(m_buttons);
}

void ImportDialog::createOptionFields()
{
    m_format = new QComboBox;
    m_format->setObjectName(QStringLiteral("importFormat"));
    for (const model::Importer& importer : model::importers())
        m_format->addItem(tr(importer.label.c_str()), static_cast<int>(importer.format));
    m_type = new QComboBox;
    m_type->setObjectName(QStringLiteral("importType"));
    m_type->addItem(tr("The format's default"), QString());
    for (const simcore::JobType& type : m_scenario.jobTypes)
        m_type->addItem(QString::fromStdString(type.label), QString::fromStdString(type.id));
    m_multiGpu = new QComboBox;
    m_multiGpu->setObjectName(QStringLiteral("importMultiGpu"));
    for (const model::MultiGpuMode& mode : model::multiGpuModes()) // the CLI's --multi-gpu values
        m_multiGpu->addItem(tr(mode.label.c_str()), QString::fromStdString(mode.id));
    m_slack = new QLineEdit(QStringLiteral("1:1.5"));
    m_slack->setObjectName(QStringLiteral("importSlack"));
    m_slack->setToolTip(tr("MIN:MAX: deadline = release + U(MIN, MAX) x run time on a 7g slice (traces without "
                           "deadlines)"));
    m_window = new QLineEdit;
    m_window->setObjectName(QStringLiteral("importWindow"));
    m_window->setPlaceholderText(tr("all, or START:LENGTH"));
    m_window->setToolTip(tr("START_H:LENGTH_H from the first release, e.g. 24:24 for the second day"));
    m_columns = new QLineEdit(QStringLiteral("release=release,duration=duration"));
    m_columns->setToolTip(tr("release=COL,duration=COL (or work_1g=COL), optional deadline, slack, type, memory_gib"));
    m_timeUnit = new QDoubleSpinBox;
    m_timeUnit->setDecimals(6);
    m_timeUnit->setRange(1e-6, 1e6);
    m_timeUnit->setValue(1.0);
    m_timeUnit->setToolTip(tr("Minutes per time unit of the trace (1/60 = 0.016667 for seconds)"));
    m_scale = new QDoubleSpinBox;
    m_scale->setRange(0.01, 100.0);
    m_scale->setValue(1.0);
    m_seed = new QSpinBox;
    m_seed->setRange(0, 1 << 30);
    m_seed->setValue(1);
}

QWidget* ImportDialog::createSettings()
{
    createOptionFields();
    auto* box = new QWidget;
    auto* columns = new QHBoxLayout(box);
    columns->setContentsMargins(0, 0, 0, 0);
    auto* left = new QFormLayout;
    auto* right = new QFormLayout;
    columns->addLayout(left, 3);
    columns->addLayout(right, 2);
    auto* file = new QLabel(QDir::toNativeSeparators(m_path));
    file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    file->setWordWrap(true);
    left->addRow(tr("Trace"), file);
    left->addRow(tr("Format"), m_format);
    left->addRow(tr("Job type"), m_type);
    left->addRow(tr("Multi-GPU pods"), m_multiGpu);
    left->addRow(tr("Columns (generic)"), m_columns);
    right->addRow(tr("Window (h)"), m_window);
    right->addRow(tr("Deadline slack"), m_slack);
    right->addRow(tr("Minutes per unit"), m_timeUnit);
    right->addRow(tr("Load scale"), m_scale);
    right->addRow(tr("Seed"), m_seed);
    const auto enableFields = [this] {
        const auto format = static_cast<Format>(m_format->currentData().toInt());
        m_columns->setEnabled(format == Format::Generic);
        m_timeUnit->setEnabled(format == Format::Generic);
        m_multiGpu->setEnabled(format == Format::Alibaba);
    };
    connect(m_format, &QComboBox::currentIndexChanged, this, [this, enableFields] {
        enableFields();
        reimport();
    });
    connect(m_type, &QComboBox::currentIndexChanged, this, &ImportDialog::reimport);
    connect(m_multiGpu, &QComboBox::currentIndexChanged, this, &ImportDialog::reimport);
    for (QLineEdit* edit : {m_columns, m_slack, m_window})
        connect(edit, &QLineEdit::editingFinished, this, &ImportDialog::reimport);
    connect(m_timeUnit, &QDoubleSpinBox::editingFinished, this, &ImportDialog::reimport);
    connect(m_scale, &QDoubleSpinBox::editingFinished, this, &ImportDialog::reimport);
    connect(m_seed, &QSpinBox::editingFinished, this, &ImportDialog::reimport);
    return box;
}

std::string ImportDialog::readSettings(model::ImportSettings& s) const
{
    s.format = static_cast<Format>(m_format->currentData().toInt());
    s.type = m_type->currentData().toString().toStdString();
    s.seed = static_cast<std::uint64_t>(m_seed->value());
    s.loadScale = m_scale->value();
    s.timeUnitMin = m_timeUnit->value();
    // The CLI's checks and messages (model/import_options.h), one option after the other.
    std::string problem = model::setImportMultiGpu(s, m_multiGpu->currentData().toString().toStdString());
    if (problem.empty())
        problem = model::setImportSlack(s, m_slack->text().trimmed().toStdString());
    if (problem.empty() && !m_window->text().trimmed().isEmpty())
        problem = model::setImportWindow(s, m_window->text().trimmed().toStdString());
    if (problem.empty() && s.format == Format::Generic)
        problem = model::setImportMap(s, m_columns->text().remove(QLatin1Char(' ')).toStdString());
    return problem;
}

void ImportDialog::reimport()
{
    if (m_format->currentIndex() < 0)
        return;
    m_report = {};
    m_jobs.clear();
    model::ImportSettings s;
    const std::string problem = readSettings(s);
    m_problem->setText(QString::fromStdString(problem));
    m_problem->setVisible(!problem.empty());
    model::Problems problems;
    if (problem.empty())
        m_jobs = model::importTrace(m_path.toStdString(), s, m_scenario.jobTypes, m_report, problems);
    model::demandAgainst(m_report, m_scenario.gpuCount());
    showReport(problems);
}

void ImportDialog::showReport(const model::Problems& problems)
{
    QString text = QString::fromStdString(m_report.text());
    for (const model::Problem& p : problems.items())
        text += tr("problem: %1\n").arg(QString::fromStdString(p.text()));
    // A refused option reads nothing: no report of zero rows, the problem above says why.
    const bool refused = !m_problem->text().isEmpty();
    m_text->setPlainText(refused ? QString() : text);
    const QLocale locale;
    if (refused)
        m_headline->setText(tr("Nothing is read until the option above is corrected."));
    else
        m_headline->setText(
            tr("<b>%1 jobs</b> from %2 rows read: %3 used, %4 skipped, %5 rejected · span %6 h · demand %7% of "
               "the fleet's %8 GPUs")
                .arg(locale.toString(m_report.jobs), locale.toString(m_report.rowsRead), locale.toString(m_report.used),
                     locale.toString(m_report.skipped), locale.toString(m_report.rejected),
                     locale.toString(m_report.spanMin / 60.0, 'f', 1),
                     locale.toString(100.0 * m_report.demandRatio, 'f', 0))
                .arg(m_scenario.gpuCount()));
    const QString warning = QString::fromStdString(model::wholeGpuOnlyWarning(m_report));
    m_warning->setText(warning.isEmpty() ? QString() : tr("Warning: %1.").arg(warning));
    m_warning->setVisible(!warning.isEmpty());
    QStringList hours;
    for (int h = 0; h < 24; ++h)
        hours << QStringLiteral("%1:00").arg(h, 2, 10, QLatin1Char('0'));
    setBars(m_hourly, hours, std::vector<double>(m_report.hourlyArrivals.begin(), m_report.hourlyArrivals.end()),
            arrivalsColour());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(canAccept());
}

bool ImportDialog::canAccept() const
{
    return !m_jobs.empty() && m_problem->text().isEmpty();
}

QString ImportDialog::optionProblem() const
{
    return m_problem->text();
}

QString ImportDialog::sliceWarning() const
{
    return m_warning->text();
}

QString ImportDialog::reportText() const
{
    return m_text->toPlainText();
}

QString ImportDialog::jobsDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/imports");
}

QString ImportDialog::writeJobs() const
{
    if (m_jobs.empty() || !QDir().mkpath(jobsDirectory()))
        return {};
    const QString path = QStringLiteral("%1/%2-%3.jobs.csv")
                             .arg(jobsDirectory(), QFileInfo(m_path).completeBaseName(),
                                  QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmsszzz")));
    std::ostringstream out;
    model::writeJobsCsv(out, m_jobs, m_scenario.jobTypes);
    try {
        model::writeFileAtomically(path.toStdString(), out.str()); // docs/limits.md, "Output files"
    } catch (const std::exception&) {
        return {}; // the caller reports that nothing was written
    }
    return path;
}

} // namespace ui

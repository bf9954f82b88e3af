// SPDX-License-Identifier: GPL-3.0-or-later
#include "importdialog.h"

#include "jobs_csv.h"
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

#include <fstream>

namespace ui {

using Format = model::ImportSettings::Format;

ImportDialog::ImportDialog(const QString& tracePath, const model::Scenario& scenario, QWidget* parent)
    : QDialog(parent), m_path(tracePath), m_scenario(scenario)
{
    setWindowTitle(tr("Import %1").arg(QFileInfo(tracePath).fileName()));
    setupWidgets();
    {
        const QSignalBlocker blocker(m_format);
        m_format->setCurrentIndex(m_format->findData(static_cast<int>(guessFormat(tracePath))));
    }
    emit m_format->currentIndexChanged(m_format->currentIndex()); // enables the generic fields, imports
    resize(760, 640);
}

Format ImportDialog::guessFormat(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return Format::Generic;
    const QString header = QString::fromUtf8(file.readLine()).trimmed();
    if (header.contains(QLatin1String("gpu_milli")))
        return Format::Alibaba;
    if (header.contains(QLatin1String("ContextTokens")))
        return Format::Azure;
    if (header.startsWith(QLatin1String("id,type,release_min")))
        return Format::Jobs;
    return Format::Generic;
}

void ImportDialog::setupWidgets()
{
    m_headline = new QLabel;
    m_headline->setObjectName(QStringLiteral("importHeadline"));
    m_headline->setWordWrap(true);
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
    layout->addWidget(m_headline);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_hourly, 1);
    layout->addWidget(m_buttons);
}

QWidget* ImportDialog::createSettings()
{
    auto* box = new QWidget;
    m_format = new QComboBox;
    m_format->setObjectName(QStringLiteral("importFormat"));
    m_format->addItem(tr("Alibaba GPU cluster pods"), static_cast<int>(Format::Alibaba));
    m_format->addItem(tr("Azure LLM inference requests"), static_cast<int>(Format::Azure));
    m_format->addItem(tr("Generic CSV (map columns)"), static_cast<int>(Format::Generic));
    m_format->addItem(tr("MIGsight jobs CSV"), static_cast<int>(Format::Jobs));
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
    auto* form = new QFormLayout(box);
    form->setContentsMargins(0, 0, 0, 0);
    auto* file = new QLabel(QDir::toNativeSeparators(m_path));
    file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Trace"), file);
    form->addRow(tr("Format"), m_format);
    form->addRow(tr("Columns (generic)"), m_columns);
    form->addRow(tr("Minutes per time unit (generic)"), m_timeUnit);
    form->addRow(tr("Load scale"), m_scale);
    form->addRow(tr("Seed"), m_seed);
    const auto enableGeneric = [this] {
        const bool generic = m_format->currentData().toInt() == static_cast<int>(Format::Generic);
        m_columns->setEnabled(generic);
        m_timeUnit->setEnabled(generic);
    };
    connect(m_format, &QComboBox::currentIndexChanged, this, [this, enableGeneric] {
        enableGeneric();
        reimport();
    });
    connect(m_columns, &QLineEdit::editingFinished, this, &ImportDialog::reimport);
    connect(m_timeUnit, &QDoubleSpinBox::editingFinished, this, &ImportDialog::reimport);
    connect(m_scale, &QDoubleSpinBox::editingFinished, this, &ImportDialog::reimport);
    connect(m_seed, &QSpinBox::editingFinished, this, &ImportDialog::reimport);
    return box;
}

model::ImportSettings ImportDialog::settings() const
{
    model::ImportSettings s;
    s.format = static_cast<Format>(m_format->currentData().toInt());
    s.seed = static_cast<std::uint64_t>(m_seed->value());
    s.loadScale = m_scale->value();
    s.timeUnitMin = m_timeUnit->value();
    for (const QString& pair : m_columns->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString key = pair.section(QLatin1Char('='), 0, 0).trimmed();
        const QString column = pair.section(QLatin1Char('='), 1).trimmed();
        if (!key.isEmpty() && !column.isEmpty())
            s.columns[key.toStdString()] = column.toStdString();
    }
    return s;
}

void ImportDialog::reimport()
{
    if (m_format->currentIndex() < 0)
        return;
    m_report = {};
    model::Problems problems;
    m_jobs = model::importTrace(m_path.toStdString(), settings(), m_scenario.jobTypes, m_report, problems);
    model::demandAgainst(m_report, m_scenario.gpuCount());
    QString text = QString::fromStdString(m_report.text());
    for (const model::Problem& p : problems.items())
        text += tr("problem: %1\n").arg(QString::fromStdString(p.text()));
    m_text->setPlainText(text);
    const QLocale locale;
    m_headline->setText(
        tr("<b>%1 jobs</b> from %2 rows read: %3 used, %4 skipped, %5 rejected · span %6 h · demand %7% of "
           "the fleet's %8 GPUs")
            .arg(locale.toString(m_report.jobs), locale.toString(m_report.rowsRead), locale.toString(m_report.used),
                 locale.toString(m_report.skipped), locale.toString(m_report.rejected),
                 locale.toString(m_report.spanMin / 60.0, 'f', 1),
                 locale.toString(100.0 * m_report.demandRatio, 'f', 0))
            .arg(m_scenario.gpuCount()));
    QStringList hours;
    for (int h = 0; h < 24; ++h)
        hours << QStringLiteral("%1:00").arg(h, 2, 10, QLatin1Char('0'));
    setBars(m_hourly, hours, std::vector<double>(m_report.hourlyArrivals.begin(), m_report.hourlyArrivals.end()),
            QColor(0x00, 0x72, 0xb2));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_jobs.empty());
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
    std::ofstream out(path.toStdString());
    model::writeJobsCsv(out, m_jobs, m_scenario.jobTypes);
    out.close();
    return out ? path : QString();
}

} // namespace ui

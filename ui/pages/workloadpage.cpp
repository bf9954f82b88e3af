// SPDX-License-Identifier: GPL-3.0-or-later
#include "workloadpage.h"

#include "importdialog.h"
#include "palette.h"
#include "simulation.h"
#include "slices.h"
#include "workloadpagecharts.h"
#include "workspace.h"

#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace ui {

namespace {

std::vector<double> asDoubles(const auto& counts)
{
    return std::vector<double>(counts.begin(), counts.end());
}

QString sourceText(const model::Scenario& s)
{
    const model::WorkloadSpec& w = s.workload;
    switch (w.kind) {
    case model::WorkloadSpec::Kind::Diurnal:
        return WorkloadPage::tr("Diurnal arrivals: the papers' hourly rates × %1 over %2 h")
            .arg(w.diurnal.multiplier)
            .arg(w.diurnal.hours);
    case model::WorkloadSpec::Kind::Poisson:
        return WorkloadPage::tr("Poisson arrivals: %1 jobs/min over %2 h")
            .arg(w.poisson.ratePerMin)
            .arg(w.poisson.durationMin / 60.0);
    case model::WorkloadSpec::Kind::Csv:
        return WorkloadPage::tr("Jobs from %1").arg(QString::fromStdString(w.csvPath.string()));
    }
    return {};
}

} // namespace

WorkloadPage::WorkloadPage(Workspace* workspace, QWidget* parent) : QWidget(parent), m_workspace(workspace)
{
    setupWidgets();
    connectSignals();
    onScenarioChanged();
}

void WorkloadPage::setupWidgets()
{
    m_source = new QLabel;
    m_source->setObjectName(QStringLiteral("workloadSource"));
    m_source->setWordWrap(true);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("workloadSummary"));
    m_hourly = createBarChart(tr("Arrivals by hour of day"), tr("hour of day"), tr("jobs"));
    m_sizes = createBarChart(tr("Job sizes"), tr("work on a 1g slice (minutes)"), tr("jobs"));
    m_types = createBarChart(tr("Job types"), QString(), tr("jobs"));
    m_debounce = new QTimer(this);
    m_debounce->setObjectName(QStringLiteral("workloadDebounce"));
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);

    auto* charts = new QGridLayout;
    charts->addWidget(m_hourly, 0, 0, 1, 2);
    charts->addWidget(m_sizes, 1, 0);
    charts->addWidget(m_types, 1, 1);
    charts->setRowStretch(0, 1);
    charts->setRowStretch(1, 1);
    auto* top = new QHBoxLayout;
    top->addWidget(createControls(), 0);
    auto* info = new QVBoxLayout;
    info->addWidget(m_source);
    info->addWidget(m_summary);
    info->addStretch(1);
    top->addLayout(info, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(charts, 1);
}

QWidget* WorkloadPage::createControls()
{
    auto* box = new QGroupBox(tr("Load"));
    m_multiplier = new QDoubleSpinBox;
    m_multiplier->setObjectName(QStringLiteral("multiplier"));
    m_multiplier->setRange(0.05, 100.0);
    m_multiplier->setDecimals(2);
    m_multiplier->setSingleStep(0.5);
    m_multiplier->setPrefix(QStringLiteral("× "));
    m_multiplier->setToolTip(tr("Diurnal load multiplier: every hour's arrival rate is multiplied by it"));
    m_seed = new QSpinBox;
    m_seed->setObjectName(QStringLiteral("seed"));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setToolTip(tr("Seed of the generated arrivals, types and sizes"));
    m_import = new QPushButton(tr("Import trace…"));
    m_import->setObjectName(QStringLiteral("importTrace"));
    m_import->setToolTip(tr("Read an Alibaba, Azure, generic or jobs CSV and use its jobs as the workload"));
    auto* form = new QFormLayout(box);
    form->addRow(tr("Multiplier"), m_multiplier);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(m_import);
    box->setMinimumWidth(220);
    return box;
}

void WorkloadPage::connectSignals()
{
    connect(m_workspace, &Workspace::scenarioChanged, this, &WorkloadPage::onScenarioChanged);
    connect(m_multiplier, &QDoubleSpinBox::valueChanged, this, &WorkloadPage::scheduleEdit);
    connect(m_seed, &QSpinBox::valueChanged, this, &WorkloadPage::scheduleEdit);
    connect(m_debounce, &QTimer::timeout, this, &WorkloadPage::applyControls);
    connect(m_import, &QPushButton::clicked, this, &WorkloadPage::chooseTrace);
}

void WorkloadPage::onScenarioChanged()
{
    const auto scenario = m_workspace->scenario();
    const bool generated = scenario && scenario->workload.kind != model::WorkloadSpec::Kind::Csv;
    {
        const QSignalBlocker a(m_multiplier);
        const QSignalBlocker b(m_seed);
        if (scenario) {
            const auto& w = scenario->workload;
            m_multiplier->setValue(w.diurnal.multiplier);
            const auto seed = w.kind == model::WorkloadSpec::Kind::Poisson ? w.poisson.seed : w.diurnal.seed;
            m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(seed, std::numeric_limits<int>::max())));
        }
    }
    m_multiplier->setEnabled(scenario && scenario->workload.kind == model::WorkloadSpec::Kind::Diurnal);
    m_seed->setEnabled(generated);
    m_import->setEnabled(scenario != nullptr);
    m_source->setText(scenario ? sourceText(*scenario) : tr("No scenario open"));
    updateCharts();
}

void WorkloadPage::updateCharts()
{
    const auto scenario = m_workspace->scenario();
    std::vector<simcore::Job> jobs;
    model::Problems problems;
    if (scenario)
        jobs = model::scenarioJobs(*scenario, std::nullopt, problems);
    m_histograms = workloadHistograms(jobs, scenario ? scenario->jobTypes : std::vector<simcore::JobType>{});
    QStringList hours;
    for (int h = 0; h < 24; ++h)
        hours << QStringLiteral("%1:00").arg(h, 2, 10, QLatin1Char('0'));
    setBars(m_hourly, hours, asDoubles(m_histograms.byHour), arrivalsColour());
    setBars(m_sizes, m_histograms.sizeLabels, asDoubles(m_histograms.bySize), jobSizeBarColour());
    setBars(m_types, m_histograms.typeLabels, asDoubles(m_histograms.byType), jobTypeBarColour());
    const QLocale locale;
    QString text = tr("%1 jobs over %2 h · %3 1g-slice hours of work")
                       .arg(locale.toString(m_histograms.jobs))
                       .arg(locale.toString(m_histograms.spanMin / 60.0, 'f', 1))
                       .arg(locale.toString(m_histograms.workSliceMinutes / 60.0, 'f', 1));
    const int gpus = scenario ? scenario->gpuCount() : 0;
    if (gpus > 0 && m_histograms.spanMin > 0.0)
        text += tr(" · demand %1% of the fleet's compute-slice time")
                    .arg(locale.toString(100.0 * m_histograms.workSliceMinutes /
                                             (simcore::kWholeGpuSlices * gpus * m_histograms.spanMin),
                                         'f', 0));
    if (!problems.empty())
        text += tr(" · %1 problems reading the jobs").arg(problems.size());
    m_summary->setText(text);
}

QString WorkloadPage::summaryText() const
{
    return m_summary->text();
}

void WorkloadPage::scheduleEdit()
{
    m_debounce->start();
}

void WorkloadPage::applyControls()
{
    const auto scenario = m_workspace->scenario();
    if (!scenario)
        return;
    model::Scenario edited = *scenario;
    auto& w = edited.workload;
    const auto seed = static_cast<std::uint64_t>(m_seed->value());
    if (w.diurnal.multiplier == m_multiplier->value() && w.diurnal.seed == seed && w.poisson.seed == seed)
        return;
    w.diurnal.multiplier = m_multiplier->value();
    w.diurnal.seed = seed;
    w.poisson.seed = seed;
    m_workspace->editScenario(std::move(edited),
                              tr("Load × %1, seed %2").arg(m_multiplier->value()).arg(m_seed->value()));
}

void WorkloadPage::chooseTrace()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import trace"), QString(),
                                                      tr("CSV traces (*.csv *.txt);;All files (*)"));
    if (!path.isEmpty())
        importTrace(path);
}

bool WorkloadPage::importTrace(const QString& path)
{
    const auto scenario = m_workspace->scenario();
    if (!scenario)
        return false;
    ImportDialog dialog(path, *scenario, this);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    const QString jobs = dialog.writeJobs();
    if (jobs.isEmpty())
        return false;
    useJobsFile(jobs, tr("Workload from %1").arg(QFileInfo(path).fileName()));
    return true;
}

void WorkloadPage::useJobsFile(const QString& jobsCsv, const QString& what)
{
    const auto scenario = m_workspace->scenario();
    if (!scenario)
        return;
    model::Scenario edited = *scenario;
    edited.workload.kind = model::WorkloadSpec::Kind::Csv;
    edited.workload.csvPath = QFileInfo(jobsCsv).absoluteFilePath().toStdString();
    m_workspace->editScenario(std::move(edited), what);
}

} // namespace ui

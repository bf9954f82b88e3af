// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportaction.h"

#include "report_data.h"
#include "reportwriter.h"
#include "workspace.h"

#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressDialog>

namespace ui {

namespace {

model::ReportRun reportRun(const model::PolicyChoice& scheduler, const model::PolicyChoice& repartitioner,
                           const RunSnapshot& snapshot, std::uint64_t seed,
                           const std::optional<model::PolicyChoice>& autoscaler = std::nullopt)
{
    model::ReportRun run;
    run.scheduler = scheduler.id;
    run.repartitioner = repartitioner.id;
    run.autoscaler = autoscaler; // the run's label names it (docs/services.md)
    run.seed = seed;
    run.metrics = snapshot.result->metrics;
    run.result = snapshot.result;
    run.services = snapshot.services;
    return run;
}

std::uint64_t scenarioSeed(const model::Scenario& scenario)
{
    return scenario.workload.kind == model::WorkloadSpec::Kind::Poisson ? scenario.workload.poisson.seed
                                                                        : scenario.workload.diurnal.seed;
}

QString defaultName(const Workspace& workspace)
{
    const QFileInfo file(workspace.scenarioPath());
    return (file.completeBaseName().isEmpty() ? QStringLiteral("migsight") : file.completeBaseName()) +
           QStringLiteral("-report.pdf");
}

} // namespace

model::ReportData workspaceReport(const Workspace& workspace, const QList<int>& preferred,
                                  const model::Objective& objective, int baselineKey)
{
    model::ReportData data;
    data.objective = objective;
    data.scenario = workspace.scenario();
    data.source = workspace.scenarioPath().toStdString();
    if (!data.scenario)
        return data;
    const std::uint64_t seed = scenarioSeed(*data.scenario);
    QList<int> keys;
    for (int key : preferred)
        if (workspace.runSpec(key))
            keys << key;
    if (keys.isEmpty())
        for (const RunSpec& spec : workspace.runs())
            keys << spec.key;
    for (int key : keys) {
        const RunSpec* spec = workspace.runSpec(key);
        if (!spec->latest || spec->stale() || spec->running()) {
            data.notes.push_back(spec->label().toStdString() + " was left out: its result is not up to date");
            continue;
        }
        if (!spec->variant.isEmpty()) { // the report describes one scenario and its bounds
            data.notes.push_back(spec->label().toStdString() +
                                 " was left out: reports do not cover variants yet (docs/planning.md, Variants)");
            continue;
        }
        if (data.runs.size() >= model::kMaxReportRuns)
            continue;
        data.runs.push_back(reportRun(spec->scheduler, spec->repartitioner, *spec->latest, seed, spec->autoscaler));
        if (key == baselineKey)
            data.baseline = data.runs.back().label();
    }
    if (data.runs.empty() && workspace.lastRun())
        data.runs.push_back(
            reportRun(workspace.lastRun()->scheduler, workspace.lastRun()->repartitioner, *workspace.lastRun(), seed));
    if (const BoundsPtr bounds = workspace.bounds()) {
        data.bounds.push_back(*bounds);
        for (model::ReportRun& run : data.runs)
            run.bounds = 0;
    }
    return data;
}

void exportReportDialog(QWidget* parent, const Workspace& workspace, const QList<int>& preferred,
                        const model::Objective& objective, int baselineKey)
{
    const model::ReportData data = workspaceReport(workspace, preferred, objective, baselineKey);
    if (data.runs.empty()) {
        QMessageBox::information(parent, QObject::tr("Export report"),
                                 QObject::tr("There is no finished run to report yet: open a scenario, add runs on "
                                             "the Runs page and wait for their results."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export report"), defaultName(workspace),
                                                      QObject::tr("PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    QProgressDialog progress(QObject::tr("Writing the report…"), QString(), 0, 1, parent);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    QString error;
    const bool ok = writeReport(data, path, &error, [&progress](int page, int pages) {
        progress.setMaximum(pages);
        progress.setValue(page);
        QApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    });
    progress.reset();
    if (!ok)
        QMessageBox::warning(parent, QObject::tr("Export report failed"), error);
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
// The report's page of platform figures (docs/tenants.md, "Results"), and the cells the Compare
// page shows for the same figures.
#include "reporttenants.h"

#include "report_data.h"
#include "reporttable.h"
#include "tenant_report.h"

#include <QLocale>
#include <QObject>
#include <QPainter>

#include <memory>

namespace ui {

namespace {

QString percent(double share)
{
    return fixedNumber(100.0 * share, 1) + QStringLiteral(" %");
}

} // namespace

bool hasPlatformFigures(const model::Scenario& scenario, const simcore::RunResult& result)
{
    return scenario.platform.active() || result.platform.gangs > 0;
}

QStringList platformHeaders()
{
    return {QObject::tr("Jain\nindex"),
            QObject::tr("Goodput"),
            QObject::tr("Work lost\n(1g-min)"),
            QObject::tr("Restarts"),
            QObject::tr("Failures\nGPU / inst."),
            QObject::tr("Gang wait\nmean / max (min)"),
            QObject::tr("Taken\nback")};
}

QStringList platformCells(const model::TenantReport& r)
{
    const simcore::PlatformStats& s = r.stats;
    const QString dash = QStringLiteral("–");
    return {r.tenants.empty() ? dash : fixedNumber(r.jainFairness, 3),
            s.faults ? percent(s.goodput) : dash,
            s.faults ? fixedNumber(s.lostWork1gMin, 1) : dash,
            QString::number(s.restarts),
            s.faults ? QStringLiteral("%1 / %2").arg(s.gpuFailures).arg(s.instanceFailures) : dash,
            r.gangsStarted > 0
                ? QStringLiteral("%1 / %2").arg(fixedNumber(r.gangMeanWaitMin, 1), fixedNumber(r.gangMaxWaitMin, 1))
                : dash,
            QString::number(s.preemptionsBack)};
}

QStringList tenantHeaders()
{
    return {QObject::tr("Quota\nshare"),
            QObject::tr("Share of\nthe fleet"),
            QObject::tr("Avg tardiness\n(min)"),
            QObject::tr("Mean wait\n(min)"),
            QObject::tr("Jobs"),
            QObject::tr("Completed"),
            QObject::tr("Taken\nback")};
}

std::vector<QStringList> tenantRows(const model::TenantReport& r)
{
    std::vector<QStringList> rows;
    for (const model::TenantRow& t : r.tenants)
        rows.push_back({QString::fromStdString(t.name), t.quotaSlices > 0 ? percent(t.quotaShare) : QStringLiteral("–"),
                        percent(t.capacityShare), fixedNumber(t.avgTardinessMin, 2), fixedNumber(t.meanWaitMin, 2),
                        QString::number(t.jobs), QString::number(t.completed), QString::number(t.preemptedBack)});
    return rows;
}

namespace {

void paintTenantsPage(QPainter& p, const QRectF& body, const model::ReportData& data, const ReportStyle& style)
{
    std::vector<model::TenantReport> reports;
    std::vector<size_t> runs;
    for (size_t i = 0; i < data.runs.size(); ++i)
        if (data.runs[i].result) {
            reports.push_back(model::tenantReport(*data.scenario, *data.runs[i].result));
            runs.push_back(i);
        }
    QStringList headers{QObject::tr("Run")};
    headers << platformHeaders();
    std::vector<QStringList> rows;
    std::vector<int> swatches;
    for (size_t k = 0; k < reports.size(); ++k) {
        QStringList row{QStringLiteral("%1  %2")
                            .arg(QChar(u'A' + static_cast<char16_t>(runs[k])))
                            .arg(QString::fromStdString(data.runs[runs[k]].label()))};
        row << platformCells(reports[k]);
        rows.push_back(row);
        swatches.push_back(static_cast<int>(runs[k]));
    }
    double y = body.top();
    y += paintTable(p, QRectF(body.left(), y, body.width(), body.height()), style, headers, rows, swatches);
    y += 6.0;
    y += drawNote(p, QRectF(body.left(), y, body.width(), 200.0), style,
                  QObject::tr("Jain's fairness index over the tenants of x = share of the fleet / quota share "
                              "(1 = every tenant got the same multiple of its quota); goodput = 1 - (lost + "
                              "restart) / busy compute-slice minutes; work lost to failures since the jobs' last "
                              "checkpoints; gang wait from a gang's release to its all-together start; taken "
                              "back: borrowing jobs preempted for a tenant under its quota (docs/tenants.md)."));
    // Per tenant: one block of rows per run, the run's colour on its first row.
    QStringList tenantHeader{QObject::tr("Run · tenant")};
    tenantHeader << tenantHeaders();
    std::vector<QStringList> tenantTable;
    std::vector<int> tenantSwatches;
    for (size_t k = 0; k < reports.size(); ++k) {
        for (QStringList row : tenantRows(reports[k])) {
            row[0] = QStringLiteral("%1 · %2").arg(QChar(u'A' + static_cast<char16_t>(runs[k]))).arg(row[0]);
            tenantTable.push_back(row);
            tenantSwatches.push_back(static_cast<int>(runs[k]));
        }
    }
    if (tenantTable.empty())
        return;
    y += 16.0;
    paintTable(p, QRectF(body.left(), y, body.width(), body.bottom() - y), style, tenantHeader, tenantTable,
               tenantSwatches);
}

} // namespace

std::vector<ReportPage> tenantPages(const model::ReportData& data, const ReportStyle& style)
{
    bool any = false;
    for (const model::ReportRun& r : data.runs)
        any = any || (r.result && hasPlatformFigures(*data.scenario, *r.result));
    if (!any)
        return {};
    const model::ReportData* d = &data;
    return {{QObject::tr("Tenants, faults and gang jobs"),
             [d, style](QPainter& p, const QRectF& body) { paintTenantsPage(p, body, *d, style); }}};
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
// ComparePage's platform figures (docs/tenants.md, "Results"): per run Jain's index, goodput, work
// lost, restarts, failures and gang waits; per run and tenant its share against its quota,
// tardiness and wait. The same cells as the report's "Tenants, faults and gang jobs" page.
#include "comparepage.h"
#include "reporttenants.h"
#include "seriescolours.h"
#include "tenant_report.h"
#include "workspace.h"

#include <QLabel>

namespace ui {

namespace {

QString headerCells(const QString& first, const QStringList& headers)
{
    QString html = QStringLiteral("<tr><th align='left'>%1</th>").arg(first);
    for (const QString& h : headers)
        html += QStringLiteral("<th align='right'>%1</th>").arg(h.toHtmlEscaped().replace(QLatin1Char('\n'), "<br>"));
    return html + QStringLiteral("</tr>");
}

QString rowCells(const QString& swatch, const QStringList& cells)
{
    QString html = QStringLiteral("<tr><td>%1%2</td>").arg(swatch, cells.front().toHtmlEscaped());
    for (qsizetype c = 1; c < cells.size(); ++c)
        html += QStringLiteral("<td align='right'>%1</td>").arg(cells[c].toHtmlEscaped());
    return html + QStringLiteral("</tr>");
}

} // namespace

QString ComparePage::tenantsText() const
{
    return m_tenants->text(); // cleared when no shown run has such figures
}

void ComparePage::refreshTenants()
{
    const QList<int> keys = runs();
    QString runsHtml;
    QString tenantsHtml;
    bool any = false;
    for (int i = 0; i < kMaxRuns; ++i) {
        const RunSpec* spec = m_workspace->runSpec(keys[i]);
        if (!spec || !spec->latest || !hasPlatformFigures(*spec->latest->scenario, *spec->latest->result))
            continue;
        any = true;
        const model::TenantReport report = model::tenantReport(*spec->latest->scenario, *spec->latest->result);
        const QString swatch = QStringLiteral("<span style='color:%1'>■</span> ").arg(runColour(i).name());
        const QString name = QStringLiteral("%1 %2").arg(QChar(u'A' + i)).arg(spec->label());
        QStringList cells{name};
        cells << platformCells(report);
        runsHtml += rowCells(swatch, cells);
        for (QStringList row : tenantRows(report)) {
            row[0] = QStringLiteral("%1 · %2").arg(QChar(u'A' + i)).arg(row[0]);
            tenantsHtml += rowCells(swatch, row);
        }
    }
    m_tenants->setVisible(any);
    if (!any) {
        m_tenants->clear();
        return;
    }
    QString html = tr("<b>Tenants, faults and gang jobs</b> <small>(docs/tenants.md, Results)</small>");
    html += QStringLiteral("<table cellspacing='0' cellpadding='3'>") + headerCells(tr("Run"), platformHeaders()) +
            runsHtml + QStringLiteral("</table>");
    if (!tenantsHtml.isEmpty())
        html += QStringLiteral("<table cellspacing='0' cellpadding='3'>") +
                headerCells(tr("Run · tenant"), tenantHeaders()) + tenantsHtml + QStringLiteral("</table>");
    m_tenants->setText(html);
}

} // namespace ui

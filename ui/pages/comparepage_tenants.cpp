// SPDX-License-Identifier: GPL-3.0-or-later
// ComparePage's platform figures (docs/tenants.md, "Results"): per run Jain's index, goodput, work
// lost, restarts, failures and gang waits; per run and tenant its share against its quota,
// tardiness and wait. The same cells as the report's "Tenants, faults and gang jobs" page.
#include "comparepage.h"
#include "comparepage_html.h"
#include "palette.h"
#include "reporttenants.h"
#include "tenant_report.h"
#include "workspace.h"

#include <QLabel>

namespace ui {

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
        runsHtml += compareRowCells(swatch, cells);
        for (QStringList row : tenantRows(report)) {
            row[0] = QStringLiteral("%1 · %2").arg(QChar(u'A' + i)).arg(row[0]);
            tenantsHtml += compareRowCells(swatch, row);
        }
    }
    m_tenants->setVisible(any);
    if (!any) {
        m_tenants->clear();
        return;
    }
    QString html = tr("<b>Tenants, faults and gang jobs</b> <small>(docs/tenants.md, Results)</small>");
    html += QStringLiteral("<table cellspacing='0' cellpadding='3'>") +
            compareHeaderCells(tr("Run"), platformHeaders()) + runsHtml + QStringLiteral("</table>");
    if (!tenantsHtml.isEmpty())
        html += QStringLiteral("<table cellspacing='0' cellpadding='3'>") +
                compareHeaderCells(tr("Run · tenant"), tenantHeaders()) + tenantsHtml + QStringLiteral("</table>");
    m_tenants->setText(html);
}

} // namespace ui

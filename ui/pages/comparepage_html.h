// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Rich-text tables of ComparePage's figures (tenants, services): the same cells as the report's.

#include <QString>
#include <QStringList>

namespace ui {

/// A header row: the first column left-aligned, the others right-aligned ('\n' breaks a header).
inline QString compareHeaderCells(const QString& first, const QStringList& headers)
{
    QString html = QStringLiteral("<tr><th align='left'>%1</th>").arg(first);
    for (const QString& h : headers)
        html += QStringLiteral("<th align='right'>%1</th>").arg(h.toHtmlEscaped().replace(QLatin1Char('\n'), "<br>"));
    return html + QStringLiteral("</tr>");
}

/// A row: @p swatch (the run's colour square) and the first cell, then the others right-aligned.
inline QString compareRowCells(const QString& swatch, const QStringList& cells)
{
    QString html = QStringLiteral("<tr><td>%1%2</td>").arg(swatch, cells.front().toHtmlEscaped());
    for (qsizetype c = 1; c < cells.size(); ++c)
        html += QStringLiteral("<td align='right'>%1</td>").arg(cells[c].toHtmlEscaped());
    return html + QStringLiteral("</tr>");
}

} // namespace ui

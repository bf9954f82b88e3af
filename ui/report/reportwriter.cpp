// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportwriter.h"

#include "atomic_file.h"
#include "palette.h"
#include "report_data.h"
#include "reportpages.h"
#include "reportservices.h"
#include "reporttenants.h"
#include "savefile.h"

#include <QBuffer>
#include <QDateTime>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <qcustomplot.h>

namespace ui {

namespace {

constexpr double kMargin = 44.0; // 96 dpi units: 11.6 mm

std::vector<ReportPage> allPages(const model::ReportData& data, const ReportStyle& style)
{
    std::vector<ReportPage> pages = summaryPages(data, style);
    for (ReportPage& page : tenantPages(data, style))
        pages.push_back(std::move(page));
    for (ReportPage& page : servicePages(data, style))
        pages.push_back(std::move(page));
    for (ReportPage& page : chartPages(data, style))
        pages.push_back(std::move(page));
    return pages;
}

/// The page title over a rule, and the footer: version, scenario, date and "page i of n".
void paintFrame(QPainter& painter, const QRectF& page, const ReportPage& content, const model::ReportData& data,
                const ReportStyle& style, int index, int count)
{
    const QRectF inner = page.adjusted(kMargin, kMargin * 0.8, -kMargin, -kMargin * 0.7);
    painter.setPen(Qt::black);
    if (!content.title.isEmpty()) {
        painter.setFont(style.heading);
        painter.drawText(QRectF(inner.left(), inner.top(), inner.width(), 26.0), Qt::AlignLeft | Qt::AlignVCenter,
                         content.title);
        painter.setPen(QPen(paperBorderColour(), 1.0));
        painter.drawLine(QPointF(inner.left(), inner.top() + 30.0), QPointF(inner.right(), inner.top() + 30.0));
    }
    painter.setFont(style.small);
    painter.setPen(paperMutedTextColour());
    const QRectF footer(inner.left(), inner.bottom() - 14.0, inner.width(), 14.0);
    const QString scenario = data.scenario ? QString::fromStdString(data.scenario->name) : QString();
    painter.drawText(footer, Qt::AlignLeft | Qt::AlignVCenter,
                     QObject::tr("MIGsight %1 report · %2").arg(QStringLiteral(MIGSIGHT_UI_VERSION), scenario));
    painter.drawText(footer, Qt::AlignRight | Qt::AlignVCenter, QObject::tr("Page %1 of %2").arg(index + 1).arg(count));
}

QRectF bodyRect(const QRectF& page, bool titled)
{
    const QRectF inner = page.adjusted(kMargin, kMargin * 0.8, -kMargin, -kMargin * 0.7);
    return inner.adjusted(0.0, titled ? 42.0 : 0.0, 0.0, -24.0);
}

bool paintPages(QPdfWriter& writer, const std::vector<ReportPage>& pages, const model::ReportData& data,
                const ReportStyle& style, const std::function<void(int, int)>& progress)
{
    QCPPainter painter;
    if (!painter.begin(&writer))
        return false;
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNonCosmetic);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF page(0.0, 0.0, writer.width(), writer.height());
    for (size_t i = 0; i < pages.size(); ++i) {
        if (progress)
            progress(static_cast<int>(i), static_cast<int>(pages.size()));
        if (i > 0 && !writer.newPage())
            return false;
        painter.save();
        paintFrame(painter, page, pages[i], data, style, static_cast<int>(i), static_cast<int>(pages.size()));
        painter.restore();
        painter.save();
        pages[i].paint(painter, bodyRect(page, !pages[i].title.isEmpty()));
        painter.restore();
    }
    return painter.end();
}

} // namespace

int reportPageCount(const model::ReportData& data)
{
    return static_cast<int>(allPages(data, reportStyle()).size());
}

bool writeReport(const model::ReportData& data, const QString& path, QString* error,
                 const std::function<void(int, int)>& progress)
{
    auto fail = [&](const QString& why) {
        if (error)
            *error = QObject::tr("cannot write the report %1: %2").arg(path, why);
        return false;
    };
    if (!data.scenario)
        return fail(QObject::tr("no scenario"));
    try {
        (void)model::checkOutputTarget(path.toStdString()); // a device, FIFO or folder: refused before painting
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    QByteArray pdf;
    QBuffer file(&pdf);
    file.open(QIODevice::WriteOnly);
    const ReportStyle style = reportStyle();
    const std::vector<ReportPage> pages = allPages(data, style);
    bool painted = false;
    {
        QPdfWriter writer(&file);
        writer.setResolution(96);
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(0, 0, 0, 0)));
        writer.setCreator(QStringLiteral("MIGsight %1").arg(QStringLiteral(MIGSIGHT_UI_VERSION)));
        writer.setTitle(QObject::tr("MIGsight report: %1").arg(QString::fromStdString(data.scenario->name)));
        painted = paintPages(writer, pages, data, style, progress);
    }
    if (!painted)
        return fail(QObject::tr("the PDF could not be painted"));
    QString why;
    return saveFileAtomically(path, pdf, &why) || fail(why);
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "chartexport.h"

#include "chartwidget.h"
#include "savefile.h"

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSvgGenerator>
#include <QTemporaryDir>
#include <qcustomplot.h>

namespace ui {

namespace {

bool exportSvg(QCustomPlot& plot, const QString& path, QSize logical, double dpi)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(logical);
    generator.setViewBox(QRect(QPoint(0, 0), logical));
    generator.setResolution(qRound(dpi));
    generator.setTitle(plot.objectName());
    QCPPainter painter;
    if (!painter.begin(&generator))
        return false;
    plot.toPainter(&painter, logical.width(), logical.height());
    return painter.end();
}

bool readAll(const QString& path, QByteArray& bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    bytes = file.readAll();
    return true;
}

} // namespace

ExportFormat formatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("svg"))
        return ExportFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    return ExportFormat::Png;
}

bool exportChart(const ChartWidget& chart, const QString& path, const ExportSpec& spec, QString* error)
{
    QCustomPlot& plot = *chart.plot();
    const double scale = spec.dpi / 96.0;
    bool ok = false;
    QByteArray bytes;
    QTemporaryDir scratch; // the vector formats are written to a file first, then renamed into place
    const QString vector = scratch.filePath(QStringLiteral("chart"));
    switch (spec.format) {
    case ExportFormat::Png: {
        // Lay out at size / scale and render scaled: the image has exactly the asked pixels.
        const int w = qRound(spec.size.width() / scale);
        const int h = qRound(spec.size.height() / scale);
        QPixmap pixmap = plot.toPixmap(w, h, scale);
        if (pixmap.size() != spec.size)
            pixmap = pixmap.scaled(spec.size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        QImage image = pixmap.toImage();
        image.setDotsPerMeterX(qRound(spec.dpi / 0.0254));
        image.setDotsPerMeterY(qRound(spec.dpi / 0.0254));
        QBuffer buffer(&bytes);
        ok = buffer.open(QIODevice::WriteOnly) && image.save(&buffer, "PNG");
        break;
    }
    case ExportFormat::Svg:
        ok = scratch.isValid() && exportSvg(plot, vector, spec.size, spec.dpi) && readAll(vector, bytes);
        break;
    case ExportFormat::Pdf:
        ok = scratch.isValid() &&
             plot.savePdf(vector, spec.size.width(), spec.size.height(), QCP::epNoCosmetic, QStringLiteral("MIGsight"),
                          chart.title()) &&
             readAll(vector, bytes);
        break;
    }
    plot.replot(QCustomPlot::rpQueuedReplot); // toPixmap/savePdf lay the plot out at another size
    if (!ok) {
        if (error)
            *error = QObject::tr("cannot write %1").arg(path);
        return false;
    }
    return saveFileAtomically(path, bytes, error);
}

void copyChartToClipboard(const ChartWidget* chart, QSize size)
{
    if (!size.isValid())
        size = chart->plot()->size();
    QApplication::clipboard()->setPixmap(chart->toPixmap(size.width(), size.height()));
}

void exportChartDialog(ChartWidget* chart)
{
    // The folder of the last export, else Pictures (else home): not wherever the studio was started.
    QSettings settings;
    QString folder = settings.value(QStringLiteral("export/chartFolder")).toString();
    if (folder.isEmpty() || !QDir(folder).exists())
        folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (folder.isEmpty() || !QDir(folder).exists())
        folder = QDir::homePath();
    // "Occupancy by instance: A cedf / static" -> occupancy-by-instance-a-cedf-static.png
    QString name = chart->title().toLower();
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    name = name.section(QLatin1Char('-'), 0, -1, QString::SectionSkipEmpty) + QStringLiteral(".png");
    const QString path =
        QFileDialog::getSaveFileName(chart, QObject::tr("Export chart"), QDir(folder).filePath(name),
                                     QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("export/chartFolder"), QFileInfo(path).absolutePath());
    QDialog dialog(chart);
    dialog.setWindowTitle(QObject::tr("Export size"));
    auto* form = new QFormLayout(&dialog);
    auto* width = new QSpinBox;
    auto* height = new QSpinBox;
    auto* dpi = new QDoubleSpinBox;
    width->setRange(100, 20000);
    height->setRange(100, 20000);
    dpi->setRange(48, 1200);
    width->setValue(chart->plot()->width());
    height->setValue(chart->plot()->height());
    dpi->setValue(96);
    form->addRow(QObject::tr("Width (px)"), width);
    form->addRow(QObject::tr("Height (px)"), height);
    form->addRow(QObject::tr("DPI"), dpi);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const ExportSpec spec{formatForPath(path), QSize(width->value(), height->value()), dpi->value()};
    QString error;
    if (!exportChart(*chart, path, spec, &error))
        QMessageBox::warning(chart, QObject::tr("Export failed"), error);
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
// Exports as a user gets them: charts to PNG/SVG/PDF at a chosen size and DPI, the clipboard,
// the runs table to CSV.
#include "barschart.h"
#include "chartexport.h"
#include "comparepage.h"
#include "ganttchart.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "runsmodel.h"
#include "runspage.h"
#include "serieschart.h"
#include "tableexport.h"
#include "workspace.h"

#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

namespace {

using guitest::allDone;
using guitest::kRunTimeoutMs;

QByteArray head(const QString& path, int bytes)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(bytes) : QByteArray();
}

} // namespace

class TestExport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void chartsToPngSvgPdf();
    void chartToClipboard();
    void runsTableToCsv();
    void formatFromSuffix();
    void nonRegularTargetsAreRefused();

private:
    std::unique_ptr<ui::MainWindow> m_window;
    QTemporaryDir m_dir;
};

void TestExport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_window = std::make_unique<ui::MainWindow>();
    m_window->show();
    QVERIFY(m_window->openScenario(QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/quickstart.json")));
    ui::Workspace* workspace = m_window->workspace();
    const int a = workspace->addRun({"edf-most-packed", {}}, {"static", {}});
    const int b = workspace->addRun({"sjf", {}}, {"none", {}});
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*workspace), kRunTimeoutMs);
    m_window->comparePage()->setRuns({a, b});
    m_window->showPage(QStringLiteral("compare"));
}

void TestExport::chartsToPngSvgPdf()
{
    ui::ComparePage* page = m_window->comparePage();
    const std::vector<ui::ChartWidget*> charts{page->energyChart(), page->barsChart(), page->gantt(0)};
    for (ui::ChartWidget* chart : charts) {
        const QString base = m_dir.filePath(chart->objectName());
        QString error;
        // 1000x500 pixels at 192 dpi: the layout of 500x250 at twice the detail.
        QVERIFY2(ui::exportChart(*chart, base + QStringLiteral(".png"),
                                 {ui::ExportFormat::Png, QSize(1000, 500), 192.0}, &error),
                 qPrintable(error));
        const QImage image(base + QStringLiteral(".png"));
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1000, 500));
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 192);

        QVERIFY(ui::exportChart(*chart, base + QStringLiteral(".svg"), {ui::ExportFormat::Svg, QSize(800, 400), 96.0}));
        const QByteArray svg = head(base + QStringLiteral(".svg"), 4096);
        QVERIFY(svg.startsWith("<?xml"));
        QVERIFY(svg.contains("<svg"));
        QVERIFY(svg.contains("width=\"")); // the requested size is recorded

        QVERIFY(ui::exportChart(*chart, base + QStringLiteral(".pdf"), {ui::ExportFormat::Pdf, QSize(800, 400), 96.0}));
        QVERIFY(head(base + QStringLiteral(".pdf"), 5).startsWith("%PDF-"));
        QVERIFY(QFileInfo(base + QStringLiteral(".pdf")).size() > 1000);
    }
    QVERIFY(!ui::exportChart(*charts[0], QStringLiteral("/nonexistent/dir/x.png"), {}));
}

void TestExport::chartToClipboard()
{
    ui::copyChartToClipboard(m_window->comparePage()->queueChart(), QSize(640, 320));
    const QImage image = QGuiApplication::clipboard()->image();
    QVERIFY(!image.isNull());
    QCOMPARE(image.width(), 640);
}

void TestExport::runsTableToCsv()
{
    const QString path = m_dir.filePath(QStringLiteral("runs.csv"));
    QVERIFY(m_window->runsPage()->exportCsv(path));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[0].startsWith(QStringLiteral("Run,Status,Energy (kWh)")));
    QVERIFY(lines[1].startsWith(QStringLiteral("edf-most-packed / static,done,")));
}

void TestExport::formatFromSuffix()
{
    QCOMPARE(ui::formatForPath(QStringLiteral("a.SVG")), ui::ExportFormat::Svg);
    QCOMPARE(ui::formatForPath(QStringLiteral("a.pdf")), ui::ExportFormat::Pdf);
    QCOMPARE(ui::formatForPath(QStringLiteral("a.png")), ui::ExportFormat::Png);
}

void TestExport::nonRegularTargetsAreRefused()
{
    // Studio writes go through model::writeFileAtomically as migsight-cli's do (docs/limits.md): a
    // FIFO (or a device such as /dev/null) is refused with the CLI's message and left as it was.
    const QString fifo = m_dir.filePath(QStringLiteral("pipe"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    auto isFifo = [&fifo] {
        struct stat st
        {
        };
        return ::stat(fifo.toLocal8Bit().constData(), &st) == 0 && S_ISFIFO(st.st_mode);
    };
    QString error;
    QVERIFY(!ui::saveModelCsv(fifo, *m_window->runsPage()->runsModel(), &error));
    QVERIFY2(error.contains(QStringLiteral("FIFO")) && error.contains(fifo), qPrintable(error));
    error.clear();
    QVERIFY(!ui::exportChart(*m_window->comparePage()->energyChart(), fifo, {}, &error));
    QVERIFY2(error.contains(QStringLiteral("FIFO")), qPrintable(error));
    QVERIFY(isFifo());
}

QTEST_MAIN(TestExport)
#include "tst_export.moc"

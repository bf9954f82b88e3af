// SPDX-License-Identifier: GPL-3.0-or-later
// Help > "Reproduce the papers' figures...": the dialog runs an experiment in the background and
// writes its three files (docs/reproducing-the-papers.md); Cancel stops a run without writing.
#include "experiments.h"
#include "reproducedialog.h"

#include <QFileInfo>
#include <QListWidget>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

class TstReproduceDialog : public QObject
{
    Q_OBJECT

private slots:
    void runsAndWritesTheFiles()
    {
        QTemporaryDir dir;
        ui::ReproduceDialog dialog;
        auto* list = dialog.findChild<QListWidget*>(QStringLiteral("experimentList"));
        QVERIFY(list);
        QCOMPARE(list->count(), static_cast<int>(model::experiments().size()));
        dialog.select(0); // gpu-count, the smallest
        QCOMPARE(model::experiments().front().id, std::string("gpu-count"));
        dialog.setFolder(dir.filePath("out"));
        dialog.run();
        QVERIFY(dialog.running());
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.running(), 120000);
        QVERIFY2(dialog.statusText().startsWith("Wrote"), qPrintable(dialog.statusText()));
        for (const char* suffix : {".csv", ".png", ".pdf"})
            QVERIFY(QFileInfo(dir.filePath(QStringLiteral("out/gpu-count") + suffix)).size() > 0);
    }

    void cancelWritesNothing()
    {
        QTemporaryDir dir;
        ui::ReproduceDialog dialog;
        dialog.select(3); // tardiness-bound: one LP per day, long enough to cancel
        QCOMPARE(model::experiments()[3].id, std::string("tardiness-bound"));
        dialog.setFolder(dir.path());
        dialog.run();
        QVERIFY(dialog.running());
        const auto cancel = dialog.findChildren<QPushButton*>();
        for (QPushButton* b : cancel)
            if (b->text() == QStringLiteral("Cancel run"))
                b->click();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.running(), 120000);
        QVERIFY2(dialog.statusText().contains("cancelled"), qPrintable(dialog.statusText()));
        QVERIFY(!QFileInfo::exists(dir.filePath("tardiness-bound.csv")));
    }
};

QTEST_MAIN(TstReproduceDialog)
#include "tst_reproducedialog.moc"

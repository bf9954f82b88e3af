// SPDX-License-Identifier: GPL-3.0-or-later
// The layout editor as a user drives it: drag profiles onto GPUs, see refusals, select, move and
// delete instances, undo and redo, apply gallery layouts, resize the fleet.
#include "fleetsettings.h"
#include "gui_test_support.h"
#include "layouteditor.h"
#include "layouteditorcanvas.h"
#include "layouteditorpalette.h"
#include "layoutgallery.h"
#include "scenariofile.h"
#include "workspace.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QListView>
#include <QMimeData>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

#include <memory>

namespace {

using guitest::sample;

using simcore::Layout;

std::vector<Layout> layouts(const ui::Workspace& ws)
{
    std::vector<Layout> all;
    for (const auto& gpu : ws.scenario()->fleetGpus())
        all.push_back(gpu.layout);
    return all;
}

QString text(const ui::Workspace& ws, int gpu)
{
    const auto gpus = ws.scenario()->fleetGpus();
    return QString::fromStdString(
        simcore::layoutText(*gpus[static_cast<size_t>(gpu)].model, gpus[static_cast<size_t>(gpu)].layout));
}

/// The editor page on the quick-start scenario (GPU 0: 4g.20gb@0 3g.20gb@4; GPU 1 full of small ones).
struct Fixture
{
    ui::Workspace workspace;
    std::unique_ptr<ui::LayoutEditorPage> page;

    Fixture()
    {
        ui::LoadedScenario loaded = ui::loadScenarioFile(sample("quickstart.json"));
        workspace.setScenario(std::move(loaded.scenario), sample("quickstart.json"));
        page = std::make_unique<ui::LayoutEditorPage>(&workspace);
        page->resize(1280, 720);
        page->show();
        page->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(page.get()));
    }
    ui::LayoutCanvas* canvas() const { return page->canvas(); }
    int row(const char* profile) const
    {
        const auto* model = page->paletteModel();
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->index(r, 0).data().toString() == QLatin1String(profile))
                return r;
        return -1;
    }
    /// Drags palette item @p profile over GPU @p gpu's memory slice @p slice and drops it there.
    void dragDrop(const char* profile, int gpu, int slice)
    {
        std::unique_ptr<QMimeData> mime(page->paletteModel()->mimeData({page->paletteModel()->index(row(profile), 0)}));
        const QPoint pos = canvas()->slicePoint(gpu, slice).toPoint();
        QDragEnterEvent enter(pos, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(canvas(), &enter);
        QDragMoveEvent move(pos, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(canvas(), &move);
        QDropEvent drop(pos, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(canvas(), &drop);
    }
    QPoint blockCentre(int gpu, int instance) const
    {
        return canvas()
            ->currentGeometry()
            .cards[static_cast<size_t>(gpu)]
            .blocks[static_cast<size_t>(instance)]
            .center()
            .toPoint();
    }
};

} // namespace

class TestLayoutEditor : public QObject
{
    Q_OBJECT

private slots:
    void itemModels();
    void dropOnAllowedStartPlaces();
    void refusedStartShowsReasonAndKeepsLayout();
    void deleteAndMoveWithMouseAndKeys();
    void undoRedoRestoresLayoutsExactly();
    void galleryAppliesToSelectionAndFleet();
    void fleetCountAndBoard();
    void openingAScenarioStartsANewHistory();
};

void TestLayoutEditor::itemModels()
{
    Fixture f;
    ui::ProfilePaletteModel palette;
    QAbstractItemModelTester paletteTester(&palette, QAbstractItemModelTester::FailureReportingMode::QtTest);
    palette.setBoard(f.workspace.scenario()->fleet.front().model);
    QCOMPARE(palette.rowCount(), 7);
    QCOMPARE(palette.index(4, 0).data().toString(), QStringLiteral("3g.20gb"));

    ui::LayoutGalleryModel gallery;
    QAbstractItemModelTester galleryTester(&gallery, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto board = f.workspace.scenario()->fleet.front().model;
    gallery.setSource(board, QStringLiteral("fleet-12"));
    QCOMPARE(gallery.rowCount(), 12);
    gallery.setSource(board, QStringLiteral("single-19"));
    QCOMPARE(gallery.rowCount(), 19);
    gallery.setSource(board, QLatin1String(ui::LayoutGalleryModel::kMaximal));
    QCOMPARE(gallery.rowCount(), static_cast<int>(simcore::enumerateLayouts(*board, true).size()));
    for (int r = 0; r < gallery.rowCount(); ++r)
        QVERIFY(simcore::isMaximal(*board, gallery.layoutAt(r)));
}

void TestLayoutEditor::dropOnAllowedStartPlaces()
{
    Fixture f;
    QVERIFY(f.page->deleteInstance(0, 1)); // GPU 0: 4g.20gb@0, slices 4..7 free
    QCOMPARE(text(f.workspace, 0), QStringLiteral("4g.20gb@0"));
    // Dropped over slice 6, a 3g (allowed starts 0 and 4) lands on the start that covers it.
    f.dragDrop("3g.20gb", 0, 6);
    QCOMPARE(text(f.workspace, 0), QStringLiteral("4g.20gb@0 3g.20gb@4"));
    QVERIFY(f.workspace.isModified());

    // The mouse-only way: click the palette item, hover (green starts), click a start.
    QVERIFY(f.page->deleteInstance(0, 1));
    const QRect item = f.page->paletteView()->visualRect(f.page->paletteModel()->index(f.row("1g.5gb"), 0));
    QTest::mouseClick(f.page->paletteView()->viewport(), Qt::LeftButton, {}, item.center());
    QTest::mouseMove(f.canvas(), f.canvas()->slicePoint(0, 5).toPoint());
    QVERIFY(f.canvas()->preview().has_value());
    QCOMPARE(f.canvas()->preview()->allowedStarts, (std::vector<int>{4, 5, 6}));
    QVERIFY(f.canvas()->preview()->reason.isEmpty());
    QTest::mouseClick(f.canvas(), Qt::LeftButton, {}, f.canvas()->slicePoint(0, 5).toPoint());
    QCOMPARE(text(f.workspace, 0), QStringLiteral("4g.20gb@0 1g.5gb@5"));
}

void TestLayoutEditor::refusedStartShowsReasonAndKeepsLayout()
{
    Fixture f;
    const auto before = layouts(f.workspace);
    f.dragDrop("1g.5gb", 0, 2); // on the 4g
    QVERIFY2(f.page->statusText().contains(QStringLiteral("overlaps 4g.20gb@0")), qPrintable(f.page->statusText()));
    QVERIFY(f.page->statusText().contains(QStringLiteral("refused")));
    QVERIFY(layouts(f.workspace) == before);
    QVERIFY(!f.workspace.isModified());

    QVERIFY(f.page->deleteInstance(0, 1));
    const auto afterDelete = layouts(f.workspace);
    f.dragDrop("1g.5gb", 0, 7); // a 1g never starts at 7
    QVERIFY2(f.page->statusText().contains(QStringLiteral("cannot start at memory slice 7")),
             qPrintable(f.page->statusText()));
    QVERIFY(layouts(f.workspace) == afterDelete);
    f.dragDrop("4g.20gb", 0, 5); // 4g only at 0: start 5 is not allowed, and 4+4 > 7 anyway
    QVERIFY(f.page->statusText().contains(QStringLiteral("refused")));
    QVERIFY(layouts(f.workspace) == afterDelete);
    QCOMPARE(f.page->undoStack()->count(), 1);
}

void TestLayoutEditor::deleteAndMoveWithMouseAndKeys()
{
    Fixture f;
    // Select the 3g with the mouse and delete it with the Delete key.
    QTest::mouseClick(f.canvas(), Qt::LeftButton, {}, f.blockCentre(0, 1));
    QVERIFY(f.canvas()->selectedInstance().has_value());
    QTest::keyClick(f.canvas(), Qt::Key_Delete);
    QCOMPARE(text(f.workspace, 0), QStringLiteral("4g.20gb@0"));

    f.dragDrop("1g.5gb", 0, 4);
    QCOMPARE(text(f.workspace, 0), QStringLiteral("4g.20gb@0 1g.5gb@4"));
    // Drag the 1g from slice 4 to slice 6.
    const QPoint from = f.blockCentre(0, 1);
    const QPoint to = f.canvas()->slicePoint(0, 6).toPoint();
    QTest::mousePress(f.canvas(), Qt::LeftButton, {}, from);
    QTest::mouseMove(f.canvas(), from + QPoint(10, 0));
    QTest::mouseMove(f.canvas(), to);
    QVERIFY(f.canvas()->preview().has_value() && f.canvas()->preview()->moving.has_value());
    QTest::mouseRelease(f.canvas(), Qt::LeftButton, {}, to);
    QCOMPARE(text(f.workspace, 0), QStringLiteral("4g.20gb@0 1g.5gb@6"));
    // Onto the 4g: refused, nothing moves.
    const QPoint again = f.blockCentre(0, 1);
    QTest::mousePress(f.canvas(), Qt::LeftButton, {}, again);
    QTest::mouseMove(f.canvas(), again - QPoint(10, 0));
    QTest::mouseMove(f.canvas(), f.canvas()->slicePoint(0, 1).toPoint());
    QTest::mouseRelease(f.canvas(), Qt::LeftButton, {}, f.canvas()->slicePoint(0, 1).toPoint());
    QCOMPARE(text(f.workspace, 0), QStringLiteral("4g.20gb@0 1g.5gb@6"));
    QVERIFY(f.page->statusText().contains(QStringLiteral("overlaps")));
    // Move to the other GPU: GPU 1 is full, so refused too.
    QVERIFY(!f.page->moveInstance(0, 1, 1, 6));
    QCOMPARE(text(f.workspace, 0), QStringLiteral("4g.20gb@0 1g.5gb@6"));
}

void TestLayoutEditor::undoRedoRestoresLayoutsExactly()
{
    Fixture f;
    std::vector<std::vector<Layout>> states{layouts(f.workspace)};
    QVERIFY(f.page->deleteInstance(1, 0));
    states.push_back(layouts(f.workspace));
    f.dragDrop("1g.5gb", 1, 1);
    states.push_back(layouts(f.workspace));
    QVERIFY(f.page->moveInstance(1, 4, 1, 0)); // the new 1g (listed last) to slice 0
    states.push_back(layouts(f.workspace));
    QVERIFY(f.page->setFleet(QStringLiteral("A100-40GB"), 3));
    states.push_back(layouts(f.workspace));
    QCOMPARE(f.page->undoStack()->count(), 4);

    f.canvas()->setFocus();
    for (int i = static_cast<int>(states.size()) - 2; i >= 0; --i) {
        QTest::keyClick(f.canvas(), Qt::Key_Z, Qt::ControlModifier);
        QVERIFY2(layouts(f.workspace) == states[static_cast<size_t>(i)], qPrintable(QString::number(i)));
    }
    QVERIFY(!f.page->undoAction()->isEnabled());
    for (size_t i = 1; i < states.size(); ++i) {
        QTest::keyClick(f.canvas(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(layouts(f.workspace) == states[i]);
    }
    QVERIFY(!f.page->redoAction()->isEnabled());
    QCOMPARE(f.canvas()->gpuCount(), 3);
}

void TestLayoutEditor::galleryAppliesToSelectionAndFleet()
{
    Fixture f;
    ui::LayoutGallery* gallery = f.page->gallery();
    QVERIFY(gallery->setSource(QStringLiteral("fleet-12")));
    QCOMPARE(gallery->model()->rowCount(), 12);

    // Select only GPU 1 (click its card's title) and give it configuration 2 (4g + 3g).
    const QRectF title = f.canvas()->currentGeometry().cards[1].title;
    QTest::mouseClick(f.canvas(), Qt::LeftButton, {}, title.center().toPoint());
    QCOMPARE(f.canvas()->selectedGpus(), (std::set<int>{1}));
    gallery->setCurrentRow(1);
    auto* applySelection = gallery->findChild<QPushButton*>(QStringLiteral("applySelection"));
    QVERIFY(applySelection->isEnabled());
    applySelection->click();
    QCOMPARE(text(f.workspace, 1), QStringLiteral("4g.20gb@0 3g.20gb@4"));
    QCOMPARE(text(f.workspace, 0), QStringLiteral("4g.20gb@0 3g.20gb@4"));

    gallery->setCurrentRow(11); // 1g x 6 + 1g.10gb
    gallery->findChild<QPushButton*>(QStringLiteral("applyFleet"))->click();
    const Layout expected = f.workspace.scenario()->fleet.front().model->findList("fleet-12")->layouts[11];
    for (const Layout& layout : layouts(f.workspace))
        QVERIFY(layout == expected);

    QVERIFY(gallery->setSource(QLatin1String(ui::LayoutGalleryModel::kMaximal)));
    QVERIFY(gallery->model()->rowCount() > 12);
}

void TestLayoutEditor::fleetCountAndBoard()
{
    Fixture f;
    const auto before = layouts(f.workspace);
    QSpinBox* count = f.page->fleetSettings()->countBox();
    count->setValue(5);
    QCOMPARE(f.workspace.scenario()->gpuCount(), 5);
    QCOMPARE(f.canvas()->gpuCount(), 5);
    const auto grown = layouts(f.workspace);
    QVERIFY(grown[0] == before[0] && grown[1] == before[1]);
    QVERIFY(grown[4] == before[1]); // new GPUs copy the last one
    count->setValue(1);
    QCOMPARE(f.workspace.scenario()->gpuCount(), 1);

    QComboBox* board = f.page->fleetSettings()->boardBox();
    board->setCurrentText(QStringLiteral("H100-80GB"));
    emit board->activated(board->currentIndex());
    QCOMPARE(QString::fromStdString(f.workspace.scenario()->fleet.front().model->name), QStringLiteral("H100-80GB"));
    QCOMPARE(text(f.workspace, 0), QStringLiteral("4g.40gb@0 3g.40gb@4"));
    QCOMPARE(f.page->paletteModel()->index(0, 0).data().toString(), QStringLiteral("1g.10gb"));
    f.page->undoAction()->trigger();
    f.page->undoAction()->trigger();
    f.page->undoAction()->trigger();
    QVERIFY(layouts(f.workspace) == before);
    QCOMPARE(count->value(), 2);
    QCOMPARE(board->currentText(), QStringLiteral("A100-40GB"));
}

void TestLayoutEditor::openingAScenarioStartsANewHistory()
{
    Fixture f;
    QVERIFY(f.page->deleteInstance(0, 0));
    QTRY_COMPARE(f.page->undoStack()->count(), 1);
    ui::LoadedScenario loaded = ui::loadScenarioFile(sample("quickstart.json"));
    f.workspace.setScenario(std::move(loaded.scenario), sample("quickstart.json"));
    QTRY_COMPARE(f.page->undoStack()->count(), 0);
    QCOMPARE(text(f.workspace, 0), QStringLiteral("4g.20gb@0 3g.20gb@4"));
}

QTEST_MAIN(TestLayoutEditor)
#include "tst_layouteditor.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
#include "layouteditor.h"

#include "catalog.h"
#include "fleetsettings.h"
#include "layouteditorcanvas.h"
#include "layouteditorcommands.h"
#include "layouteditorpalette.h"
#include "variantbar.h"
#include "workspace.h"

#include <QAction>
#include <QGroupBox>
#include <QLabel>
#include <QListView>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

namespace ui {

namespace {

std::shared_ptr<const simcore::GpuModel> catalogBoard(const QString& name)
{
    for (const auto& board : model::Catalog::builtin().models())
        if (QString::fromStdString(board->name) == name)
            return board;
    return nullptr;
}

} // namespace

LayoutEditorPage::LayoutEditorPage(Workspace* workspace, QWidget* parent)
    : QWidget(parent), m_workspace(workspace), m_undo(new QUndoStack(this))
{
    setupActions();
    setupWidgets();
    connectSignals();
    onScenarioChanged();
}

void LayoutEditorPage::setupActions()
{
    m_undoAction = m_undo->createUndoAction(this, tr("&Undo"));
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_undoAction->setObjectName(QStringLiteral("layoutUndo"));
    m_redoAction = m_undo->createRedoAction(this, tr("&Redo"));
    // Ctrl+Shift+Z everywhere, plus the platform's own redo key when it differs (Ctrl+Y on some):
    // the same sequence twice would make the shortcut ambiguous.
    QList<QKeySequence> redoKeys{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)};
    for (const QKeySequence& key : QKeySequence::keyBindings(QKeySequence::Redo))
        if (!redoKeys.contains(key))
            redoKeys << key;
    m_redoAction->setShortcuts(redoKeys);
    m_redoAction->setObjectName(QStringLiteral("layoutRedo"));
    m_deleteAction = new QAction(tr("Delete instance"), this);
    m_deleteAction->setToolTip(tr("Delete the selected instance (Delete key)"));
    m_deleteAction->setEnabled(false);
    addAction(m_undoAction);
    addAction(m_redoAction);
}

void LayoutEditorPage::setupWidgets()
{
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(createLeftColumn());
    splitter->addWidget(createCentre());
    auto* galleryBox = new QGroupBox(tr("Gallery"));
    m_gallery = new LayoutGallery;
    auto* galleryLayout = new QVBoxLayout(galleryBox);
    galleryLayout->addWidget(m_gallery);
    splitter->addWidget(galleryBox);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 0);
    splitter->setSizes({200, 700, 380});
    m_variantBar = new VariantBar(m_workspace);
    m_variantBar->setUndoStack(m_undo);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_variantBar);
    layout->addWidget(splitter, 1);
}

QWidget* LayoutEditorPage::createLeftColumn()
{
    auto* column = new QWidget;
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* fleetBox = new QGroupBox(tr("Fleet"));
    m_fleet = new FleetSettings;
    (new QVBoxLayout(fleetBox))->addWidget(m_fleet);
    auto* paletteBox = new QGroupBox(tr("Profiles"));
    m_palette = new ProfilePaletteModel(this);
    m_paletteView = new QListView;
    m_paletteView->setObjectName(QStringLiteral("profilePalette"));
    m_paletteView->setModel(m_palette);
    m_paletteView->setDragEnabled(true);
    m_paletteView->setDragDropMode(QAbstractItemView::DragOnly);
    m_paletteView->setIconSize(QSize(42, 14));
    m_paletteView->setSpacing(1);
    auto* hint = new QLabel(tr("Drag a profile onto a GPU, or click it and then click a start."));
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);
    auto* paletteLayout = new QVBoxLayout(paletteBox);
    paletteLayout->addWidget(m_paletteView);
    paletteLayout->addWidget(hint);
    layout->addWidget(fleetBox);
    layout->addWidget(paletteBox, 1);
    column->setMinimumWidth(190);
    return column;
}

QWidget* LayoutEditorPage::createCentre()
{
    auto* centre = new QWidget;
    auto* toolbar = new QToolBar;
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolbar->addAction(m_undoAction);
    toolbar->addAction(m_redoAction);
    toolbar->addSeparator();
    toolbar->addAction(m_deleteAction);
    m_canvas = new LayoutCanvas;
    m_canvas->setObjectName(QStringLiteral("layoutCanvas"));
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_canvas);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("layoutStatus"));
    m_status->setWordWrap(true);
    m_status->setMinimumHeight(2 * fontMetrics().height());
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(centre);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(toolbar);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_status);
    return centre;
}

void LayoutEditorPage::connectSignals()
{
    connect(m_workspace, &Workspace::scenarioChanged, this, &LayoutEditorPage::onScenarioChanged);
    // A scenario replaced (opened) rather than edited starts a new undo history. editScenario()
    // emits scenarioEdited right after scenarioChanged; setScenario() does not.
    connect(m_workspace, &Workspace::scenarioEdited, this, [this] { m_maybeReplaced = false; });
    connect(m_canvas, &LayoutCanvas::placeRequested, this, &LayoutEditorPage::placeInstance);
    connect(m_canvas, &LayoutCanvas::moveRequested, this, &LayoutEditorPage::moveInstance);
    connect(m_canvas, &LayoutCanvas::deleteRequested, this, &LayoutEditorPage::deleteInstance);
    connect(m_canvas, &LayoutCanvas::statusMessage, this,
            [this](const QString& text) { showStatus(text, text.contains(tr("refused"))); });
    connect(m_canvas, &LayoutCanvas::selectionChanged, this, [this] {
        m_deleteAction->setEnabled(m_canvas->selectedInstance().has_value());
        m_gallery->setSelectionSize(static_cast<int>(m_canvas->selectedGpus().size()));
        updateBoards();
    });
    connect(m_deleteAction, &QAction::triggered, this, [this] {
        if (const auto ref = m_canvas->selectedInstance())
            deleteInstance(ref->gpu, ref->instance);
    });
    connect(m_paletteView, &QListView::clicked, this, &LayoutEditorPage::onPaletteClicked);
    connect(m_gallery, &LayoutGallery::applyRequested, this, &LayoutEditorPage::onApplyRequested);
    connect(m_fleet, &FleetSettings::fleetRequested, this, &LayoutEditorPage::setFleet);
    connect(m_workspace, &Workspace::variantsChanged, this, &LayoutEditorPage::refreshFleet);
    connect(m_workspace, &Workspace::variantRenamed, this, [this](const QString& from, const QString& to) {
        forEachFleetCommand([&](FleetEditCommand& c) { c.renameVariant(from, to); });
        if (m_target == from)
            m_target = to;
        // The stack's actions follow only its own changes, not a command's new text.
        m_undoAction->setText(m_undo->undoText().isEmpty() ? tr("&Undo") : tr("&Undo %1").arg(m_undo->undoText()));
        m_redoAction->setText(m_undo->redoText().isEmpty() ? tr("&Redo") : tr("&Redo %1").arg(m_undo->redoText()));
    });
    connect(m_variantBar, &VariantBar::currentChanged, this, [this](const QString& name) {
        m_target = name;
        refreshFleet();
    });
    connect(m_variantBar, &VariantBar::addFromFleetRequested, this, &LayoutEditorPage::addVariantFromFleet);
    connect(m_variantBar, &VariantBar::addFromGalleryRequested, this, &LayoutEditorPage::addVariantFromGallery);
    connect(m_gallery->view()->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { m_variantBar->setGalleryChoice(current.isValid()); });
}

void LayoutEditorPage::onScenarioChanged()
{
    refreshFleet();
    m_maybeReplaced = true;
    QTimer::singleShot(0, this, [this] {
        if (m_maybeReplaced)
            m_undo->clear();
        m_maybeReplaced = false;
    });
}

std::shared_ptr<const model::Scenario> LayoutEditorPage::edited() const
{
    if (m_target.isEmpty())
        return m_workspace->scenario();
    return m_workspace->scenarioFor(m_target);
}

void LayoutEditorPage::refreshFleet()
{
    const auto scenario = edited();
    std::vector<LayoutCanvas::Gpu> gpus;
    if (scenario)
        for (int g = 0; g < gpuCount(scenario->fleet); ++g)
            gpus.push_back({boardOf(scenario->fleet, g), layoutOf(scenario->fleet, g)});
    m_canvas->setGpus(std::move(gpus));
    if (m_canvas->selectedGpus().empty() && m_canvas->gpuCount() > 0)
        m_canvas->setSelectedGpus({0});
    bool mixed = false;
    if (scenario)
        for (const model::FleetGroup& group : scenario->fleet)
            mixed = mixed || group.model->name != scenario->fleet.front().model->name;
    m_fleet->setFleet(scenario && !scenario->fleet.empty() ? QString::fromStdString(scenario->fleet.front().model->name)
                                                           : QString(),
                      scenario ? scenario->gpuCount() : 0, mixed);
    m_fleet->setEnabled(scenario != nullptr);
    m_gallery->setSelectionSize(static_cast<int>(m_canvas->selectedGpus().size()));
    updateBoards();
}

void LayoutEditorPage::updateBoards()
{
    const auto scenario = edited();
    if (!scenario || scenario->fleet.empty())
        return;
    // Palette and gallery follow the board of the first selected GPU (boards differ only in mixed fleets).
    const int gpu = m_canvas->selectedGpus().empty() ? 0 : *m_canvas->selectedGpus().begin();
    const auto slot = locateGpu(scenario->fleet, gpu);
    const auto board = scenario->fleet[static_cast<size_t>(slot ? slot->group : 0)].model;
    if (!m_palette->board() || m_palette->board()->name != board->name) {
        m_palette->setBoard(board);
        m_armedRow = -1;
        m_canvas->setArmedProfile({}, -1);
    }
    m_gallery->setBoard(board);
}

void LayoutEditorPage::forEachFleetCommand(const std::function<void(FleetEditCommand&)>& change)
{
    // The stack only hands out const commands; they are ours (pushed by commit()), so they may change.
    for (int i = 0; i < m_undo->count(); ++i)
        if (auto* command = dynamic_cast<const FleetEditCommand*>(m_undo->command(i)))
            change(const_cast<FleetEditCommand&>(*command));
}

void LayoutEditorPage::onPaletteClicked(const QModelIndex& index)
{
    // A second click on the armed profile puts it down again.
    m_armedRow = index.row() == m_armedRow ? -1 : index.row();
    if (m_armedRow < 0)
        m_paletteView->clearSelection();
    m_canvas->setArmedProfile(m_palette->board() ? QString::fromStdString(m_palette->board()->name) : QString(),
                              m_armedRow);
    m_canvas->setFocus();
}

QString LayoutEditorPage::statusText() const
{
    return m_status->text();
}

void LayoutEditorPage::showStatus(const QString& text, bool refusal)
{
    m_status->setText(text);
    m_status->setStyleSheet(refusal ? QStringLiteral("color: #b71c1c;") : QString());
}

void LayoutEditorPage::commit(std::vector<model::FleetGroup> after, const QString& text)
{
    if (const model::Variant* variant = m_workspace->variant(m_target))
        m_undo->push(new FleetEditCommand(m_workspace, m_target, variant->fleet, std::move(after), text));
    else
        m_undo->push(new FleetEditCommand(m_workspace, edited()->fleet, std::move(after), text));
    showStatus(text);
}

bool LayoutEditorPage::placeInstance(int gpu, simcore::Placement placement)
{
    const auto scenario = edited();
    const simcore::GpuModel* board = scenario ? boardOf(scenario->fleet, gpu) : nullptr;
    if (!board)
        return false;
    Fleet fleet = scenario->fleet;
    simcore::Layout layout = layoutOf(fleet, gpu);
    const QString reason = refusalReason(*board, layout, placement);
    if (!reason.isEmpty()) {
        showStatus(tr("Refused: %1").arg(reason), true);
        return false;
    }
    layout.push_back(placement);
    setLayoutOf(fleet, gpu, layout);
    commit(std::move(fleet),
           tr("Add %1 to GPU %2").arg(QString::fromStdString(placementText(*board, placement))).arg(gpu));
    return true;
}

bool LayoutEditorPage::moveInstance(int fromGpu, int instance, int toGpu, int start)
{
    const auto scenario = edited();
    const simcore::GpuModel* from = scenario ? boardOf(scenario->fleet, fromGpu) : nullptr;
    const simcore::GpuModel* to = scenario ? boardOf(scenario->fleet, toGpu) : nullptr;
    Fleet fleet = scenario ? scenario->fleet : Fleet{};
    simcore::Layout source = layoutOf(fleet, fromGpu);
    if (!from || !to || instance < 0 || instance >= static_cast<int>(source.size()))
        return false;
    simcore::Placement moved = source[static_cast<size_t>(instance)];
    if (from->name != to->name) {
        showStatus(tr("Refused: GPU %1 is a %2, GPU %3 a %4")
                       .arg(fromGpu)
                       .arg(from->name.c_str())
                       .arg(toGpu)
                       .arg(to->name.c_str()),
                   true);
        return false;
    }
    if (fromGpu == toGpu && moved.start == start)
        return false;
    source.erase(source.begin() + instance);
    simcore::Layout target = fromGpu == toGpu ? source : layoutOf(fleet, toGpu);
    const QString was = QString::fromStdString(placementText(*from, moved));
    moved.start = start;
    const QString reason = refusalReason(*to, target, moved);
    if (!reason.isEmpty()) {
        showStatus(tr("Refused: %1").arg(reason), true);
        return false;
    }
    // Within one GPU the instance keeps its place in the list: the order is a scheduling tie-break.
    if (fromGpu == toGpu)
        target.insert(target.begin() + instance, moved);
    else
        target.push_back(moved);
    setLayoutOf(fleet, fromGpu, source);
    setLayoutOf(fleet, toGpu, target);
    commit(std::move(fleet), tr("Move %1 of GPU %2 to %3 on GPU %4").arg(was).arg(fromGpu).arg(start).arg(toGpu));
    return true;
}

bool LayoutEditorPage::deleteInstance(int gpu, int instance)
{
    const auto scenario = edited();
    const simcore::GpuModel* board = scenario ? boardOf(scenario->fleet, gpu) : nullptr;
    Fleet fleet = scenario ? scenario->fleet : Fleet{};
    simcore::Layout layout = layoutOf(fleet, gpu);
    if (!board || instance < 0 || instance >= static_cast<int>(layout.size()))
        return false;
    const QString text = QString::fromStdString(placementText(*board, layout[static_cast<size_t>(instance)]));
    layout.erase(layout.begin() + instance);
    setLayoutOf(fleet, gpu, layout);
    commit(std::move(fleet), tr("Delete %1 from GPU %2").arg(text).arg(gpu));
    return true;
}

bool LayoutEditorPage::applyLayout(const simcore::Layout& layout, const std::vector<int>& gpus, const QString& name)
{
    const auto scenario = edited();
    const simcore::GpuModel* board = m_gallery->model()->board();
    if (!scenario || !board || gpus.empty())
        return false;
    Fleet fleet = scenario->fleet;
    int applied = 0;
    for (int gpu : gpus) {
        const simcore::GpuModel* own = boardOf(fleet, gpu);
        if (own && own->name == board->name && layoutOf(fleet, gpu) != layout) {
            setLayoutOf(fleet, gpu, layout);
            ++applied;
        }
    }
    if (applied == 0) {
        showStatus(tr("Nothing to change: the GPUs already have this layout or are another board"));
        return false;
    }
    commit(std::move(fleet),
           applied == 1 ? tr("Apply %1 to 1 GPU").arg(name) : tr("Apply %1 to %2 GPUs").arg(name).arg(applied));
    return true;
}

void LayoutEditorPage::onApplyRequested(const simcore::Layout& layout, const QString& name,
                                        LayoutGallery::Target target)
{
    std::vector<int> gpus;
    if (target == LayoutGallery::Target::Fleet) {
        for (int g = 0; g < m_canvas->gpuCount(); ++g)
            gpus.push_back(g);
    } else {
        gpus.assign(m_canvas->selectedGpus().begin(), m_canvas->selectedGpus().end());
    }
    applyLayout(layout, gpus, name);
}

bool LayoutEditorPage::setFleet(const QString& board, int count)
{
    const auto scenario = edited();
    if (!scenario || count < 1)
        return false;
    std::shared_ptr<const simcore::GpuModel> chosen;
    // Keep the scenario's own board object when it stays: it carries power-curve overrides.
    for (const model::FleetGroup& group : scenario->fleet)
        if (!chosen && QString::fromStdString(group.model->name) == board)
            chosen = group.model;
    if (!chosen)
        chosen = catalogBoard(board);
    if (!chosen)
        return false;
    const bool sameBoard = scenario->fleet.size() == 1 && scenario->fleet.front().model == chosen;
    if (sameBoard && scenario->gpuCount() == count)
        return false;
    commit(resizedFleet(scenario->fleet, chosen, count),
           sameBoard ? tr("Fleet of %1 GPUs").arg(count) : tr("Fleet of %1 %2 GPUs").arg(count).arg(board));
    return true;
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "geometry.h"
#include "layoutgallery.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

class QAction;
class QLabel;
class QListView;
class QUndoStack;

namespace model {
struct FleetGroup;
struct Scenario;
} // namespace model

namespace ui {

class FleetEditCommand;
class FleetSettings;
class LayoutCanvas;
class ProfilePaletteModel;
class VariantBar;
class Workspace;

/// The "Layouts" page: the fleet's GPUs as editable slice grids, a palette of the board's
/// profiles, a gallery of configuration lists and maximal layouts, and the fleet's board and
/// size. Every change is an undoable command that edits the scenario through
/// Workspace::editScenario(), so the run follows each edit. The variant bar above chooses which
/// fleet is edited: the base scenario's or one variant's own (docs/planning.md, "Variants").
class LayoutEditorPage : public QWidget
{
    Q_OBJECT

public:
    explicit LayoutEditorPage(Workspace* workspace, QWidget* parent = nullptr);

    /// Undo and redo of layout and fleet edits (Ctrl+Z, Ctrl+Shift+Z), for the window's Edit menu.
    [[nodiscard]] QAction* undoAction() const { return m_undoAction; }
    [[nodiscard]] QAction* redoAction() const { return m_redoAction; }
    [[nodiscard]] QUndoStack* undoStack() const { return m_undo; }

    [[nodiscard]] LayoutCanvas* canvas() const { return m_canvas; }
    [[nodiscard]] LayoutGallery* gallery() const { return m_gallery; }
    [[nodiscard]] FleetSettings* fleetSettings() const { return m_fleet; }
    [[nodiscard]] QListView* paletteView() const { return m_paletteView; }
    [[nodiscard]] ProfilePaletteModel* paletteModel() const { return m_palette; }
    [[nodiscard]] VariantBar* variantBar() const { return m_variantBar; }
    /// The status line: hints, and why an edit was refused.
    [[nodiscard]] QString statusText() const;

    // The edits, as the mouse, keyboard and buttons request them. Each returns false (and says
    // why in the status line) when it is refused; nothing changes then.
    bool placeInstance(int gpu, simcore::Placement placement);
    bool moveInstance(int fromGpu, int instance, int toGpu, int start);
    bool deleteInstance(int gpu, int instance);
    bool applyLayout(const simcore::Layout& layout, const std::vector<int>& gpus, const QString& name);
    bool setFleet(const QString& board, int count);
    /// Adds a variant whose fleet is a copy of the fleet shown and edits it; returns its name.
    QString addVariantFromFleet();
    /// Adds a variant whose fleet is the fleet shown with the gallery's chosen configuration on
    /// every GPU of the gallery's board, and edits it; returns its name (empty when none is chosen).
    QString addVariantFromGallery();

private:
    void setupActions();
    void setupWidgets();
    QWidget* createLeftColumn();
    QWidget* createCentre();
    void connectSignals();
    void onScenarioChanged();
    /// Shows the edited fleet (the base's or the chosen variant's).
    void refreshFleet();
    /// The scenario whose fleet the editor shows and edits.
    [[nodiscard]] std::shared_ptr<const model::Scenario> edited() const;
    /// Adds @p fleet as a new variant and switches the editor to it.
    QString addVariant(std::vector<model::FleetGroup> fleet, const QString& from);
    /// Applies @p change to every fleet edit on the undo stack (variants renamed or removed).
    void forEachFleetCommand(const std::function<void(FleetEditCommand&)>& change);
    void onApplyRequested(const simcore::Layout& layout, const QString& name, LayoutGallery::Target target);
    void updateBoards();
    void onPaletteClicked(const QModelIndex& index);
    void showStatus(const QString& text, bool refusal = false);
    void commit(std::vector<model::FleetGroup> after, const QString& text);

    Workspace* m_workspace;
    QUndoStack* m_undo;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    QAction* m_deleteAction = nullptr;
    LayoutCanvas* m_canvas = nullptr;
    LayoutGallery* m_gallery = nullptr;
    FleetSettings* m_fleet = nullptr;
    ProfilePaletteModel* m_palette = nullptr;
    QListView* m_paletteView = nullptr;
    QLabel* m_status = nullptr;
    VariantBar* m_variantBar = nullptr;
    QString m_target; ///< the variant edited, empty for the base
    int m_armedRow = -1;
    bool m_maybeReplaced = false;
};

} // namespace ui

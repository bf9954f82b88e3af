// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QPointer>
#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QToolButton;
class QUndoStack;

namespace ui {

class Workspace;

/// The Layouts page's variant bar (docs/planning.md, "Variants"): which fleet the layout editor
/// edits (the base scenario's or one variant's override), and buttons to add a variant (from the
/// fleet shown or from the gallery's chosen configuration), rename and remove it.
class VariantBar : public QWidget
{
    Q_OBJECT

public:
    explicit VariantBar(Workspace* workspace, QWidget* parent = nullptr);
    /// Renames, removals and overrides go on @p stack as undoable edits (none when null).
    void setUndoStack(QUndoStack* stack) { m_undo = stack; }

    /// The variant being edited, empty for the base scenario.
    [[nodiscard]] QString current() const;
    /// Selects a variant by name (empty: the base); false when it does not exist.
    bool setCurrent(const QString& name);
    [[nodiscard]] QComboBox* selector() const { return m_selector; }
    [[nodiscard]] QAction* addFromFleetAction() const { return m_fromFleet; }
    [[nodiscard]] QAction* addFromGalleryAction() const { return m_fromGallery; }
    /// The gallery has a configuration chosen (enables "from the gallery").
    void setGalleryChoice(bool chosen);
    /// Renames the current variant; returns why it was refused, empty when renamed.
    QString renameCurrent(const QString& name);
    /// Removes the current variant (its runs move to the base); the base is edited again.
    void removeCurrent();
    /// Opens "Overrides…" for the current variant (workload multiplier and seed, preemption,
    /// energy weight); the dialog stays open while the workspace refuses what it says.
    void editOverrides();
    /// The dialog editOverrides() has open (for tests), null when none.
    [[nodiscard]] QDialog* overridesDialog() const;
    /// The text under the bar: what the current variant overrides.
    [[nodiscard]] QString stateText() const;

signals:
    /// Another fleet is being edited (a variant, or the base when @p name is empty).
    void currentChanged(const QString& name);
    void addFromFleetRequested();
    void addFromGalleryRequested();

private:
    void setupWidgets();
    void connectSignals();
    void refresh();
    void askRename();
    void updateState();

    Workspace* m_workspace;
    QComboBox* m_selector = nullptr;
    QToolButton* m_add = nullptr;
    QAction* m_fromFleet = nullptr;
    QAction* m_fromGallery = nullptr;
    QToolButton* m_rename = nullptr;
    QToolButton* m_remove = nullptr;
    QToolButton* m_overrides = nullptr;
    QPointer<QDialog> m_dialog;
    QLabel* m_state = nullptr;
    QUndoStack* m_undo = nullptr;
    bool m_refreshing = false;
};

} // namespace ui

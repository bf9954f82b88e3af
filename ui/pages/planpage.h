// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QTabWidget;
class QUndoStack;

namespace ui {

class PlanDayPanel;
class PlanStaticPanel;
class PlanSweepPanel;
class Workspace;

/// The Plan page: from "what if" to "what should we do" (docs/planning.md). One tab per planning
/// method; each runs on worker threads with progress and Cancel, and applies its answer to the
/// scenario as an undoable edit on the layout editor's undo stack.
class PlanPage : public QWidget
{
    Q_OBJECT

public:
    PlanPage(Workspace* workspace, QUndoStack* undo, QWidget* parent = nullptr);

    [[nodiscard]] PlanStaticPanel* staticPanel() const { return m_static; }
    [[nodiscard]] PlanDayPanel* dayPanel() const { return m_day; }
    [[nodiscard]] PlanSweepPanel* sweepPanel() const { return m_sweep; }
    [[nodiscard]] QTabWidget* tabs() const { return m_tabs; }

private:
    QTabWidget* m_tabs = nullptr;
    PlanStaticPanel* m_static = nullptr;
    PlanDayPanel* m_day = nullptr;
    PlanSweepPanel* m_sweep = nullptr;
};

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario.h"

#include <QUndoCommand>

#include <optional>

namespace ui {

class Workspace;

/// Changing the policies of a run on the Runs page (a selected row's forms edit it live), its
/// autoscaler included (docs/services.md), as an undoable step: Edit › Undo gives the run its
/// previous policies back and re-runs it. Consecutive changes of one run (a spin box dragged)
/// merge into one step.
class RunPoliciesCommand : public QUndoCommand
{
public:
    struct Policies
    {
        model::PolicyChoice scheduler;
        model::PolicyChoice repartitioner;
        std::optional<model::PolicyChoice> autoscaler; ///< nullopt: the scenario's own
    };
    RunPoliciesCommand(Workspace* workspace, int key, Policies before, Policies after, const QString& label);

    void undo() override;
    void redo() override;
    [[nodiscard]] int id() const override { return kId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    static constexpr int kId = 0x52554e; // "RUN"
    Workspace* m_workspace;
    int m_key;
    Policies m_before;
    Policies m_after;
};

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "runcommands.h"

#include "workspace.h"

#include <QCoreApplication>

namespace ui {

RunPoliciesCommand::RunPoliciesCommand(Workspace* workspace, int key, Policies before, Policies after,
                                       const QString& label)
    : QUndoCommand(QCoreApplication::translate("ui::RunsPage", "Change run %1").arg(label))
    , m_workspace(workspace)
    , m_key(key)
    , m_before(std::move(before))
    , m_after(std::move(after))
{
}

void RunPoliciesCommand::undo()
{
    m_workspace->updateRun(m_key, m_before.scheduler, m_before.repartitioner, m_before.autoscaler);
}

void RunPoliciesCommand::redo()
{
    m_workspace->updateRun(m_key, m_after.scheduler, m_after.repartitioner, m_after.autoscaler);
}

bool RunPoliciesCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const RunPoliciesCommand*>(other); // same id(): same class
    if (next->m_key != m_key)
        return false;
    m_after = next->m_after;
    return true;
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "variantcommands.h"

#include "workspace.h"

#include <QCoreApplication>
#include <QUndoCommand>
#include <QUndoStack>

#include <functional>
#include <memory>
#include <utility>

namespace ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ui::VariantCommand", text);
}

/// A change already made when pushed: the first redo() is skipped.
class VariantCommand : public QUndoCommand
{
public:
    VariantCommand(const QString& text, std::function<void()> undo, std::function<void()> redo)
        : m_undo(std::move(undo)), m_redo(std::move(redo))
    {
        setText(text);
    }
    void undo() override { m_undo(); }
    void redo() override
    {
        if (std::exchange(m_pushed, true))
            m_redo();
    }

private:
    std::function<void()> m_undo;
    std::function<void()> m_redo;
    bool m_pushed = false;
};

/// Removes and restores one variant, keeping what removal took away for the way back.
std::pair<std::function<void()>, std::function<void()>> removeAndRestore(Workspace* workspace,
                                                                         std::shared_ptr<RemovedVariant> state)
{
    auto remove = [workspace, state] {
        if (auto removed = workspace->removeVariant(QString::fromStdString(state->variant.name)))
            *state = std::move(*removed);
    };
    auto restore = [workspace, state] { (void)workspace->restoreVariant(*state); };
    return {remove, restore};
}

} // namespace

void pushVariantAdded(QUndoStack* stack, Workspace* workspace, const QString& name)
{
    const model::Variant* added = workspace->variant(name);
    if (!stack || !added)
        return;
    auto state = std::make_shared<RemovedVariant>();
    state->variant = *added;
    state->index = workspace->variants().size() - 1;
    auto [remove, restore] = removeAndRestore(workspace, state);
    stack->push(new VariantCommand(tr("Add %1").arg(name), remove, restore));
}

void pushVariantRemoved(QUndoStack* stack, Workspace* workspace, const RemovedVariant& removed)
{
    if (!stack)
        return;
    auto state = std::make_shared<RemovedVariant>(removed);
    auto [remove, restore] = removeAndRestore(workspace, state);
    stack->push(new VariantCommand(tr("Remove %1").arg(QString::fromStdString(removed.variant.name)), restore, remove));
}

void pushVariantRenamed(QUndoStack* stack, Workspace* workspace, const QString& from, const QString& to)
{
    if (!stack || from == to)
        return;
    stack->push(new VariantCommand(
        tr("Rename %1 to %2").arg(from, to), [workspace, from, to] { (void)workspace->renameVariant(to, from); },
        [workspace, from, to] { (void)workspace->renameVariant(from, to); }));
}

void pushVariantOverrides(QUndoStack* stack, Workspace* workspace, const QString& name, const model::Variant& before,
                          const model::Variant& after)
{
    if (!stack)
        return;
    stack->push(new VariantCommand(
        tr("Overrides of %1").arg(name),
        [workspace, name, before] { (void)workspace->setVariantOverrides(name, before); },
        [workspace, name, after] { (void)workspace->setVariantOverrides(name, after); }));
}

} // namespace ui

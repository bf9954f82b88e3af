// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "variants.h"

#include <QString>

class QUndoCommand;
class QUndoStack;

namespace ui {

class Workspace;
struct RemovedVariant;

// Undoable changes of the variant list and of a variant's overrides (docs/planning.md, "Variants").
// Each change is made on the workspace first, so a refused one never reaches the undo stack; these
// functions then push a command whose first redo (the one QUndoStack::push() calls) does nothing.
// Later commands on the stack are undone first, so every command finds the variants as it left them.

/// The variant @p name was just added.
void pushVariantAdded(QUndoStack* stack, Workspace* workspace, const QString& name);
/// A variant was just removed.
void pushVariantRemoved(QUndoStack* stack, Workspace* workspace, const RemovedVariant& removed);
/// A variant was just renamed from @p from to @p to.
void pushVariantRenamed(QUndoStack* stack, Workspace* workspace, const QString& from, const QString& to);
/// Variant @p name's overrides were just changed from @p before to @p after (only the overrides
/// VariantOverridesDialog edits: multiplier, seed, preemption, energy weight).
void pushVariantOverrides(QUndoStack* stack, Workspace* workspace, const QString& name, const model::Variant& before,
                          const model::Variant& after);

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario.h"

#include <QString>
#include <QUndoCommand>

#include <optional>
#include <vector>

namespace ui {

class Workspace;

/// The fleet of a scenario, as the layout editor changes it: GPUs are numbered 0..n-1 across the
/// fleet's groups, in the order Scenario::fleetGpus() lists them.
using Fleet = std::vector<model::FleetGroup>;

struct GpuSlot
{
    int group = -1;
    int local = -1;
};

[[nodiscard]] std::optional<GpuSlot> locateGpu(const Fleet& fleet, int gpu);
[[nodiscard]] int gpuCount(const Fleet& fleet);
[[nodiscard]] const simcore::GpuModel* boardOf(const Fleet& fleet, int gpu);
[[nodiscard]] simcore::Layout layoutOf(const Fleet& fleet, int gpu);
/// False (and nothing changed) when @p gpu does not exist.
bool setLayoutOf(Fleet& fleet, int gpu, simcore::Layout layout);

/// Why adding @p placement to the layout of @p gpu is refused; empty when it is allowed. The reasons
/// are simcore::validateLayout()'s, joined.
[[nodiscard]] QString refusalReason(const simcore::GpuModel& board, const simcore::Layout& layout,
                                    const simcore::Placement& placement);

/// Every start at which @p profile can be added to @p layout.
[[nodiscard]] std::vector<int> allowedStarts(const simcore::GpuModel& board, const simcore::Layout& layout,
                                             int profile);

/// The fleet with @p count GPUs of @p board: GPUs that stay keep their layouts (mapped by profile
/// position when the board changes, since every catalog lists its profiles in the same order);
/// new GPUs copy the last GPU's layout, or get the whole-GPU profile.
[[nodiscard]] Fleet resizedFleet(const Fleet& fleet, std::shared_ptr<const simcore::GpuModel> board, int count);

/// One undoable change of the fleet. Only the fleet is swapped, so workload or policy edits made
/// elsewhere in between are kept on undo and redo.
class FleetEditCommand : public QUndoCommand
{
public:
    FleetEditCommand(Workspace* workspace, Fleet before, Fleet after, const QString& text);
    /// A change of variant @p variant's fleet override (docs/planning.md, "Variants"); @p before is
    /// nullopt when the variant used the base's fleet, which undo restores.
    FleetEditCommand(Workspace* workspace, const QString& variant, std::optional<Fleet> before, Fleet after,
                     const QString& text);
    void undo() override;
    void redo() override;
    /// The variant was renamed: the command edits it under its new name.
    void renameVariant(const QString& from, const QString& to);

private:
    void apply(const std::optional<Fleet>& fleet, const QString& what);

    Workspace* m_workspace;
    QString m_variant; ///< empty: the base scenario's fleet
    QString m_edit;    ///< the edit's text without the variant's name
    std::optional<Fleet> m_before;
    Fleet m_after;
};

} // namespace ui

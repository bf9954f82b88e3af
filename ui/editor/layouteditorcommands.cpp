// SPDX-License-Identifier: GPL-3.0-or-later
#include "layouteditorcommands.h"

#include "workspace.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

namespace ui {

std::optional<GpuSlot> locateGpu(const Fleet& fleet, int gpu)
{
    if (gpu < 0)
        return std::nullopt;
    int first = 0;
    for (size_t g = 0; g < fleet.size(); ++g) {
        if (gpu < first + fleet[g].count)
            return GpuSlot{static_cast<int>(g), gpu - first};
        first += fleet[g].count;
    }
    return std::nullopt;
}

int gpuCount(const Fleet& fleet)
{
    int count = 0;
    for (const model::FleetGroup& group : fleet)
        count += group.count;
    return count;
}

const simcore::GpuModel* boardOf(const Fleet& fleet, int gpu)
{
    const auto slot = locateGpu(fleet, gpu);
    return slot ? fleet[static_cast<size_t>(slot->group)].model.get() : nullptr;
}

simcore::Layout layoutOf(const Fleet& fleet, int gpu)
{
    const auto slot = locateGpu(fleet, gpu);
    if (!slot)
        return {};
    const auto& layouts = fleet[static_cast<size_t>(slot->group)].layouts;
    return slot->local < static_cast<int>(layouts.size()) ? layouts[static_cast<size_t>(slot->local)]
                                                          : simcore::Layout{};
}

bool setLayoutOf(Fleet& fleet, int gpu, simcore::Layout layout)
{
    const auto slot = locateGpu(fleet, gpu);
    if (!slot)
        return false;
    model::FleetGroup& group = fleet[static_cast<size_t>(slot->group)];
    if (static_cast<int>(group.layouts.size()) < group.count)
        group.layouts.resize(static_cast<size_t>(group.count));
    group.layouts[static_cast<size_t>(slot->local)] = std::move(layout);
    return true;
}

QString refusalReason(const simcore::GpuModel& board, const simcore::Layout& layout,
                      const simcore::Placement& placement)
{
    simcore::Layout extended = layout;
    extended.push_back(placement);
    QStringList reasons;
    for (const simcore::LayoutProblem& problem : simcore::validateLayout(board, extended))
        reasons << QString::fromStdString(problem.message);
    return reasons.join(QStringLiteral("; "));
}

std::vector<int> allowedStarts(const simcore::GpuModel& board, const simcore::Layout& layout, int profile)
{
    std::vector<int> starts;
    if (profile < 0 || profile >= static_cast<int>(board.profiles.size()))
        return starts;
    for (int start : board.profiles[static_cast<size_t>(profile)].starts)
        if (refusalReason(board, layout, {profile, start}).isEmpty())
            starts.push_back(start);
    return starts;
}

namespace {

simcore::Layout wholeGpu(const simcore::GpuModel& board)
{
    const int whole = board.wholeGpuProfile();
    return whole >= 0 ? simcore::Layout{{whole, 0}} : simcore::Layout{};
}

/// A layout of another board on @p board: same profile positions if that is valid there.
simcore::Layout mapped(const simcore::Layout& layout, const simcore::GpuModel& from, const simcore::GpuModel& to)
{
    if (&from == &to || from.name == to.name)
        return layout;
    if (from.profiles.size() != to.profiles.size() || !simcore::validateLayout(to, layout).empty())
        return wholeGpu(to);
    return layout;
}

} // namespace

Fleet resizedFleet(const Fleet& fleet, std::shared_ptr<const simcore::GpuModel> board, int count)
{
    model::FleetGroup group;
    group.model = board;
    group.count = std::max(0, count);
    group.configList = fleet.empty() ? std::string() : fleet.front().configList;
    if (!board->findList(group.configList))
        group.configList = board->configLists.empty() ? std::string() : board->configLists.front().name;
    const int old = gpuCount(fleet);
    for (int gpu = 0; gpu < group.count; ++gpu) {
        const int source = std::min(gpu, old - 1);
        const simcore::GpuModel* from = boardOf(fleet, source);
        group.layouts.push_back(from ? mapped(layoutOf(fleet, source), *from, *board) : wholeGpu(*board));
    }
    return {group};
}

FleetEditCommand::FleetEditCommand(Workspace* workspace, Fleet before, Fleet after, const QString& text)
    : m_workspace(workspace), m_before(std::move(before)), m_after(std::move(after))
{
    setText(text);
}

FleetEditCommand::FleetEditCommand(Workspace* workspace, const QString& variant, std::optional<Fleet> before,
                                   Fleet after, const QString& text)
    : m_workspace(workspace), m_variant(variant), m_edit(text), m_before(std::move(before)), m_after(std::move(after))
{
    setText(QStringLiteral("%1: %2").arg(variant, text));
}

void FleetEditCommand::renameVariant(const QString& from, const QString& to)
{
    if (m_variant.isEmpty() || m_variant != from)
        return;
    m_variant = to;
    setText(QStringLiteral("%1: %2").arg(to, m_edit));
}

void FleetEditCommand::undo()
{
    apply(m_before, QCoreApplication::translate("ui::FleetEditCommand", "Undo %1").arg(text()));
}

void FleetEditCommand::redo()
{
    apply(m_after, text());
}

void FleetEditCommand::apply(const std::optional<Fleet>& fleet, const QString& what)
{
    if (!m_variant.isEmpty()) {
        m_workspace->setVariantFleet(m_variant, fleet, what);
        return;
    }
    const auto current = m_workspace->scenario();
    if (!current || !fleet)
        return;
    model::Scenario edited = *current;
    edited.fleet = *fleet;
    m_workspace->editScenario(std::move(edited), what);
}

} // namespace ui

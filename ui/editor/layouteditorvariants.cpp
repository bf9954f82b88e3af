// SPDX-License-Identifier: GPL-3.0-or-later
// The Layouts page's "Add variant" (docs/planning.md, "Variants"): a variant whose fleet override is
// a copy of the fleet shown, or of it with a gallery configuration on every GPU of that board.
#include "layouteditor.h"
#include "layouteditorcommands.h"
#include "variantbar.h"
#include "variantcommands.h"
#include "workspace.h"

#include <QLabel>
#include <QListView>

namespace ui {

QString LayoutEditorPage::addVariantFromFleet()
{
    const auto scenario = edited();
    return scenario ? addVariant(scenario->fleet, tr("the fleet shown")) : QString();
}

QString LayoutEditorPage::addVariantFromGallery()
{
    const auto scenario = edited();
    const QModelIndex chosen = m_gallery->view()->currentIndex();
    const simcore::GpuModel* board = m_gallery->model()->board();
    if (!scenario || !chosen.isValid() || !board)
        return {};
    Fleet fleet = scenario->fleet;
    for (int gpu = 0; gpu < gpuCount(fleet); ++gpu)
        if (boardOf(fleet, gpu)->name == board->name)
            setLayoutOf(fleet, gpu, m_gallery->model()->layoutAt(chosen.row()));
    return addVariant(std::move(fleet), chosen.data().toString());
}

QString LayoutEditorPage::addVariant(std::vector<model::FleetGroup> fleet, const QString& from)
{
    model::Variant variant;
    const QString name = m_workspace->freeVariantName();
    variant.name = name.toStdString();
    variant.fleet = std::move(fleet);
    if (const QString problem = m_workspace->addVariant(std::move(variant)); !problem.isEmpty()) {
        showStatus(tr("Refused: %1").arg(problem), true);
        return {};
    }
    pushVariantAdded(m_undo, m_workspace, name);
    m_variantBar->setCurrent(name);
    showStatus(tr("Added %1 from %2: its layouts are edited now; the base scenario stays as it is").arg(name, from));
    return name;
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "planpage.h"

#include "plandaypanel.h"
#include "planstaticpanel.h"
#include "plansweeppanel.h"

#include <QTabWidget>
#include <QVBoxLayout>

namespace ui {

PlanPage::PlanPage(Workspace* workspace, QUndoStack* undo, QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("planTabs"));
    m_static = new PlanStaticPanel(workspace, undo);
    m_tabs->addTab(m_static, tr("Best static layout"));
    m_day = new PlanDayPanel(workspace, undo);
    m_tabs->addTab(m_day, tr("Day plan"));
    m_sweep = new PlanSweepPanel(workspace, undo);
    m_tabs->addTab(m_sweep, tr("Fleet size"));
    layout->addWidget(m_tabs);
}

} // namespace ui

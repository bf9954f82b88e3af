// SPDX-License-Identifier: GPL-3.0-or-later
#include "runoccupancy.h"

#include "ganttchart.h"
#include "workspace.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace ui {

RunOccupancy::RunOccupancy(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("runOccupancy"));
    m_chart = new GanttChart(tr("Occupancy by instance"));
    m_chart->setObjectName(QStringLiteral("runsGantt"));
    m_colourLabel = new QLabel(tr("Colour by"));
    m_colourBy = new QComboBox;
    m_colourBy->setObjectName(QStringLiteral("colourByBox"));
    m_colourBy->addItem(tr("Job type"), static_cast<int>(GanttChart::ColourBy::JobType));
    m_colourBy->addItem(tr("Tenant"), static_cast<int>(GanttChart::ColourBy::Tenant));
    m_colourBy->setToolTip(tr("Colour the jobs by their type, or by their tenant (gang members outlined)"));
    m_colourLabel->setBuddy(m_colourBy);
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(m_colourLabel);
    row->addWidget(m_colourBy);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_chart, 1);
    connect(m_colourBy, &QComboBox::currentIndexChanged, this, &RunOccupancy::onColourByChosen);
    showRun(nullptr);
}

void RunOccupancy::showRun(const RunSpec* spec)
{
    const auto result = spec && spec->latest ? spec->latest->result : nullptr;
    m_chart->setTitle(spec ? tr("Occupancy by instance: %1").arg(spec->label()) : tr("Occupancy by instance"));
    if (!result) {
        if (m_shown)
            m_chart->clear();
        m_shown.reset();
    } else if (result != m_shown) {
        m_chart->setRun(*spec->latest);
        m_shown = result;
    }
    m_chart->setStale(spec && (spec->stale() || (spec->running() && spec->latest)));
    const bool tenants = m_chart->hasTenants();
    m_colourLabel->setVisible(tenants);
    m_colourBy->setVisible(tenants);
}

void RunOccupancy::onColourByChosen()
{
    m_chart->setColourBy(static_cast<GanttChart::ColourBy>(m_colourBy->currentData().toInt()));
}

} // namespace ui

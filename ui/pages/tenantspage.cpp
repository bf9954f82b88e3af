// SPDX-License-Identifier: GPL-3.0-or-later
#include "tenantspage.h"

#include "palette.h"
#include "runsnapshot.h"
#include "serieschart.h"
#include "units.h"
#include "workspace.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ui {

TenantsPage::TenantsPage(Workspace* workspace, QWidget* parent) : QWidget(parent), m_workspace(workspace)
{
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("tenantsSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    layout->addWidget(m_summary);

    m_table = new QTableWidget(0, 9);
    m_table->setObjectName(QStringLiteral("tenantsTable"));
    m_table->setHorizontalHeaderLabels({tr("Tenant"), tr("Quota (slices)"), tr("Jobs"), tr("Completed"),
                                        tr("Mean wait (min)"), tr("Avg tardiness (min)"), tr("Share of fleet"),
                                        tr("Quota share"), tr("Taken back")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_table->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    layout->addWidget(m_table);

    m_share = new SeriesChart(tr("Share of the fleet's compute slices per hour (thin: quota)"), tr("%"));
    m_share->setObjectName(QStringLiteral("tenantShare"));
    layout->addWidget(m_share, 1);

    connect(m_workspace, &Workspace::runFinished, this, &TenantsPage::showRun);
    connect(m_workspace, &Workspace::scenarioChanged, this, [this] {
        m_report = {};
        showReport();
    });
    if (m_workspace->lastRun())
        showRun(*m_workspace->lastRun());
    else
        showReport();
}

void TenantsPage::showRun(const RunSnapshot& snapshot)
{
    m_report = model::tenantReport(*snapshot.scenario, *snapshot.result);
    showReport();
}

QString TenantsPage::summaryText() const
{
    if (!m_report.active)
        return tr("This scenario has no tenants, placement or faults. Open <b>samples/shared-cluster.json</b> "
                  "(three teams with quotas, one GPU failure per GPU-week) or add <code>tenants</code>, "
                  "<code>placement</code> or <code>faults</code> to the scenario (docs/tenants.md).");
    const QLocale locale;
    const simcore::PlatformStats& s = m_report.stats;
    QString text = tr("<b>Placement</b> %1. <b>Jain's fairness</b> %2 (1 = every tenant got its quota's "
                      "share). ")
                       .arg(QString::fromStdString(m_report.placement))
                       .arg(m_report.jainFairness, 0, 'f', 3);
    if (s.faults || s.maintenanceEvents > 0)
        text += tr("<b>Faults</b>: %1 GPU and %2 instance failures, %3 maintenance windows, %4 restarts; work lost "
                   "%5 1g-min, energy wasted %6 kWh, goodput %7%. ")
                    .arg(s.gpuFailures)
                    .arg(s.instanceFailures)
                    .arg(s.maintenanceEvents)
                    .arg(s.restarts)
                    .arg(locale.toString(s.lostWork1gMin, 'f', 0))
                    .arg(locale.toString(s.wastedEnergyWmin / simcore::kWminPerKwh, 'f', 2))
                    .arg(100.0 * s.goodput, 0, 'f', 2);
    if (m_report.gangsStarted > 0)
        text += tr("<b>Gangs</b>: %1 started, mean wait %2 min, longest %3 min. ")
                    .arg(m_report.gangsStarted)
                    .arg(m_report.gangMeanWaitMin, 0, 'f', 1)
                    .arg(m_report.gangMaxWaitMin, 0, 'f', 1);
    if (s.gangQuotaWaits > 0)
        text += tr("%n gang(s) waited for their tenant's quota. ", nullptr, s.gangQuotaWaits);
    if (s.preemptionsBack > 0)
        text += tr("%1 borrowing jobs were taken back for tenants under their quota.").arg(s.preemptionsBack);
    return text;
}

void TenantsPage::showReport()
{
    m_summary->setText(summaryText());
    const QLocale locale;
    m_table->setRowCount(static_cast<int>(m_report.tenants.size()));
    std::vector<SeriesLine> lines;
    for (size_t k = 0; k < m_report.tenants.size(); ++k) {
        const model::TenantRow& t = m_report.tenants[k];
        const auto row = static_cast<int>(k);
        const QStringList cells{QString::fromStdString(t.name),
                                locale.toString(t.quotaSlices),
                                locale.toString(t.jobs),
                                locale.toString(t.completed),
                                locale.toString(t.meanWaitMin, 'f', 1),
                                locale.toString(t.avgTardinessMin, 'f', 2),
                                QStringLiteral("%1%").arg(100.0 * t.capacityShare, 0, 'f', 1),
                                QStringLiteral("%1%").arg(100.0 * t.quotaShare, 0, 'f', 1),
                                locale.toString(t.preemptedBack)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, c, item);
        }
        const QColor colour = jobTypeColour(row);
        SeriesLine share{QString::fromStdString(t.name), colour, 2.0, {}, {}};
        for (size_t h = 0; h < t.hourlyShare.size(); ++h) {
            share.hours.push_back(static_cast<double>(h));
            share.values.push_back(100.0 * t.hourlyShare[h]);
        }
        if (!t.hourlyShare.empty()) { // the step line holds the last hour to its end
            share.hours.push_back(static_cast<double>(t.hourlyShare.size()));
            share.values.push_back(share.values.back());
        }
        if (t.quotaSlices > 0 && !share.hours.empty()) {
            SeriesLine quota{QString(), colour, 1.0, {}, {}};
            quota.hours = {share.hours.front(), share.hours.back()};
            quota.values = {100.0 * t.quotaShare, 100.0 * t.quotaShare};
            lines.push_back(std::move(quota));
        }
        lines.push_back(std::move(share));
    }
    m_share->setLines(lines);
}

} // namespace ui

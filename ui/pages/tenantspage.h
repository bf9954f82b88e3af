// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "tenant_report.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace ui {

class SeriesChart;
class Workspace;
struct RunSnapshot;

/// The multi-tenant platform view of the scenario's latest run (docs/tenants.md): per tenant
/// its quota, jobs, wait, tardiness, share of the fleet against its quota and the jobs taken
/// back from it; Jain's fairness index; gang waiting; faults with the work and energy they cost
/// and the goodput; and each tenant's share of the fleet hour by hour against its quota.
class TenantsPage : public QWidget
{
    Q_OBJECT

public:
    explicit TenantsPage(Workspace* workspace, QWidget* parent = nullptr);

    [[nodiscard]] const model::TenantReport& report() const { return m_report; }
    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] QTableWidget* table() const { return m_table; }
    [[nodiscard]] SeriesChart* shareChart() const { return m_share; }

private:
    void showRun(const RunSnapshot& snapshot);
    void showReport();

    Workspace* m_workspace;
    QLabel* m_summary = nullptr;
    QTableWidget* m_table = nullptr;
    SeriesChart* m_share = nullptr;
    model::TenantReport m_report;
};

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "metricsmodel.h"

#include "units.h"

#include <QLocale>

namespace ui {

namespace {

MetricRow row(const QString& name, double value, int decimals, const QString& unit, const QString& description)
{
    return {name, value, QLocale().toString(value, 'f', decimals), unit, description};
}

MetricRow countRow(const QString& name, long long value, const QString& unit, const QString& description)
{
    return {name, static_cast<double>(value), QLocale().toString(value), unit, description};
}

} // namespace

std::vector<MetricRow> costRows(const model::RunCost& c)
{
    const auto tr = [](const char* text) { return MetricsModel::tr(text); };
    const QString currency = QString::fromStdString(c.currency);
    return {
        row(tr("Energy cost"), c.energyCost, 2, currency, tr("Energy of each hour x that hour's price per kWh")),
        row(tr("GPU cost"), c.gpuCost, 2, currency, tr("GPUs x hours simulated x amortised cost per GPU-hour")),
        row(tr("Total cost"), c.total, 2, currency, tr("Energy cost + GPU cost over the run")),
        row(tr("Cost per day"), c.totalPerDay, 2, currency, tr("Total cost / simulated days (at least one)")),
        row(tr("Carbon"), c.carbonKg, 2, tr("kg CO2"), tr("Energy of each hour x that hour's carbon intensity")),
    };
}

namespace {

std::vector<MetricRow> plainRows(const simcore::RunMetrics& m)
{
    const auto tr = [](const char* text) { return MetricsModel::tr(text); };
    return {
        countRow(tr("Jobs"), m.jobs, tr("jobs"), tr("Jobs released during the run")),
        countRow(tr("Completed"), m.completed, tr("jobs"), tr("Jobs that finished")),
        countRow(tr("Unfinished"), m.unfinished, tr("jobs"), tr("Jobs that never completed (e.g. fit no instance)")),
        row(tr("Energy"), m.energyWmin / simcore::kWminPerKwh, 3, tr("kWh"), tr("Fleet energy over the run")),
        row(tr("Average tardiness"), m.avgTardinessMin, 4, tr("min"), tr("Sum of tardiness / completed jobs")),
        row(tr("95th percentile tardiness"), m.p95TardinessMin, 3, tr("min"), tr("Nearest-rank 95th percentile")),
        row(tr("Maximum tardiness"), m.maxTardinessMin, 3, tr("min"), tr("Latest completion past its deadline")),
        row(tr("Late jobs"), 100.0 * m.tardyFraction, 1, tr("%"), tr("Share of completed jobs past their deadline")),
        row(tr("ET objective"), m.et, 6, QString(), tr("(a · energy + average tardiness) / (a + 1)")),
        row(tr("Makespan"), m.makespanMin, 1, tr("min"), tr("Time of the last completion")),
        row(tr("Mean wait"), m.meanWaitMin, 3, tr("min"), tr("First start minus release, over started jobs")),
        row(tr("Utilisation"), 100.0 * m.utilisation, 1, tr("%"), tr("Busy compute-slice time / (slices · makespan)")),
        countRow(tr("Reconfigurations"), m.reconfigurations, QString(), tr("GPU layout changes after time 0")),
        row(tr("Layout changes per GPU per day"), m.changesPerGpuDay, 2, QString(),
            tr("Reconfigurations / GPUs / days of the run (its makespan)")),
        row(tr("Reconfiguration downtime"), m.reconfigDowntimeGpuMin, 2, tr("GPU-min"),
            tr("Minutes GPUs spent reconfiguring (overlapping changes of one GPU counted once)")),
        row(tr("Downtime per GPU per day"), m.downtimePerGpuDayMin, 3, tr("min"),
            tr("Reconfiguration downtime / GPUs / days of the run")),
        countRow(tr("Preemptions"), m.preemptions, QString(), tr("Running jobs taken off their instance")),
        countRow(tr("Simulation steps"), m.steps, QString(), tr("Event times the simulator processed")),
    };
}

} // namespace

std::vector<MetricRow> metricRows(const simcore::RunMetrics& m, const std::optional<model::RunCost>& cost)
{
    std::vector<MetricRow> rows = plainRows(m);
    if (cost) {
        const std::vector<MetricRow> extra = costRows(*cost);
        rows.insert(rows.begin() + 4, extra.begin(), extra.end()); // after "Energy"
    }
    return rows;
}

MetricsModel::MetricsModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void MetricsModel::setMetrics(const simcore::RunMetrics& metrics, const std::optional<model::RunCost>& cost)
{
    beginResetModel();
    m_rows = metricRows(metrics, cost);
    endResetModel();
}

void MetricsModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int MetricsModel::rowOf(const QString& name) const
{
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].name == name)
            return static_cast<int>(i);
    return -1;
}

int MetricsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MetricsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MetricsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const MetricRow& r = m_rows[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == NameColumn)
            return r.name;
        return index.column() == ValueColumn ? r.text : r.unit;
    case Qt::ToolTipRole:
        return r.description;
    case Qt::TextAlignmentRole:
        // An int, the form every Qt version's delegates and QAbstractItemModelTester accept.
        return static_cast<int>(index.column() == ValueColumn ? Qt::AlignRight | Qt::AlignVCenter
                                                              : Qt::AlignLeft | Qt::AlignVCenter);
    case ValueRole:
        return r.value;
    default:
        return {};
    }
}

QVariant MetricsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::TextAlignmentRole)
        return static_cast<int>(section == ValueColumn ? Qt::AlignRight | Qt::AlignVCenter
                                                       : Qt::AlignLeft | Qt::AlignVCenter);
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Metric");
    case ValueColumn:
        return tr("Value");
    case UnitColumn:
        return tr("Unit");
    default:
        return {};
    }
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "runsmodel.h"

#include "cost.h"
#include "palette.h"
#include "report_data.h"
#include "units.h"
#include "workspace.h"

#include <QColor>
#include <QLocale>
#include <QtNumeric>

namespace ui {

namespace {

using simcore::kWminPerKwh;

double percentAbove(double value, double bound)
{
    return bound > 0.0 ? (value - bound) / bound * 100.0 : qQNaN();
}

} // namespace

RunsModel::RunsModel(Workspace* workspace, QObject* parent) : QAbstractTableModel(parent), m_workspace(workspace)
{
    connect(workspace, &Workspace::runsChanged, this, [this] {
        beginResetModel();
        endResetModel();
    });
    connect(workspace, &Workspace::runSpecChanged, this, [this](int key) {
        const int row = rowOf(key);
        if (row >= 0)
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    });
    connect(workspace, &Workspace::boundsChanged, this, [this] {
        if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    });
}

void RunsModel::setRanking(std::map<int, model::RankedRun> byKey)
{
    m_ranking = std::move(byKey);
    if (rowCount() > 0)
        emit dataChanged(index(0, RankColumn), index(rowCount() - 1, VsBaselineColumn));
}

QVariant RunsModel::rankingValue(const RunSpec& spec, int column) const
{
    const auto it = m_ranking.find(spec.key);
    if (it == m_ranking.end())
        return {};
    const model::RankedRun& r = it->second;
    if (column == RankColumn)
        return static_cast<double>(r.rank);
    return r.diffDefined ? QVariant(r.isBaseline ? 0.0 : r.diff.mean) : QVariant(qQNaN());
}

QString RunsModel::rankingText(const RunSpec& spec, int column) const
{
    const auto it = m_ranking.find(spec.key);
    if (it == m_ranking.end())
        return QString();
    const model::RankedRun& r = it->second;
    if (column == RankColumn)
        return r.feasible ? QString::number(r.rank) : tr("%1 (over T)").arg(r.rank);
    return QString::fromStdString(model::versusBaselineText(r));
}

int RunsModel::rowOf(int key) const
{
    const auto& runs = m_workspace->runs();
    for (size_t i = 0; i < runs.size(); ++i)
        if (runs[i].key == key)
            return static_cast<int>(i);
    return -1;
}

int RunsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_workspace->runs().size());
}

int RunsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RunsModel::status(const RunSpec& spec) const
{
    if (spec.running())
        return spec.stale() ? tr("stale, re-running %1%").arg(qRound(spec.progress * 100))
                            : tr("running %1%").arg(qRound(spec.progress * 100));
    switch (spec.state) {
    case RunState::Failed:
        return spec.latest ? tr("stale (%1)").arg(spec.error.section(QLatin1Char('\n'), 0, 0))
                           : spec.error.section(QLatin1Char('\n'), 0, 0);
    case RunState::Cancelled:
        return spec.latest ? tr("stale (cancelled; F5 re-runs it)") : tr("cancelled (F5 runs it)");
    case RunState::Current:
    case RunState::Running:
        break;
    }
    return spec.latest ? tr("done") : tr("queued");
}

QVariant RunsModel::value(const RunSpec& spec, int column) const
{
    if (column == RunColumn)
        return spec.label();
    if (column == RankColumn || column == VsBaselineColumn)
        return rankingValue(spec, column);
    if (column == StatusColumn)
        return spec.running() ? spec.progress : (spec.latest ? 2.0 : -1.0);
    if (!spec.latest)
        return {};
    const auto& m = spec.latest->result->metrics;
    if (column == CostColumn || column == CarbonColumn) {
        const auto cost = model::scenarioRunCost(*spec.latest->scenario, *spec.latest->result);
        if (!cost)
            return {};
        return column == CostColumn ? cost->totalPerDay : cost->carbonKgPerDay;
    }
    const BoundsPtr bounds = spec.stale() ? nullptr : m_workspace->boundsFor(spec.variant);
    const double tBound = bounds && bounds->tardiness.computed ? bounds->tardiness.avgTardinessMin : 0.0;
    switch (column) {
    case EnergyColumn:
        return m.energyWmin / kWminPerKwh;
    case EnergyGapColumn:
        return bounds ? QVariant(percentAbove(m.energyWmin, bounds->energy.energyWmin)) : QVariant();
    case AvgTardinessColumn:
        return m.avgTardinessMin;
    case P95TardinessColumn:
        return m.p95TardinessMin;
    case MaxTardinessColumn:
        return m.maxTardinessMin;
    case TardinessGapColumn:
        // Without a tardiness bound (refused for a day it cannot bound) there is nothing to compare with.
        return bounds ? QVariant(bounds->tardiness.computed ? m.avgTardinessMin - tBound : qQNaN()) : QVariant();
    case EtColumn:
        return m.et;
    case ChurnColumn:
        return m.changesPerGpuDay;
    case DowntimeColumn:
        return m.downtimePerGpuDayMin;
    case EtGapColumn:
        // Against a tardiness bound far below any schedule (every real day: docs/bounds.md) the ET
        // bound is about a x E_LB / (a + 1), and the "gap" would mostly be the run's own tardiness,
        // read as thousands of percent. Say n/a then; the tardiness gap in minutes stays.
        if (!bounds)
            return {};
        return bounds->tardiness.etGapMeaningful ? QVariant(percentAbove(m.et, model::etBound(*bounds, m.energyWeight)))
                                                 : QVariant(qQNaN());
    default:
        return {};
    }
}

QString RunsModel::text(const RunSpec& spec, int column) const
{
    if (column == RunColumn)
        return spec.label();
    if (column == StatusColumn)
        return status(spec);
    if (column == RankColumn || column == VsBaselineColumn)
        return rankingText(spec, column);
    const QVariant v = value(spec, column);
    if (!v.isValid()) {
        const bool pending = spec.latest && column != EnergyColumn && column != CostColumn && column != CarbonColumn;
        return pending ? tr("…") : QString();
    }
    const QLocale locale;
    const double d = v.toDouble();
    switch (column) {
    case EnergyGapColumn:
    case EtGapColumn:
        return qIsNaN(d) ? tr("n/a") : tr("+%1%").arg(locale.toString(d, 'f', 1));
    case TardinessGapColumn:
        return qIsNaN(d) ? tr("n/a") : tr("+%1").arg(locale.toString(d, 'f', 2));
    case EtColumn:
        return locale.toString(d, 'f', 3);
    default:
        return locale.toString(d, 'f', 2);
    }
}

QVariant RunsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RunSpec& spec = m_workspace->runs()[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return text(spec, index.column());
    case SortRole:
        return value(spec, index.column());
    case KeyRole:
        return spec.key;
    case Qt::TextAlignmentRole:
        return index.column() <= StatusColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                              : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (spec.stale() || spec.stopped())
            return staleTextColour(); // not the current scenario's result
        return {};
    case Qt::ToolTipRole:
        if (index.column() == StatusColumn && !spec.error.isEmpty())
            return spec.error;
        if (const BoundsPtr b = m_workspace->boundsFor(spec.variant); index.column() == TardinessGapColumn && b)
            return QString::fromStdString(b->tardiness.note);
        return index.column() == RunColumn ? tr("Run %1: %2").arg(spec.latest ? spec.latest->id : 0).arg(spec.label())
                                           : QVariant();
    default:
        return {};
    }
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    static const char* const names[ColumnCount] = {QT_TR_NOOP("Run"),
                                                   QT_TR_NOOP("Status"),
                                                   QT_TR_NOOP("Energy\n(kWh)"),
                                                   QT_TR_NOOP("vs E\nbound"),
                                                   QT_TR_NOOP("Avg tard.\n(min)"),
                                                   QT_TR_NOOP("p95 tard.\n(min)"),
                                                   QT_TR_NOOP("Max tard.\n(min)"),
                                                   QT_TR_NOOP("vs T bound\n(min)"),
                                                   QT_TR_NOOP("ET"),
                                                   QT_TR_NOOP("vs ET\nbound"),
                                                   QT_TR_NOOP("Rank"),
                                                   QT_TR_NOOP("vs\nbaseline"),
                                                   QT_TR_NOOP("Cost/day"),
                                                   QT_TR_NOOP("CO2/day\n(kg)"),
                                                   QT_TR_NOOP("Changes/\nGPU/day"),
                                                   QT_TR_NOOP("Downtime/\nGPU/day (min)")};
    static const char* const tips[ColumnCount] = {
        QT_TR_NOOP("scheduler / repartitioner"),
        QT_TR_NOOP("done, running (with progress), stale (an older scenario or parameters) or failed"),
        QT_TR_NOOP("energy of the whole fleet over the run"),
        QT_TR_NOOP("how far above the energy lower bound (E_LB) of the scenario's jobs"),
        QT_TR_NOOP("average tardiness over completed jobs"),
        QT_TR_NOOP("95th percentile of tardiness (nearest rank)"),
        QT_TR_NOOP("largest tardiness of a job"),
        QT_TR_NOOP("average tardiness minus its lower bound (docs/bounds.md; n/a when no bound was computed)"),
        QT_TR_NOOP("(a x energy + average tardiness) / (a + 1)"),
        QT_TR_NOOP("how far above the ET of the lower bounds; n/a unless the tardiness LP was solved (small days): the "
                   "bounds for real days are far below any schedule (docs/bounds.md)"),
        QT_TR_NOOP("rank on the objective chosen above the table (1 = best); \"over T\": average tardiness above the "
                   "limit, ranked after the others"),
        QT_TR_NOOP("difference to the baseline run in % of the baseline's objective, paired by seed; ± its 95% "
                   "interval with several seeds, n.s. when the interval holds 0"),
        QT_TR_NOOP("energy cost (each hour's energy x its price) + amortised GPU cost, per simulated day; empty "
                   "without cost settings (Scenario settings)"),
        QT_TR_NOOP("each hour's energy x its carbon intensity, per simulated day"),
        QT_TR_NOOP("churn: GPU layout changes after time 0 per GPU per day of the run (its makespan)"),
        QT_TR_NOOP("minutes per GPU per day that GPUs spent reconfiguring (the scenario's reconfiguration time of each "
                   "change that created instances, overlaps counted once)")};
    if (role == Qt::DisplayRole && section == CostColumn) {
        const auto scenario = m_workspace->scenario();
        const bool priced = scenario && scenario->cost;
        return priced ? tr("Cost/day\n(%1)").arg(QString::fromStdString(scenario->cost->currency)) : tr(names[section]);
    }
    if (role == Qt::DisplayRole)
        return tr(names[section]);
    if (role == Qt::ToolTipRole)
        return tr(tips[section]);
    return {};
}

} // namespace ui

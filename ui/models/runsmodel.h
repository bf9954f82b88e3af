// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "verdict.h"

#include <QAbstractTableModel>

#include <map>

namespace ui {

class Workspace;
struct RunSpec;

/// The Runs table: one row per run spec of the workspace with its latest metrics and the gaps
/// to the scenario's lower bounds. Stale rows are greyed and say so in the Status column.
class RunsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        RunColumn,
        StatusColumn,
        EnergyColumn,
        EnergyGapColumn,
        AvgTardinessColumn,
        P95TardinessColumn,
        MaxTardinessColumn,
        TardinessGapColumn,
        EtColumn,
        EtGapColumn,
        RankColumn,       ///< the verdict's rank (docs/planning.md, "Verdicts")
        VsBaselineColumn, ///< % difference to the verdict's baseline
        CostColumn,       ///< total cost per day (docs/planning.md, Cost and carbon); empty without prices
        CarbonColumn,     ///< kg CO2 per day
        ChurnColumn,      ///< layout changes per GPU per day
        DowntimeColumn,   ///< reconfiguration downtime, minutes per GPU per day
        ColumnCount
    };
    /// Unformatted value (double) for sorting and tests; the spec's key on every column.
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int KeyRole = Qt::UserRole + 2;

    explicit RunsModel(Workspace* workspace, QObject* parent = nullptr);

    /// The verdict's rows by spec key (runs without a current result are not ranked).
    void setRanking(std::map<int, model::RankedRun> byKey);

    /// Row of the spec with @p key, -1 if absent.
    [[nodiscard]] int rowOf(int key) const;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    [[nodiscard]] QVariant value(const RunSpec& spec, int column) const;
    [[nodiscard]] QString text(const RunSpec& spec, int column) const;
    [[nodiscard]] QString status(const RunSpec& spec) const;
    [[nodiscard]] QVariant rankingValue(const RunSpec& spec, int column) const;
    [[nodiscard]] QString rankingText(const RunSpec& spec, int column) const;

    Workspace* m_workspace;
    std::map<int, model::RankedRun> m_ranking;
};

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cost.h"
#include "results.h"

#include <QAbstractTableModel>
#include <QString>

#include <optional>
#include <vector>

namespace ui {

/// One line of the metrics table.
struct MetricRow
{
    QString name;
    double value = 0.0; ///< in @c unit
    QString text;       ///< value as shown
    QString unit;
    QString description; ///< tooltip: what it means
};

/// The rows shown for a run's metrics, in display order (energy in kWh, times in minutes); with a
/// cost, its rows follow the energy (docs/planning.md, Cost and carbon).
[[nodiscard]] std::vector<MetricRow> metricRows(const simcore::RunMetrics& metrics,
                                                const std::optional<model::RunCost>& cost = std::nullopt);

/// The cost rows alone: energy cost, GPU cost, total, total per day, carbon.
[[nodiscard]] std::vector<MetricRow> costRows(const model::RunCost& cost);

/// Table of a run's headline metrics: rows = metrics, columns = name / value / unit. Holds its
/// own copy of the rows, so the run it came from may go away.
class MetricsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, ValueColumn, UnitColumn, ColumnCount };
    /// The unformatted value (double) of a row, on any column.
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit MetricsModel(QObject* parent = nullptr);

    void setMetrics(const simcore::RunMetrics& metrics, const std::optional<model::RunCost>& cost = std::nullopt);
    void clear();
    /// Row of the metric called @p name, -1 if absent.
    [[nodiscard]] int rowOf(const QString& name) const;

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    std::vector<MetricRow> m_rows;
};

} // namespace ui

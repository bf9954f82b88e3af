// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chartwidget.h"
#include "sweep.h"

#include <QWidget>

#include <optional>
#include <vector>

class QLabel;
class QCPAbstractItem;

namespace ui {

/// What the sweep chart draws at one load: per board, a point per GPU count; the frontier as a
/// line; the knee. Energy in kWh, tardiness in minutes floored at kMinTardiness (log axis).
struct SweepPlotData
{
    static constexpr double kMinTardiness = 0.01;
    struct Point
    {
        double tardiness = 0.0; ///< plotted (floored) value
        double energyKwh = 0.0;
        int gpus = 0;
    };
    std::vector<QString> boards;
    std::vector<std::vector<Point>> pointsByBoard;
    std::vector<Point> frontier; ///< energy ascending
    std::optional<Point> knee;
    std::optional<double> targetMin; ///< the target's limit, drawn as a vertical line
};

/// Builds the chart's data from a sweep: cells of @p load, tardiness of @p metric.
[[nodiscard]] SweepPlotData sweepPlotData(const model::SweepResult& result, size_t load, model::TardinessMetric metric,
                                          const std::optional<model::TardinessTarget>& target);

/// The energy-tardiness scatter of a sweep (one point per GPU count and board).
class SweepChart : public ChartWidget
{
    Q_OBJECT

public:
    explicit SweepChart(QWidget* parent = nullptr);
    void setData(const SweepPlotData& plotData, const QString& tardinessLabel);

private:
    void addBoard(int index, const QString& name, const std::vector<SweepPlotData::Point>& points);
    void addFrontier(const SweepPlotData& plotData);
    void addLabel(const SweepPlotData::Point& p, const QString& text, const QColor& colour, bool bold);

    std::vector<QCPAbstractItem*> m_items; ///< labels and the target line (the base class owns other items)
};

/// A sweep's result (model::SweepResult) for a Plan page: the energy-tardiness chart at one load
/// with the frontier and its knee, and the fewest-GPUs answer per board.
class SweepView : public QWidget
{
    Q_OBJECT

public:
    explicit SweepView(QWidget* parent = nullptr);

    /// Shows @p result at load index @p load; with @p target, the answer sentence per board.
    void setResult(const model::SweepResult& result, size_t load, model::TardinessMetric metric,
                   const std::optional<model::TardinessTarget>& target);

    /// Shows nothing (a document without a sweep).
    void clear();

    [[nodiscard]] SweepChart* chart() const { return m_chart; }
    [[nodiscard]] QString answerText() const;
    [[nodiscard]] const SweepPlotData& plotData() const { return m_data; }

private:
    SweepChart* m_chart = nullptr;
    QLabel* m_answer = nullptr;
    SweepPlotData m_data;
};

} // namespace ui

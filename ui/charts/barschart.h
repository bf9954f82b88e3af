// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chartwidget.h"
#include "report_data.h"

#include <optional>
#include <vector>

class QCPItemLine;
class QCPTextElement;

namespace ui {

/// One compared run in the bar chart.
struct BarRun
{
    QString label;
    double energyKwh = 0.0;
    double avgTardinessMin = 0.0;
    double et = 0.0;
    bool stale = false;
};

/// Lower bounds drawn as dashed lines over the bars (nullopt: not known).
struct BarBounds
{
    std::optional<double> energyKwh;
    std::optional<double> avgTardinessMin;
    std::optional<double> et;
};

/// The marks of @p bounds: energy in kWh, tardiness when it was solved, ET (model::etBound).
[[nodiscard]] BarBounds barBounds(const model::Bounds& bounds, double energyWeight);

/// Energy, average tardiness and ET of the compared runs, one panel each, with the lower
/// bounds of the scenario's jobs marked.
class BarsChart : public ChartWidget
{
    Q_OBJECT

public:
    explicit BarsChart(QWidget* parent = nullptr);

    void setRuns(const std::vector<BarRun>& runs, const BarBounds& bounds);
    [[nodiscard]] int barCount() const { return m_bars; }
    [[nodiscard]] int boundCount() const { return static_cast<int>(m_lines.size()); }
    /// The key under the panels ("A = ...     B = ...     - - - lower bound").
    [[nodiscard]] QString keyText() const;

private:
    void addPanel(int column, const QString& label, const std::vector<double>& values, const std::vector<bool>& stale,
                  std::optional<double> bound);

    int m_bars = 0;
    std::vector<QCPItemLine*> m_lines;
    QCPTextElement* m_key = nullptr;
};

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chartwidget.h"

#include <vector>

class QCPAxisRect;
class QCPColorMap;
class QCPColorScale;
class QCPGraph;

namespace simcore {
struct RunResult;
} // namespace simcore

namespace ui {

/// Each GPU's power, time-weighted over bins of equal length (a row per GPU), for the strip.
struct PowerStrip
{
    int gpus = 0;
    int bins = 0;
    double endHours = 0.0;
    std::vector<double> watts; ///< bins x gpus, GPU-major: watts[g * bins + b]
    double maxWatts = 0.0;

    [[nodiscard]] double at(int gpu, int bin) const { return watts[static_cast<size_t>(gpu * bins + bin)]; }
};

/// Averages each GPU's power steps over @p bins equal bins from 0 to the run's end.
[[nodiscard]] PowerStrip powerStrip(const simcore::RunResult& result, int bins);

/// One run's power: the fleet's total as a line, and under it a strip with a row per GPU whose
/// colour says its power (pale idle, dark red at full power). One line per GPU on the total's
/// axis would be a tangle along the bottom at eight GPUs, and unreadable at a thousand.
class PowerChart : public ChartWidget
{
    Q_OBJECT

public:
    explicit PowerChart(const QString& title, QWidget* parent = nullptr);

    void setRun(const simcore::RunResult& result);
    /// Lines drawn (the total) and rows of the strip (one per GPU).
    [[nodiscard]] int lineCount() const;
    [[nodiscard]] int gpuRows() const { return m_strip.gpus; }
    [[nodiscard]] const PowerStrip& strip() const { return m_strip; }

private:
    void setupStrip();
    void setupGpuAxis();

    QCPGraph* m_total = nullptr;
    QCPAxisRect* m_stripRect = nullptr;
    QCPColorMap* m_map = nullptr;
    QCPColorScale* m_scale = nullptr;
    PowerStrip m_strip;
};

} // namespace ui

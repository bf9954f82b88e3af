// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a test): replot time of the occupancy Gantt with 1,000,000 segments, offscreen.
//   build/release/bench/bench_gantt [segments] [rows]
#include "ganttchart.h"
#include "ganttdata.h"

#include <QApplication>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

/// Rows of back-to-back jobs with short idle gaps, like a busy fleet over a day.
std::shared_ptr<ui::GanttData> synthetic(size_t segments, int rows)
{
    auto data = std::make_shared<ui::GanttData>();
    data->typeNames = {QStringLiteral("Training"), QStringLiteral("Inference"), QStringLiteral("Fine-tuning"),
                       QStringLiteral("Batch")};
    std::mt19937_64 rng(42);
    const size_t perRow = segments / static_cast<size_t>(rows);
    const double mean = 24.0 / static_cast<double>(perRow) * 0.9;
    for (int r = 0; r < rows; ++r) {
        ui::GanttRow row;
        row.gpu = r / 8;
        row.start = r % 8;
        row.label = QStringLiteral("GPU %1 · 1g @%2").arg(row.gpu).arg(row.start);
        row.present.emplace_back(0.0, 24.0);
        double t = 0.0;
        for (size_t i = 0; i < perRow; ++i) {
            const double gap = mean * 0.1 * static_cast<double>(rng() % 1000) / 1000.0;
            const double len = mean * (0.2 + 1.6 * static_cast<double>(rng() % 1000) / 1000.0);
            row.t0.push_back(t + gap);
            row.t1.push_back(t + gap + len);
            row.job.push_back(static_cast<int>(data->segmentCount + i));
            row.type.push_back(static_cast<std::uint8_t>(rng() % 4));
            t += gap + len;
        }
        data->endHours = std::max(data->endHours, t);
        data->segmentCount += perRow;
        data->rows.push_back(std::move(row));
    }
    return data;
}

struct Stats
{
    double median = 0.0;
    double max = 0.0;
};

Stats stats(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.back()};
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const size_t segments = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000000;
    const int rows = argc > 2 ? std::atoi(argv[2]) : 200;
    ui::GanttChart chart(QStringLiteral("bench"));
    chart.resize(1600, 900);
    chart.show();
    chart.setGantt(synthetic(segments, rows), {QStringLiteral("Training"), QStringLiteral("Inference"),
                                               QStringLiteral("Fine-tuning"), QStringLiteral("Batch")});
    QApplication::processEvents();
    std::printf("gantt: %zu segments in %d rows, %dx%d px\n", chart.segmentCount(), chart.rowCount(), chart.width(),
                chart.height());

    chart.replotNow(); // warm-up (layout, fonts)
    std::vector<double> whole;
    for (int i = 0; i < 20; ++i)
        whole.push_back(chart.replotNow());
    const long wholeRects = chart.lastRectCount();

    std::vector<double> pan; // a 3-hour window dragged across the day, then zoom steps
    for (int i = 0; i <= 60; ++i) {
        const double from = 21.0 * i / 60.0;
        chart.setTimeRange(from, from + 3.0);
        pan.push_back(chart.replotNow());
    }
    std::vector<double> zoom;
    for (int i = 0; i < 30; ++i) {
        const double half = 12.0 * std::pow(0.8, i);
        chart.setTimeRange(12.0 - half, 12.0 + half);
        zoom.push_back(chart.replotNow());
    }
    const Stats w = stats(whole), p = stats(pan), z = stats(zoom);
    std::printf("replot whole day : median %.1f ms, max %.1f ms (%ld rectangles)\n", w.median, w.max, wholeRects);
    std::printf("pan 3 h window   : median %.1f ms, max %.1f ms\n", p.median, p.max);
    std::printf("zoom in 30 steps : median %.1f ms, max %.1f ms\n", z.median, z.max);
    return 0;
}

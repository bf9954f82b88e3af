// SPDX-License-Identifier: GPL-3.0-or-later
#include "workloadhistograms.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace ui {

const std::vector<double>& sizeBinEdges()
{
    // Roughly logarithmic: inference jobs are minutes, training jobs near an hour.
    static const std::vector<double> edges{1.0, 2.0, 5.0, 10.0, 20.0, 40.0, 60.0, 120.0};
    return edges;
}

namespace {

QStringList sizeLabels()
{
    QStringList labels;
    const auto& edges = sizeBinEdges();
    double lower = 0.0;
    for (double edge : edges) {
        labels << QStringLiteral("%1–%2").arg(lower).arg(edge);
        lower = edge;
    }
    labels << QStringLiteral("≥%1").arg(lower);
    return labels;
}

int sizeBin(double work)
{
    const auto& edges = sizeBinEdges();
    return static_cast<int>(std::upper_bound(edges.begin(), edges.end(), work) - edges.begin());
}

} // namespace

WorkloadHistograms workloadHistograms(const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types)
{
    WorkloadHistograms h;
    h.jobs = static_cast<int>(jobs.size());
    h.sizeLabels = sizeLabels();
    h.bySize.assign(static_cast<size_t>(h.sizeLabels.size()), 0);
    for (const simcore::JobType& type : types)
        h.typeLabels << QString::fromStdString(type.label.empty() ? type.id : type.label);
    h.byType.assign(types.size(), 0);
    double first = jobs.empty() ? 0.0 : jobs.front().release;
    double last = first;
    for (const simcore::Job& job : jobs) {
        const int hour = static_cast<int>(std::floor(std::max(0.0, job.release) / 60.0)) % 24;
        ++h.byHour[static_cast<size_t>(hour)];
        ++h.bySize[static_cast<size_t>(sizeBin(job.work1g))];
        if (job.type < 0 || job.type >= static_cast<int>(h.byType.size())) {
            // A job of a type the scenario does not list still counts, in a bin of its own.
            if (h.typeLabels.size() == static_cast<int>(types.size())) {
                h.typeLabels << QCoreApplication::translate("ui::WorkloadHistograms", "other");
                h.byType.push_back(0);
            }
            ++h.byType.back();
        } else {
            ++h.byType[static_cast<size_t>(job.type)];
        }
        h.workSliceMinutes += job.work1g;
        first = std::min(first, job.release);
        last = std::max(last, job.release);
    }
    h.spanMin = last - first;
    return h;
}

} // namespace ui

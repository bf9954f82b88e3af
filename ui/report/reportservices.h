// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "reportpages.h"

#include <QColor>
#include <QStringList>

#include <string>
#include <vector>

namespace model {
struct ServiceRunResult;
struct ServiceSummary;
} // namespace model

namespace ui {

struct SeriesLine;

/// Headers of one service's figures per run (docs/services.md, "Commands"), after a first column
/// naming the run: served, failed, SLO attainment, effective throughput, p95 latency, cost, energy.
[[nodiscard]] QStringList serviceHeaders();
/// The cells of serviceHeaders() for one run's figures of one service.
[[nodiscard]] QStringList serviceCells(const model::ServiceSummary& summary);

/// The services of @p runs by name: those of the first run in its order, then any other run's
/// new ones, and "overall" last when there are several.
[[nodiscard]] std::vector<std::string> serviceNames(const std::vector<const model::ServiceRunResult*>& runs);
/// The figures of service @p name ("overall" for all) in @p run, null when it has no such service.
[[nodiscard]] const model::ServiceSummary* serviceSummary(const model::ServiceRunResult& run, const std::string& name);

/// What a services chart shows over the day.
enum class ServiceMeasure { Replicas, Attainment };
/// One run's line of @p measure for service @p name ("" or "overall": all services summed); no
/// points when the run has no such service.
[[nodiscard]] SeriesLine serviceLine(const model::ServiceRunResult& run, const std::string& name,
                                     ServiceMeasure measure, const QString& label, const QColor& colour);

/// The services whose charts each of the report's "Inference services over the day" pages shows,
/// in serviceNames() order ("overall" has none), two to a page.
[[nodiscard]] std::vector<std::vector<std::string>> serviceChartPages(const model::ReportData& data);

/// The report's inference services pages when a run has services, else none: the tables of every
/// service's figures per run, then per service its replicas per variant and SLO attainment over
/// the day (one line per run, or per run and variant), as serviceChartPages() pages them.
[[nodiscard]] std::vector<ReportPage> servicePages(const model::ReportData& data, const ReportStyle& style);

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "day_plan.h"
#include "plan_session.h"
#include "plan_static.h"
#include "scenario.h"
#include "sweep.h"

#include <QObject>

#include <memory>

namespace ui {

/// One Plan page result and the scenario it was computed on (which tells whether it is stale); the
/// same type the session reader gives (model/plan_session.h).
template <typename Result>
using Study = model::StoredStudy<Result>;

/// Whether two scenarios have the same boards GPU by GPU (a day plan applies per GPU).
[[nodiscard]] bool sameGpuBoards(const model::Scenario& a, const model::Scenario& b);
/// Whether two scenarios have the same fleet groups: board and GPU count (a static search's layouts
/// apply group by group).
[[nodiscard]] bool sameFleetGroups(const model::Scenario& a, const model::Scenario& b);
/// Whether a study made on @p studied still describes @p now: everything but the repartitioner
/// (which applying a day plan itself changes) is the same.
[[nodiscard]] bool sameStudyInputs(const model::Scenario& now, const model::Scenario& studied);

/// The document's planning studies: the Plan page's best static layouts, day plan and fleet-size
/// sweep. They belong to the document, not to the tabs: a session keeps them (docs/sessions.md,
/// "Planning studies"), so reopening it shows a search that took minutes without running it again.
class Studies : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    [[nodiscard]] const Study<model::StaticSearchResult>& staticSearch() const { return m_static; }
    [[nodiscard]] const Study<model::DayPlanResult>& dayPlan() const { return m_day; }
    [[nodiscard]] const Study<model::SweepResult>& sweep() const { return m_sweep; }

    /// A tab finished a computation: its result replaces the previous one.
    void setStaticSearch(Study<model::StaticSearchResult> study) { m_static = std::move(study); }
    void setDayPlan(Study<model::DayPlanResult> study) { m_day = std::move(study); }
    void setSweep(Study<model::SweepResult> study) { m_sweep = std::move(study); }

    /// Another document's studies (empty ones for a document without any); the tabs show them.
    void restore(Study<model::StaticSearchResult> staticSearch, Study<model::DayPlanResult> dayPlan,
                 Study<model::SweepResult> sweep);
    void clear() { restore({}, {}, {}); }

signals:
    /// The studies were replaced by another document's.
    void restored();

private:
    Study<model::StaticSearchResult> m_static;
    Study<model::DayPlanResult> m_day;
    Study<model::SweepResult> m_sweep;
};

} // namespace ui

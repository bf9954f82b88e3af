// SPDX-License-Identifier: GPL-3.0-or-later
// The time-indexed LP relaxation of average tardiness, solved with GLPK (docs/bounds.md).
#include "glpk_lp.h"
#include "lower_bounds.h"

#include <algorithm>
#include <cmath>

namespace policies {

namespace {

using glpk::Matrix;

/// Builds and solves the LP; returns the optimum or a negative number if GLPK failed.
double solve(const std::vector<LinearJob>& jobs, int machines, double eps, int slots)
{
    const auto n = static_cast<int>(jobs.size());
    const glpk::Problem lp = glpk::newProblem();
    glp_set_obj_dir(lp.get(), GLP_MIN);
    // Rows 1..n: work of job j; n+1..2n: tardiness of job j; 2n+1..2n+slots: slot capacity.
    glp_add_rows(lp.get(), 2 * n + slots);
    Matrix a;
    for (int j = 0; j < n; ++j) {
        const LinearJob& job = jobs[static_cast<size_t>(j)];
        glp_set_row_bnds(lp.get(), j + 1, GLP_FX, job.work, job.work);
        glp_set_row_bnds(lp.get(), n + j + 1, GLP_LO, job.work / 2.0 - job.deadline, 0.0);
        const int t = glp_add_cols(lp.get(), 1);
        glp_set_col_bnds(lp.get(), t, GLP_LO, 0.0, 0.0);
        glp_set_obj_coef(lp.get(), t, 1.0 / n);
        a.add(n + j + 1, t, 1.0);
        const int first = std::max(0, static_cast<int>(std::floor(job.release / eps)));
        for (int s = first; s < slots; ++s) {
            const double start = std::max(s * eps, job.release);
            const double cap = std::min(eps, (s + 1) * eps - job.release);
            if (cap <= 0.0)
                continue;
            const int x = glp_add_cols(lp.get(), 1);
            glp_set_col_bnds(lp.get(), x, GLP_DB, 0.0, cap);
            a.add(j + 1, x, 1.0);
            a.add(n + j + 1, x, -start / job.work);
            a.add(2 * n + s + 1, x, 1.0);
        }
    }
    for (int s = 0; s < slots; ++s)
        glp_set_row_bnds(lp.get(), 2 * n + s + 1, GLP_UP, 0.0, machines * eps);
    a.loadInto(lp.get());
    if (!glpk::solveSimplex(lp.get()))
        return -1.0;
    return std::max(0.0, glp_get_obj_val(lp.get()));
}

} // namespace

TardinessBound tardinessLpBound(const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types,
                                int machines, int maxJobs)
{
    TardinessBound b;
    if (jobs.empty()) {
        b.computed = true;
        b.etGapMeaningful = true;
        b.note = "no jobs";
        return b;
    }
    if (static_cast<int>(jobs.size()) > maxJobs) {
        b.note = "not computed: " + std::to_string(jobs.size()) + " jobs; the time-indexed LP is solved for at most " +
                 std::to_string(maxJobs) + " jobs";
        return b;
    }
    const auto linear = linearise(jobs, types);
    if (std::any_of(linear.begin(), linear.end(), [](const LinearJob& j) { return !(j.work > 0.0); })) {
        b.note = "not computed: a job without work (the LP divides by it)";
        return b;
    }
    double lastRelease = 0.0;
    double work = 0.0;
    double longest = 0.0;
    for (const auto& j : linear) {
        lastRelease = std::max(lastRelease, j.release);
        work += j.work;
        longest = std::max(longest, j.work);
    }
    // Some optimal LP solution is "left-shifted" and so ends by this greedy horizon.
    const double horizon = lastRelease + work / machines + longest;
    const int slots = std::clamp(60000 / static_cast<int>(jobs.size()), 50, 1440);
    b.slotMin = horizon / slots;
    const double value = solve(linear, machines, b.slotMin, slots + 1);
    glp_free_env(); // GLPK keeps an environment per thread; compare's worker threads must not leak it
    if (value < 0.0) {
        b.note = "not computed: the LP solver did not reach an optimum";
        return b;
    }
    b.computed = true;
    b.etGapMeaningful = true;
    b.method = "lp";
    b.avgTardinessMin = value;
    b.note =
        "time-indexed LP relaxation, " + std::to_string(slots + 1) + " slots of " + std::to_string(b.slotMin) + " min";
    return b;
}

} // namespace policies

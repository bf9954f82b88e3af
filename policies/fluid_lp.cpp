// SPDX-License-Identifier: GPL-3.0-or-later
// The fluid LP of the day planner, solved with GLPK (docs/planning.md, "Best day plan").
#include "fluid_lp.h"

#include "glpk_lp.h"
#include "slices.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace policies {

namespace {

/// Column numbers of the LP's variables (GLPK numbers from 1; 0 means "no such variable").
struct Columns
{
    std::vector<std::vector<int>> x;                ///< [t][c]
    std::vector<std::vector<std::array<int, 8>>> y; ///< [t][k][s]
    std::vector<std::vector<int>> q;                ///< [t][k]
    std::vector<std::vector<int>> up;               ///< [t][c], t >= 1: increase of x
    std::vector<std::vector<int>> down;             ///< [t][c], t >= 1: decrease of x
};

using glpk::Matrix;

/// Objective weights in ET units (docs/planning.md): a = 0.5 weighs energy and tardiness as the
/// scenario's ET does.
struct Weights
{
    double energy = 0.0;    ///< per W*min
    double tardiness = 0.0; ///< per minute of average tardiness
    double change = 0.0;    ///< per GPU that changes configuration
};

Weights weightsOf(const FluidInstance& in)
{
    Weights w;
    const double A = in.etEnergyWeight;
    w.energy = 2.0 * in.a * A / (A + 1.0);
    w.tardiness = 2.0 * (1.0 - in.a) / (A + 1.0);
    double instances = 0.0;
    for (const auto& c : in.configInstances) {
        for (int s = 1; s <= simcore::kWholeGpuSlices; ++s)
            instances += c[static_cast<size_t>(s)];
    }
    instances /= static_cast<double>(in.configInstances.size());
    // A changed GPU delays the jobs of its instances by R; a tiny floor prefers fewer changes among equal plans.
    w.change = w.tardiness * in.reconfigurationMin * instances / in.jobs + 1e-6;
    return w;
}

/// tau_k(s): tardiness per 1g minute of class-k work served on a size-s instance without waiting.
double latencyTardiness(const FluidInstance& in, size_t k, int s)
{
    const auto& sp = in.classSpeedup[k];
    return std::max(0.0, 1.0 / sp[static_cast<size_t>(s)] - in.classSlack[k] / sp[7]);
}

void check(const FluidInstance& in)
{
    const size_t configs = in.configInstances.size();
    const size_t classes = in.classSpeedup.size();
    if (in.periods < 1 || configs < 1 ||
        static_cast<double>(in.periods) * static_cast<double>(configs) > kMaxFluidCells)
        throw std::invalid_argument("fluid LP: periods x configurations must be 1.." + std::to_string(kMaxFluidCells));
    if (classes > 64 || in.classMeanWork.size() != classes || in.classSlack.size() != classes)
        throw std::invalid_argument("fluid LP: at most 64 job classes, each with a mean work and a slack");
    if (in.arrivals.size() != static_cast<size_t>(in.periods))
        throw std::invalid_argument("fluid LP: one arrival row per period is needed");
    for (const auto& row : in.arrivals) {
        if (row.size() != classes)
            throw std::invalid_argument("fluid LP: one arrival per class in every period is needed");
    }
    for (size_t k = 0; k < classes; ++k) {
        if (!(in.classMeanWork[k] > 0.0) || !(in.classSpeedup[k][7] > 0.0))
            throw std::invalid_argument("fluid LP: every job class needs work and a 7g speed-up above 0");
    }
    if (in.gpus < 1 || !(in.periodMin > 0.0) || !(in.jobs > 0.0) || in.a < 0.0 || in.a > 1.0)
        throw std::invalid_argument("fluid LP: needs GPUs, a period and jobs above 0 and a in [0, 1]");
}

/// Sizes that some configuration offers.
std::array<bool, 8> offeredSizes(const FluidInstance& in)
{
    std::array<bool, 8> offered{};
    for (const auto& c : in.configInstances) {
        for (int s = 1; s <= simcore::kWholeGpuSlices; ++s)
            offered[static_cast<size_t>(s)] = offered[static_cast<size_t>(s)] || c[static_cast<size_t>(s)] > 0;
    }
    return offered;
}

int addColumn(glp_prob* lp, double lower, double upper, double cost)
{
    const int c = glp_add_cols(lp, 1);
    glp_set_col_bnds(lp, c, upper > lower ? GLP_DB : GLP_LO, lower, upper);
    glp_set_obj_coef(lp, c, cost);
    return c;
}

Columns addColumns(glp_prob* lp, const FluidInstance& in, const Weights& w)
{
    const size_t T = static_cast<size_t>(in.periods);
    const size_t C = in.configInstances.size();
    const size_t K = in.classSpeedup.size();
    const auto offered = offeredSizes(in);
    Columns col;
    col.x.assign(T, std::vector<int>(C, 0));
    col.y.assign(T, std::vector<std::array<int, 8>>(K, std::array<int, 8>{}));
    col.q.assign(T, std::vector<int>(K, 0));
    col.up.assign(T, std::vector<int>(C, 0));
    col.down.assign(T, std::vector<int>(C, 0));
    for (size_t t = 0; t < T; ++t) {
        for (size_t c = 0; c < C; ++c) {
            col.x[t][c] = addColumn(lp, 0.0, in.gpus, 0.0);
            if (t > 0) {
                col.up[t][c] = addColumn(lp, 0.0, 0.0, w.change / 2.0);
                col.down[t][c] = addColumn(lp, 0.0, 0.0, w.change / 2.0);
            }
        }
        for (size_t k = 0; k < K; ++k) {
            for (int s = 1; s <= simcore::kWholeGpuSlices; ++s) {
                if (!offered[static_cast<size_t>(s)])
                    continue;
                const double busyPerWork = s / in.classSpeedup[k][static_cast<size_t>(s)];
                const double cost =
                    w.energy * in.slopeW * busyPerWork + w.tardiness * latencyTardiness(in, k, s) / in.jobs;
                col.y[t][k][static_cast<size_t>(s)] = addColumn(lp, 0.0, 0.0, cost);
            }
            col.q[t][k] = addColumn(lp, 0.0, 0.0, w.tardiness * in.periodMin / (in.classMeanWork[k] * in.jobs));
        }
    }
    return col;
}

/// Rows: the mix of each period, the capacity of each size, the class balances and the changes.
void addRows(glp_prob* lp, const FluidInstance& in, const Columns& col, Matrix& m)
{
    const size_t T = col.x.size();
    const size_t C = in.configInstances.size();
    const size_t K = in.classSpeedup.size();
    for (size_t t = 0; t < T; ++t) {
        const int mix = glp_add_rows(lp, 1);
        glp_set_row_bnds(lp, mix, GLP_FX, in.gpus, in.gpus);
        for (size_t c = 0; c < C; ++c)
            m.add(mix, col.x[t][c], 1.0);
        for (int s = 1; s <= simcore::kWholeGpuSlices; ++s) {
            if (col.y[t].empty() || col.y[t][0][static_cast<size_t>(s)] == 0)
                continue;
            const int cap = glp_add_rows(lp, 1);
            glp_set_row_bnds(lp, cap, GLP_UP, 0.0, 0.0);
            for (size_t k = 0; k < K; ++k)
                m.add(cap, col.y[t][k][static_cast<size_t>(s)], 1.0 / in.classSpeedup[k][static_cast<size_t>(s)]);
            for (size_t c = 0; c < C; ++c) {
                const double n = in.configInstances[c][static_cast<size_t>(s)];
                if (n <= 0.0)
                    continue;
                m.add(cap, col.x[t][c], -in.periodMin * n);
                if (t > 0)
                    m.add(cap, col.up[t][c], in.reconfigurationMin * n);
            }
        }
        for (size_t k = 0; k < K; ++k) {
            const int bal = glp_add_rows(lp, 1);
            glp_set_row_bnds(lp, bal, GLP_FX, in.arrivals[t][k], in.arrivals[t][k]);
            m.add(bal, col.q[t][k], 1.0);
            if (t > 0)
                m.add(bal, col.q[t - 1][k], -1.0);
            for (int s = 1; s <= simcore::kWholeGpuSlices; ++s) {
                if (col.y[t][k][static_cast<size_t>(s)] != 0)
                    m.add(bal, col.y[t][k][static_cast<size_t>(s)], 1.0);
            }
        }
        for (size_t c = 0; t > 0 && c < C; ++c) {
            const int chg = glp_add_rows(lp, 1);
            glp_set_row_bnds(lp, chg, GLP_FX, 0.0, 0.0);
            m.add(chg, col.x[t][c], 1.0);
            m.add(chg, col.x[t - 1][c], -1.0);
            m.add(chg, col.up[t][c], -1.0);
            m.add(chg, col.down[t][c], 1.0);
        }
    }
}

/// Reads the optimum and the parts of the objective from a solved LP.
void readPlan(glp_prob* lp, const FluidInstance& in, const Columns& col, FluidPlan& plan)
{
    const size_t T = col.x.size();
    const size_t C = in.configInstances.size();
    const size_t K = in.classSpeedup.size();
    plan.mix.assign(T, std::vector<double>(C, 0.0));
    plan.backlog.assign(T, std::vector<double>(K, 0.0));
    plan.served.assign(T, std::vector<std::array<double, 8>>(K, std::array<double, 8>{}));
    double busy = 0.0;
    double tardiness = 0.0;
    for (size_t t = 0; t < T; ++t) {
        for (size_t c = 0; c < C; ++c) {
            plan.mix[t][c] = glp_get_col_prim(lp, col.x[t][c]);
            if (t > 0)
                plan.gpuChanges += (glp_get_col_prim(lp, col.up[t][c]) + glp_get_col_prim(lp, col.down[t][c])) / 2.0;
        }
        for (size_t k = 0; k < K; ++k) {
            plan.backlog[t][k] = glp_get_col_prim(lp, col.q[t][k]);
            tardiness += in.periodMin * plan.backlog[t][k] / in.classMeanWork[k];
            for (int s = 1; s <= simcore::kWholeGpuSlices; ++s) {
                const int c = col.y[t][k][static_cast<size_t>(s)];
                const double v = c != 0 ? glp_get_col_prim(lp, c) : 0.0;
                plan.served[t][k][static_cast<size_t>(s)] = v;
                busy += v * s / in.classSpeedup[k][static_cast<size_t>(s)];
                tardiness += v * latencyTardiness(in, k, s);
            }
        }
    }
    plan.energyWmin = in.gpus * in.periodMin * static_cast<double>(T) * in.idleW + in.slopeW * busy;
    plan.tardinessProxyMin = tardiness / in.jobs;
    plan.objective = glp_get_obj_val(lp);
}

} // namespace

FluidPlan solveFluidLp(const FluidInstance& in)
{
    check(in);
    const Weights w = weightsOf(in);
    glpk::Problem lp = glpk::newProblem();
    glp_set_obj_dir(lp.get(), GLP_MIN);
    // The idle power of the whole fleet over the horizon: a constant of the objective.
    glp_set_obj_coef(lp.get(), 0, w.energy * in.gpus * in.periodMin * in.periods * in.idleW);
    const Columns col = addColumns(lp.get(), in, w);
    Matrix m;
    addRows(lp.get(), in, col, m);
    m.loadInto(lp.get());
    FluidPlan plan;
    if (!glpk::solveSimplex(lp.get())) {
        plan.note = "the LP solver did not reach an optimum";
    } else {
        readPlan(lp.get(), in, col, plan);
        plan.solved = true;
        plan.note = "fluid LP: " + std::to_string(glp_get_num_cols(lp.get())) + " variables, " +
                    std::to_string(glp_get_num_rows(lp.get())) + " constraints";
    }
    lp.reset();
    glp_free_env(); // GLPK keeps an environment per thread; worker threads must not leak it
    return plan;
}

void addJobsToFluidInstance(FluidInstance& in, const std::vector<simcore::Job>& jobs,
                            const std::vector<simcore::JobType>& types, double weight)
{
    const double horizon = in.periodMin * in.periods;
    std::vector<double> work(types.size(), 0.0);
    std::vector<double> slack(types.size(), 0.0);
    std::vector<double> count(types.size(), 0.0);
    std::vector<std::vector<double>> arrivals(static_cast<size_t>(in.periods), std::vector<double>(types.size(), 0.0));
    for (const auto& j : jobs) {
        if (j.release < 0.0 || j.release >= horizon || j.type < 0 || j.type >= static_cast<int>(types.size()))
            continue;
        const auto k = static_cast<size_t>(j.type);
        const double p7 = simcore::processingTime(j, types[k], simcore::kWholeGpuSlices);
        const auto t = std::min(static_cast<size_t>(j.release / in.periodMin), arrivals.size() - 1);
        arrivals[t][k] += weight * j.work1g;
        work[k] += weight * j.work1g;
        slack[k] += weight * (p7 > 0.0 ? (j.deadline - j.release) / p7 : 0.0);
        count[k] += weight;
    }
    in.classSpeedup.clear();
    in.classMeanWork.clear();
    in.classSlack.clear();
    in.arrivals.assign(arrivals.size(), {});
    in.jobs = 0.0;
    for (size_t k = 0; k < types.size(); ++k) {
        if (!(count[k] > 0.0) || !(work[k] > 0.0))
            continue;
        in.classSpeedup.push_back(types[k].speedup);
        in.classMeanWork.push_back(work[k] / count[k]);
        in.classSlack.push_back(slack[k] / count[k]);
        for (size_t t = 0; t < arrivals.size(); ++t)
            in.arrivals[t].push_back(arrivals[t][k]);
        in.jobs += count[k];
    }
    in.jobs = std::max(in.jobs, 1.0);
}

} // namespace policies

// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to policies/ (not installed): what the LPs solved with GLPK share, the fluid day plan
// (fluid_lp.cpp, docs/planning.md) and the time-indexed tardiness bound (tardiness_lp.cpp,
// docs/bounds.md).
#pragma once

#include <glpk.h>
#include <memory>
#include <vector>

namespace policies::glpk {

/// A GLPK problem that deletes itself.
using Problem = std::unique_ptr<glp_prob, void (*)(glp_prob*)>;

[[nodiscard]] inline Problem newProblem()
{
    return {glp_create_prob(), glp_delete_prob};
}

/// The constraint matrix as GLPK's 1-based triplets (entry 0 is unused).
struct Matrix
{
    std::vector<int> rows{0};
    std::vector<int> cols{0};
    std::vector<double> values{0.0};
    void add(int r, int c, double v)
    {
        rows.push_back(r);
        cols.push_back(c);
        values.push_back(v);
    }
    void loadInto(glp_prob* lp) const
    {
        glp_load_matrix(lp, static_cast<int>(rows.size()) - 1, rows.data(), cols.data(), values.data());
    }
};

/// Solves @p lp with the presolved simplex method and no terminal output; true at an optimum.
[[nodiscard]] inline bool solveSimplex(glp_prob* lp)
{
    glp_smcp params;
    glp_init_smcp(&params);
    params.msg_lev = GLP_MSG_OFF;
    params.presolve = GLP_ON;
    return glp_simplex(lp, &params) == 0 && glp_get_status(lp) == GLP_OPT;
}

} // namespace policies::glpk

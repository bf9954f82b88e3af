// SPDX-License-Identifier: GPL-3.0-or-later
// Reading and writing the Fleet size tab's grid fields (boards, loads, GPU counts): what
// plansweeppanel.cpp needs from the fields' text, apart from the panel itself.
#include "sweepfields.h"

#include "catalog.h"
#include "sweep.h"
#include "sweep_checks.h"

#include <QStringList>

#include <set>
#include <stdexcept>

namespace ui {

namespace {

/// Board names known to runSweep: the scenario's own boards and the catalog's.
std::set<std::string> knownBoards(const model::Scenario& scenario)
{
    std::set<std::string> names;
    for (const auto& g : scenario.fleet) {
        if (g.model)
            names.insert(g.model->name);
    }
    for (const auto& m : model::Catalog::builtin().models())
        names.insert(m->name);
    return names;
}

} // namespace

std::vector<std::string> parseSweepBoards(const QString& text, const model::Scenario& scenario)
{
    std::vector<std::string> out;
    if (text.trimmed().isEmpty())
        return out;
    const auto known = knownBoards(scenario);
    for (const QString& part : text.split(QLatin1Char(','))) {
        const std::string name = part.trimmed().toStdString();
        if (name.empty())
            throw std::invalid_argument("an empty board name in '" + text.toStdString() + "'");
        if (known.count(name) == 0)
            throw std::invalid_argument("unknown board '" + name + "' (valid: " + model::Catalog::builtin().names() +
                                        ")");
        out.push_back(name);
    }
    if (model::hasDuplicates(out))
        throw std::invalid_argument("a board is given twice");
    return out;
}

void checkSweepLoads(const model::Scenario& scenario, const std::vector<double>& loads)
{
    const bool csv = scenario.workload.kind == model::WorkloadSpec::Kind::Csv;
    for (double load : loads) {
        if (csv && load != 1.0)
            throw std::invalid_argument("the workload is a jobs CSV, a fixed list of jobs: only load 1 applies");
        (void)model::scaledLoad(scenario, load);
    }
}

QString gpuCountsText(const std::vector<int>& counts)
{
    QStringList parts;
    for (size_t i = 0; i < counts.size();) {
        size_t j = i;
        while (j + 1 < counts.size() && counts[j + 1] == counts[j] + 1)
            ++j;
        parts << (j > i + 1 ? QStringLiteral("%1-%2").arg(counts[i]).arg(counts[j]) : QString::number(counts[i]));
        if (j == i + 1)
            parts << QString::number(counts[j]);
        i = j + 1;
    }
    return parts.join(QLatin1Char(','));
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
// The workspace's variants (docs/planning.md, "Variants"): named overrides of the open scenario,
// each with the scenario its runs simulate, rebuilt whenever the base or the variant changes.
#include "input_limits.h"
#include "workspace.h"

#include <QTimer>

#include <algorithm>
#include <stdexcept>

namespace ui {

namespace {

template <typename Map>
void renameKey(Map& map, const QString& from, const QString& to)
{
    if (auto node = map.extract(from)) {
        node.key() = to;
        map.insert(std::move(node));
    }
}

} // namespace

const model::Variant* Workspace::variant(const QString& name) const
{
    const std::string key = name.toStdString();
    const auto it =
        std::find_if(m_variants.begin(), m_variants.end(), [&key](const model::Variant& v) { return v.name == key; });
    return it == m_variants.end() ? nullptr : &*it;
}

model::Variant* Workspace::mutableVariant(const QString& name)
{
    return const_cast<model::Variant*>(variant(name));
}

std::shared_ptr<const model::Scenario> Workspace::scenarioFor(const QString& variant) const
{
    if (variant.isEmpty())
        return m_scenario;
    const auto it = m_variantScenarios.find(variant);
    return it == m_variantScenarios.end() ? nullptr : it->second;
}

QString Workspace::variantProblem(const QString& name) const
{
    if (!variant(name))
        return tr("variant '%1' does not exist").arg(name);
    const auto it = m_variantProblems.find(name);
    return it == m_variantProblems.end() ? QString() : it->second;
}

BoundsPtr Workspace::boundsFor(const QString& variant) const
{
    if (variant.isEmpty())
        return m_bounds;
    const auto it = m_variantBounds.find(variant);
    return it == m_variantBounds.end() ? nullptr : it->second;
}

QString Workspace::freeVariantName() const
{
    for (int i = 0;; ++i) {
        QString name = tr("variant %1").arg(i < 26 ? QString(QChar(u'A' + i)) : QString::number(i + 1));
        if (!variant(name))
            return name;
    }
}

QString Workspace::addVariant(model::Variant added)
{
    const QString name = QString::fromStdString(added.name);
    if (const std::string problem = model::variantNameProblem(added.name); !problem.empty())
        return QString::fromStdString(problem);
    if (added.name == model::kBaseVariantName || variant(name))
        return tr("'%1' is taken: every variant needs its own name").arg(name);
    if (m_variants.size() >= model::kMaxVariants)
        return tr("at most %1 variants").arg(model::kMaxVariants);
    m_variants.push_back(std::move(added));
    rebuildVariantScenario(m_variants.back());
    setModified(true);
    emit variantsChanged();
    return {};
}

QString Workspace::renameVariant(const QString& from, const QString& to)
{
    if (from == to)
        return {};
    if (const std::string problem = model::variantNameProblem(to.toStdString()); !problem.empty())
        return QString::fromStdString(problem);
    if (to.toStdString() == model::kBaseVariantName || variant(to))
        return tr("'%1' is taken: every variant needs its own name").arg(to);
    model::Variant* renamed = mutableVariant(from);
    if (!renamed)
        return tr("variant '%1' does not exist").arg(from);
    renamed->name = to.toStdString();
    // The runs keep their results: only the name changed, not what they simulate.
    renameKey(m_variantScenarios, from, to);
    renameKey(m_variantProblems, from, to);
    renameKey(m_variantBounds, from, to);
    std::vector<int> moved;
    for (RunSpec& spec : m_runs)
        if (spec.variant == from) {
            spec.variant = to;
            moved.push_back(spec.key);
        }
    setModified(true);
    emit variantRenamed(from, to);
    emit variantsChanged();
    for (int key : moved)
        emit runSpecChanged(key);
    return {};
}

std::optional<RemovedVariant> Workspace::removeVariant(const QString& name)
{
    const std::string key = name.toStdString();
    const auto it =
        std::find_if(m_variants.begin(), m_variants.end(), [&key](const model::Variant& v) { return v.name == key; });
    if (it == m_variants.end())
        return std::nullopt;
    RemovedVariant removed{*it, static_cast<size_t>(it - m_variants.begin()), {}};
    m_variants.erase(it);
    m_variantScenarios.erase(name);
    m_variantProblems.erase(name);
    m_variantBounds.erase(name);
    for (RunSpec& spec : m_runs)
        if (spec.variant == name) {
            spec.variant.clear();
            removed.runs.push_back(spec.key);
        }
    setModified(true);
    emit variantRemoved(name);
    emit variantsChanged();
    rerunVariant(QString()); // the moved runs (and only the stale ones are started)
    return removed;
}

QString Workspace::restoreVariant(const RemovedVariant& removed)
{
    const QString name = QString::fromStdString(removed.variant.name);
    if (variant(name))
        return tr("'%1' is taken: every variant needs its own name").arg(name);
    if (m_variants.size() >= model::kMaxVariants)
        return tr("at most %1 variants").arg(model::kMaxVariants);
    const auto at = static_cast<std::ptrdiff_t>(std::min(removed.index, m_variants.size()));
    const auto it = m_variants.insert(m_variants.begin() + at, removed.variant);
    rebuildVariantScenario(*it);
    for (int key : removed.runs)
        if (RunSpec* spec = mutableSpec(key))
            spec->variant = name;
    setModified(true);
    emit variantsChanged();
    rerunVariant(name);
    return {};
}

void Workspace::setVariantFleet(const QString& name, std::optional<std::vector<model::FleetGroup>> fleet,
                                const QString& what)
{
    model::Variant* edited = mutableVariant(name);
    if (!edited || !m_scenario)
        return;
    noteEdit(tr("edit of %1 (%2)").arg(name, what));
    edited->fleet = std::move(fleet);
    rebuildVariantScenario(*edited);
    setModified(true);
    rerunVariant(name);
    emit variantsChanged();
    emit scenarioEdited(what);
}

QString Workspace::setVariantOverrides(const QString& name, const model::Variant& overrides)
{
    model::Variant* edited = mutableVariant(name);
    if (!edited || !m_scenario)
        return tr("variant '%1' does not exist").arg(name);
    model::Variant changed = *edited;
    changed.multiplier = overrides.multiplier;
    changed.seed = overrides.seed;
    changed.preemption = overrides.preemption;
    changed.energyWeight = overrides.energyWeight;
    if (overrides.seed && *overrides.seed > model::limits::kMaxSeed)
        return tr("the workload seed must be a whole number from 0 to %1").arg(model::limits::kMaxSeed);
    try { // the same checks as a variants file's (a multiplier needs a generated workload, job limits)
        (void)model::applyVariant(*m_scenario, changed);
    } catch (const std::exception& e) {
        return QString::fromLocal8Bit(e.what());
    }
    if (changed.multiplier == edited->multiplier && changed.seed == edited->seed &&
        changed.preemption == edited->preemption && changed.energyWeight == edited->energyWeight)
        return {};
    noteEdit(tr("overrides of %1").arg(name));
    *edited = std::move(changed);
    rebuildVariantScenario(*edited);
    setModified(true);
    rerunVariant(name);
    emit variantsChanged();
    emit scenarioEdited(tr("overrides of %1").arg(name));
    return {};
}

void Workspace::setVariants(std::vector<model::Variant> variants)
{
    m_variants = std::move(variants);
    m_variantScenarios.clear();
    m_variantProblems.clear();
    m_variantBounds.clear();
    rebuildVariantScenarios();
    emit variantsChanged();
}

void Workspace::setRunVariant(int key, const QString& name)
{
    RunSpec* spec = mutableSpec(key);
    if (!spec || spec->variant == name)
        return;
    noteEdit(tr("run %1 moved to %2").arg(key).arg(name.isEmpty() ? tr("the base") : name));
    spec->variant = name;
    markRerunning(*spec);
    setModified(true);
    emit runSpecChanged(key);
    scheduleRerun(key);
}

void Workspace::rebuildVariantScenarios()
{
    for (const model::Variant& v : m_variants)
        rebuildVariantScenario(v);
}

void Workspace::rebuildVariantScenario(const model::Variant& v)
{
    const QString name = QString::fromStdString(v.name);
    m_variantScenarios.erase(name);
    m_variantProblems.erase(name);
    m_variantBounds.erase(name);
    if (!m_scenario)
        return;
    try {
        m_variantScenarios[name] = std::make_shared<const model::Scenario>(model::applyVariant(*m_scenario, v));
    } catch (const std::invalid_argument& e) { // a multiplier the edited base's workload cannot take
        m_variantProblems[name] = tr("variant '%1': %2").arg(name, QString::fromUtf8(e.what()));
    }
}

void Workspace::rerunVariant(const QString& name)
{
    for (RunSpec& spec : m_runs) {
        if (spec.variant != name || (spec.latest && spec.latest->scenario == scenarioFor(name)))
            continue;
        markRerunning(spec);
        m_dirty.insert(spec.key);
    }
    if (!m_debounce->isActive())
        rerunDirty();
    const std::set<int> held = m_dirty;
    for (int key : held)
        emit runSpecChanged(key);
}

} // namespace ui

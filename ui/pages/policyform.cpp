// SPDX-License-Identifier: GPL-3.0-or-later
#include "policyform.h"

#include "policy_registry.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

constexpr double kSpinLimit = 1e9; // the specs use +-1e300 for "unbounded"

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

/// Decimals that show a spec's default and bounds exactly (at most 4).
int decimalsFor(const policies::ParamSpec& spec)
{
    const double value = std::get<double>(spec.defaultValue);
    int decimals = 1;
    while (decimals < 4 &&
           std::abs(value * std::pow(10.0, decimals) - std::round(value * std::pow(10.0, decimals))) > 1e-9)
        ++decimals;
    return spec.max - spec.min <= 1.0 ? std::max(decimals, 2) : decimals;
}

} // namespace

PolicyForm::PolicyForm(Kind kind, QWidget* parent) : QWidget(parent), m_kind(kind)
{
    const auto& registry = model::policyRegistry();
    m_infos = kind == Kind::Scheduler ? registry.schedulers() : registry.repartitioners();
    m_policy = new QComboBox;
    m_policy->setObjectName(kind == Kind::Scheduler ? QStringLiteral("schedulerBox")
                                                    : QStringLiteral("repartitionerBox"));
    for (const auto& info : m_infos) {
        m_policy->addItem(qs(info.id));
        m_policy->setItemData(m_policy->count() - 1, qs(info.description), Qt::ToolTipRole);
    }
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("policyProblems"));
    m_error->setStyleSheet(QStringLiteral("color: #b00020"));
    m_error->setWordWrap(true);
    m_error->hide();
    m_params = new QFormLayout;
    m_params->setContentsMargins(0, 0, 0, 0);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QFormLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addRow(kind == Kind::Scheduler ? tr("Scheduler") : tr("Repartitioner"), m_policy);
    layout->addLayout(top);
    layout->addLayout(m_params);
    layout->addWidget(m_error);
    connect(m_policy, &QComboBox::currentIndexChanged, this, [this] {
        rebuildParams();
        if (!m_loading)
            emit changed();
    });
    rebuildParams();
}

const policies::PolicyInfo* PolicyForm::info() const
{
    const int i = m_policy->currentIndex();
    return i >= 0 && i < static_cast<int>(m_infos.size()) ? &m_infos[static_cast<size_t>(i)] : nullptr;
}

void PolicyForm::rebuildParams()
{
    while (m_params->rowCount() > 0)
        m_params->removeRow(0);
    m_editors.clear();
    const policies::PolicyInfo* policy = info();
    m_policy->setToolTip(policy ? qs(policy->description) : QString());
    if (policy)
        for (const auto& spec : policy->params) {
            QWidget* editor = createEditor(spec);
            editor->setObjectName(qs(spec.name));
            editor->setToolTip(qs(spec.description));
            auto* label = new QLabel(qs(spec.name));
            label->setToolTip(qs(spec.description));
            m_params->addRow(label, editor);
            m_editors.push_back(editor);
        }
    validate();
}

QWidget* PolicyForm::createEditor(const policies::ParamSpec& spec)
{
    auto notify = [this] {
        validate();
        if (!m_loading)
            emit changed();
    };
    if (spec.kind == "integer") {
        auto* box = new QSpinBox;
        box->setRange(static_cast<int>(std::max(spec.min, -kSpinLimit)),
                      static_cast<int>(std::min(spec.max, kSpinLimit)));
        box->setValue(static_cast<int>(std::get<double>(spec.defaultValue)));
        connect(box, &QSpinBox::valueChanged, this, notify);
        return box;
    }
    if (spec.kind == "number") {
        auto* box = new QDoubleSpinBox;
        box->setDecimals(decimalsFor(spec));
        box->setRange(std::max(spec.min, -kSpinLimit), std::min(spec.max, kSpinLimit));
        box->setValue(std::get<double>(spec.defaultValue));
        connect(box, &QDoubleSpinBox::valueChanged, this, notify);
        return box;
    }
    if (!spec.choices.empty()) {
        auto* box = new QComboBox;
        for (const auto& c : spec.choices)
            box->addItem(qs(c));
        box->setCurrentText(qs(std::get<std::string>(spec.defaultValue)));
        connect(box, &QComboBox::currentTextChanged, this, notify);
        return box;
    }
    auto* edit = new QLineEdit(qs(std::get<std::string>(spec.defaultValue)));
    edit->setPlaceholderText(tr("(empty)"));
    connect(edit, &QLineEdit::textChanged, this, notify);
    return edit;
}

model::PolicyChoice PolicyForm::choice() const
{
    model::PolicyChoice c;
    const policies::PolicyInfo* policy = info();
    if (!policy)
        return c;
    c.id = policy->id;
    for (size_t i = 0; i < policy->params.size() && i < m_editors.size(); ++i) {
        const auto& spec = policy->params[i];
        policies::ParamValue value;
        if (auto* spin = qobject_cast<QSpinBox*>(m_editors[i]))
            value = static_cast<double>(spin->value());
        else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(m_editors[i]))
            value = dspin->value();
        else if (auto* combo = qobject_cast<QComboBox*>(m_editors[i]))
            value = combo->currentText().toStdString();
        else if (auto* edit = qobject_cast<QLineEdit*>(m_editors[i]))
            value = edit->text().toStdString();
        if (value != spec.defaultValue)
            c.params[spec.name] = value;
    }
    return c;
}

void PolicyForm::setChoice(const model::PolicyChoice& c)
{
    m_loading = true;
    const int index = m_policy->findText(qs(c.id));
    if (index >= 0)
        m_policy->setCurrentIndex(index);
    rebuildParams(); // back to the defaults, then the given values
    const policies::PolicyInfo* policy = info();
    for (size_t i = 0; policy && i < policy->params.size(); ++i) {
        const auto it = c.params.find(policy->params[i].name);
        if (it == c.params.end())
            continue;
        QWidget* e = m_editors[i];
        if (const double* d = std::get_if<double>(&it->second)) {
            if (auto* spin = qobject_cast<QSpinBox*>(e))
                spin->setValue(static_cast<int>(*d));
            else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(e))
                dspin->setValue(*d);
        } else if (const auto* s = std::get_if<std::string>(&it->second)) {
            if (auto* combo = qobject_cast<QComboBox*>(e))
                combo->setCurrentText(qs(*s));
            else if (auto* edit = qobject_cast<QLineEdit*>(e))
                edit->setText(qs(*s));
        }
    }
    m_loading = false;
    validate();
}

void PolicyForm::validate()
{
    const policies::PolicyInfo* policy = info();
    QStringList problems;
    if (policy) {
        const model::PolicyChoice c = choice();
        for (const auto& p : policies::Registry::checkParams(*policy, c.params))
            problems << qs(p);
        if (problems.isEmpty()) {
            // Some values (plans, list names) are only checked when the policy is built.
            try {
                const auto& registry = model::policyRegistry();
                if (m_kind == Kind::Scheduler)
                    (void)registry.createScheduler(c.id, c.params);
                else
                    (void)registry.createRepartitioner(c.id, c.params);
            } catch (const std::exception& e) {
                problems << qs(e.what());
            }
        }
    }
    m_problems = problems.join(QLatin1Char('\n'));
    m_error->setText(m_problems);
    m_error->setVisible(!m_problems.isEmpty());
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;

namespace ui {

/// Picks one policy of a kind (schedulers or repartitioners) and edits its parameters. The
/// form is generated from the policy's ParamSpecs: spin boxes with the spec's range for numbers,
/// a combo box for choices, a line edit for free text; every tooltip is the spec's description.
class PolicyForm : public QWidget
{
    Q_OBJECT

public:
    enum class Kind { Scheduler, Repartitioner };
    explicit PolicyForm(Kind kind, QWidget* parent = nullptr);

    /// The policy and the parameters that differ from their defaults.
    [[nodiscard]] model::PolicyChoice choice() const;
    void setChoice(const model::PolicyChoice& choice);
    /// Whether the registry accepts the parameters; problems() says why not.
    [[nodiscard]] bool isValid() const { return m_problems.isEmpty(); }
    [[nodiscard]] QString problems() const { return m_problems; }
    [[nodiscard]] QComboBox* policyBox() const { return m_policy; }

signals:
    /// The policy or a parameter changed (also while invalid).
    void changed();

private:
    void rebuildParams();
    QWidget* createEditor(const policies::ParamSpec& spec);
    void validate();
    [[nodiscard]] const policies::PolicyInfo* info() const;

    Kind m_kind;
    std::vector<policies::PolicyInfo> m_infos;
    QComboBox* m_policy = nullptr;
    QFormLayout* m_params = nullptr;
    QLabel* m_error = nullptr;
    std::vector<QWidget*> m_editors; ///< one per ParamSpec of the current policy
    QString m_problems;
    bool m_loading = false;
};

} // namespace ui

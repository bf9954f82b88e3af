// SPDX-License-Identifier: GPL-3.0-or-later
#include "autoscalerbox.h"

#include "autoscalers.h"

#include <QComboBox>
#include <QFormLayout>
#include <QSignalBlocker>

#include <algorithm>

namespace ui {

AutoscalerBox::AutoscalerBox(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("runAutoscalerRow"));
    m_box = new QComboBox;
    m_box->setObjectName(QStringLiteral("runAutoscalerBox"));
    m_box->setToolTip(tr("The autoscaler of the run's inference services: the scenario's own, or another one with its "
                         "default parameters (the scenario's, for the scenario's autoscaler), as migsight-cli simulate "
                         "--autoscaler runs it (docs/services.md)"));
    m_box->addItem(tr("Scenario's"), QString());
    for (const std::string& id : policies::autoscalerIds())
        m_box->addItem(QString::fromStdString(id), QString::fromStdString(id));
    auto* layout = new QFormLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addRow(tr("Autoscaler"), m_box);
    connect(m_box, &QComboBox::currentIndexChanged, this, &AutoscalerBox::changed);
    setVisible(false);
}

void AutoscalerBox::setScenario(const model::Scenario* scenario)
{
    const bool services = scenario != nullptr && scenario->services.has_value();
    m_box->setItemText(0, services ? tr("Scenario's (%1)").arg(QString::fromStdString(scenario->services->autoscaler))
                                   : tr("Scenario's"));
    setVisible(services);
}

std::optional<model::PolicyChoice> AutoscalerBox::choice(const std::optional<model::PolicyChoice>& kept) const
{
    const std::string id = m_box->currentData().toString().toStdString();
    if (id.empty())
        return std::nullopt;
    if (kept && kept->id == id)
        return kept;
    return model::PolicyChoice{id, {}};
}

void AutoscalerBox::setChoice(const std::optional<model::PolicyChoice>& choice)
{
    const QSignalBlocker block(m_box);
    const int at = choice ? m_box->findData(QString::fromStdString(choice->id)) : 0;
    m_box->setCurrentIndex(std::max(0, at));
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleetsettings.h"

#include "catalog.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

namespace ui {

FleetSettings::FleetSettings(QWidget* parent)
    : QWidget(parent), m_board(new QComboBox), m_count(new QSpinBox), m_note(new QLabel)
{
    m_board->setObjectName(QStringLiteral("fleetBoard"));
    m_count->setObjectName(QStringLiteral("fleetCount"));
    for (const auto& board : model::Catalog::builtin().models())
        m_board->addItem(QString::fromStdString(board->name));
    m_count->setRange(1, kMaxGpus);
    m_count->setKeyboardTracking(false); // typing "12" is one edit, not "1" then "12"
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    m_note->hide();
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Board"), m_board);
    form->addRow(tr("GPUs"), m_count);
    form->addRow(m_note);
    connect(m_board, &QComboBox::activated, this, &FleetSettings::request);
    connect(m_count, &QSpinBox::valueChanged, this, &FleetSettings::request);
}

void FleetSettings::setFleet(const QString& board, int count, bool mixed)
{
    const QSignalBlocker boardBlocker(m_board);
    const QSignalBlocker countBlocker(m_count);
    m_board->setCurrentText(board);
    m_count->setValue(count);
    m_note->setText(tr("The fleet mixes boards; choosing a board makes every GPU that board."));
    m_note->setVisible(mixed);
    setEnabled(count > 0 || !board.isEmpty());
}

void FleetSettings::request()
{
    emit fleetRequested(m_board->currentText(), m_count->value());
}

} // namespace ui

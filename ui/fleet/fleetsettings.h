// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;

namespace ui {

/// The fleet's board and GPU count. It shows what it is given and asks for changes; the
/// layout editor turns a request into an undoable edit.
class FleetSettings : public QWidget
{
    Q_OBJECT

public:
    explicit FleetSettings(QWidget* parent = nullptr);

    /// Shows a fleet of @p count GPUs of @p board (empty for "mixed boards").
    void setFleet(const QString& board, int count, bool mixed);
    [[nodiscard]] QComboBox* boardBox() const { return m_board; }
    [[nodiscard]] QSpinBox* countBox() const { return m_count; }

    static constexpr int kMaxGpus = 256;

signals:
    void fleetRequested(const QString& board, int count);

private:
    void request();

    QComboBox* m_board;
    QSpinBox* m_count;
    QLabel* m_note;
};

} // namespace ui

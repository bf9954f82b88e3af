// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "geometry.h"

#include <QAbstractListModel>

#include <memory>

namespace ui {

/// The profiles of one board, as the layout editor's palette lists them; items drag as
/// kProfileMimeType.
class ProfilePaletteModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Role { ProfileIndexRole = Qt::UserRole + 1, ComputeRole, MemorySlicesRole };

    explicit ProfilePaletteModel(QObject* parent = nullptr);

    void setBoard(std::shared_ptr<const simcore::GpuModel> board);
    [[nodiscard]] const simcore::GpuModel* board() const { return m_board.get(); }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] Qt::ItemFlags flags(const QModelIndex& index) const override;
    [[nodiscard]] QStringList mimeTypes() const override;
    [[nodiscard]] QMimeData* mimeData(const QModelIndexList& indexes) const override;
    [[nodiscard]] Qt::DropActions supportedDragActions() const override { return Qt::CopyAction; }

private:
    std::shared_ptr<const simcore::GpuModel> m_board;
};

} // namespace ui

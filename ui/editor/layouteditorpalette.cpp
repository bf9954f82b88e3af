// SPDX-License-Identifier: GPL-3.0-or-later
#include "layouteditorpalette.h"

#include "layouteditorcanvas.h"
#include "palette.h"

#include <QMimeData>
#include <QPainter>
#include <QPixmap>
#include <QStringList>

namespace ui {

namespace {

QString startsText(const std::vector<int>& starts)
{
    QStringList parts;
    for (int s : starts)
        parts << QString::number(s);
    return parts.join(QStringLiteral(", "));
}

QPixmap swatch(int compute, int memorySlices)
{
    // As wide as the profile's memory slices, so the palette previews the block's footprint.
    QPixmap pixmap(8 * 5 + 2, 14);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor fill = computeColour(compute);
    painter.setPen(QPen(fill.darker(135), 1.0));
    painter.setBrush(fill);
    painter.drawRoundedRect(QRectF(0.5, 0.5, memorySlices * 5.0, 13.0), 2.0, 2.0);
    return pixmap;
}

} // namespace

ProfilePaletteModel::ProfilePaletteModel(QObject* parent) : QAbstractListModel(parent)
{
}

void ProfilePaletteModel::setBoard(std::shared_ptr<const simcore::GpuModel> board)
{
    beginResetModel();
    m_board = std::move(board);
    endResetModel();
}

int ProfilePaletteModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_board ? 0 : static_cast<int>(m_board->profiles.size());
}

QVariant ProfilePaletteModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const simcore::Profile& p = m_board->profiles[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return QString::fromStdString(p.name);
    case Qt::DecorationRole:
        return swatch(p.compute, p.memorySlices);
    case Qt::ToolTipRole:
        return tr("%1: %2 compute, %3 memory slices (%4 GiB), %5 SMs\nallowed starts: %6%7")
            .arg(QString::fromStdString(p.name))
            .arg(p.compute)
            .arg(p.memorySlices)
            .arg(p.memoryGiB)
            .arg(p.sms)
            .arg(startsText(p.starts), p.mediaExtensions ? tr("\nat most one per GPU") : QString());
    case ProfileIndexRole:
        return index.row();
    case ComputeRole:
        return p.compute;
    case MemorySlicesRole:
        return p.memorySlices;
    default:
        return {};
    }
}

Qt::ItemFlags ProfilePaletteModel::flags(const QModelIndex& index) const
{
    const Qt::ItemFlags base = QAbstractListModel::flags(index);
    return index.isValid() ? base | Qt::ItemIsDragEnabled : base;
}

QStringList ProfilePaletteModel::mimeTypes() const
{
    return {QLatin1String(kProfileMimeType)};
}

QMimeData* ProfilePaletteModel::mimeData(const QModelIndexList& indexes) const
{
    if (indexes.isEmpty() || !m_board || !indexes.first().isValid())
        return nullptr;
    auto* mime = new QMimeData;
    mime->setData(
        QLatin1String(kProfileMimeType),
        QStringLiteral("%1\n%2").arg(QString::fromStdString(m_board->name)).arg(indexes.first().row()).toUtf8());
    return mime;
}

} // namespace ui

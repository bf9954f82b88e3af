// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "geometry.h"

#include <QAbstractListModel>
#include <QPixmap>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QListView;
class QPushButton;

namespace ui {

/// Layouts of one board to choose from: a configuration list of the board or every maximal
/// layout, each with a small picture.
class LayoutGalleryModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Role { LayoutTextRole = Qt::UserRole + 1 };
    explicit LayoutGalleryModel(QObject* parent = nullptr);

    /// @p source is a configuration list name of the board, or kMaximal.
    void setSource(std::shared_ptr<const simcore::GpuModel> board, const QString& source);
    [[nodiscard]] const simcore::Layout& layoutAt(int row) const { return m_layouts[static_cast<size_t>(row)]; }
    [[nodiscard]] const simcore::GpuModel* board() const { return m_board.get(); }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    static constexpr const char* kMaximal = "maximal";

private:
    std::shared_ptr<const simcore::GpuModel> m_board;
    QString m_source;
    std::vector<simcore::Layout> m_layouts;
    std::vector<QPixmap> m_pictures;
};

/// The gallery panel: a source chooser, the layouts as pictures, and buttons to apply the chosen
/// one to the selected GPUs (one or several) or to the whole fleet.
class LayoutGallery : public QWidget
{
    Q_OBJECT

public:
    enum class Target { Selection, Fleet };
    explicit LayoutGallery(QWidget* parent = nullptr);

    void setBoard(std::shared_ptr<const simcore::GpuModel> board);
    /// Chooses a source by name (a list name or LayoutGalleryModel::kMaximal); false if unknown.
    bool setSource(const QString& source);
    [[nodiscard]] LayoutGalleryModel* model() const { return m_model; }
    [[nodiscard]] QListView* view() const { return m_view; }
    void setCurrentRow(int row);
    void setSelectionSize(int gpus);

signals:
    void applyRequested(const simcore::Layout& layout, const QString& name, ui::LayoutGallery::Target target);

private:
    void setupWidgets();
    void request(Target target);
    void updateButtons();

    LayoutGalleryModel* m_model;
    QComboBox* m_source = nullptr;
    QListView* m_view = nullptr;
    QPushButton* m_applySelection = nullptr;
    QPushButton* m_applyFleet = nullptr;
    std::shared_ptr<const simcore::GpuModel> m_board;
    int m_selectionSize = 0;
};

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "layoutgallery.h"

#include "slicegrid.h"

#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ui {

namespace {

constexpr QSize kThumbnail(136, 38);

/// "2g", unless the board has a smaller profile of the same compute size ("1g.10gb") or it has media
/// extensions: the caption must tell such profiles apart.
QString shortName(const simcore::GpuModel& board, int profile)
{
    const simcore::Profile& p = board.profiles[static_cast<size_t>(profile)];
    const bool ambiguous =
        p.mediaExtensions || std::any_of(board.profiles.begin(), board.profiles.end(), [&](const auto& o) {
            return o.compute == p.compute && o.memorySlices < p.memorySlices;
        });
    return ambiguous ? QString::fromStdString(p.name) : QString::fromStdString(p.name).section(QLatin1Char('.'), 0, 0);
}

/// "2g+1g×4+1g.10gb": repeated neighbours are counted.
QString shortText(const simcore::GpuModel& board, const simcore::Layout& layout)
{
    QStringList parts;
    QString last;
    int run = 0;
    const auto flush = [&] {
        if (run > 0)
            parts << (run == 1 ? last : QStringLiteral("%1×%2").arg(last).arg(run));
    };
    for (const simcore::Placement& p : layout) {
        if (p.profile < 0 || p.profile >= static_cast<int>(board.profiles.size()))
            continue;
        const QString name = shortName(board, p.profile);
        if (name != last) {
            flush();
            last = name;
            run = 0;
        }
        ++run;
    }
    flush();
    return parts.join(QLatin1Char('+'));
}

} // namespace

LayoutGalleryModel::LayoutGalleryModel(QObject* parent) : QAbstractListModel(parent)
{
}

void LayoutGalleryModel::setSource(std::shared_ptr<const simcore::GpuModel> board, const QString& source)
{
    beginResetModel();
    m_board = std::move(board);
    m_source = source;
    m_layouts.clear();
    m_pictures.clear();
    if (m_board) {
        if (source == QLatin1String(kMaximal))
            m_layouts = simcore::enumerateLayouts(*m_board, true);
        else if (const simcore::ConfigList* list = m_board->findList(source.toStdString()))
            m_layouts = list->layouts;
        for (const simcore::Layout& layout : m_layouts)
            m_pictures.push_back(layoutThumbnail(*m_board, layout, kThumbnail, QApplication::font()));
    }
    endResetModel();
}

int LayoutGalleryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_layouts.size());
}

QVariant LayoutGalleryModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto row = static_cast<size_t>(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return QStringLiteral("%1. %2").arg(index.row() + 1).arg(shortText(*m_board, m_layouts[row]));
    case Qt::DecorationRole:
        return m_pictures[row];
    case Qt::ToolTipRole:
    case LayoutTextRole:
        return QString::fromStdString(simcore::layoutText(*m_board, m_layouts[row]));
    default:
        return {};
    }
}

LayoutGallery::LayoutGallery(QWidget* parent) : QWidget(parent), m_model(new LayoutGalleryModel(this))
{
    setupWidgets();
}

void LayoutGallery::setupWidgets()
{
    m_source = new QComboBox;
    m_source->setObjectName(QStringLiteral("gallerySource"));
    m_view = new QListView;
    m_view->setObjectName(QStringLiteral("galleryView"));
    m_view->setModel(m_model);
    m_view->setViewMode(QListView::IconMode);
    m_view->setFlow(QListView::LeftToRight);
    m_view->setWrapping(true);
    m_view->setIconSize(kThumbnail);
    m_view->setGridSize(QSize(kThumbnail.width() + 12, kThumbnail.height() + 2 * fontMetrics().height() + 6));
    m_view->setResizeMode(QListView::Adjust);
    m_view->setMovement(QListView::Static);
    m_view->setWordWrap(true);
    m_view->setUniformItemSizes(true);
    m_applySelection = new QPushButton(tr("Apply to selected GPUs"));
    m_applySelection->setObjectName(QStringLiteral("applySelection"));
    m_applyFleet = new QPushButton(tr("Apply to whole fleet"));
    m_applyFleet->setObjectName(QStringLiteral("applyFleet"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_applySelection);
    buttons->addWidget(m_applyFleet);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_source);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);

    connect(m_source, &QComboBox::currentIndexChanged, this,
            [this] { m_model->setSource(m_board, m_source->currentData().toString()); });
    connect(m_applySelection, &QPushButton::clicked, this, [this] { request(Target::Selection); });
    connect(m_applyFleet, &QPushButton::clicked, this, [this] { request(Target::Fleet); });
    connect(m_view, &QListView::doubleClicked, this, [this] { request(Target::Selection); });
    connect(m_model, &QAbstractItemModel::modelReset, this, &LayoutGallery::updateButtons);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &LayoutGallery::updateButtons);
    updateButtons();
}

void LayoutGallery::setBoard(std::shared_ptr<const simcore::GpuModel> board)
{
    if (board == m_board || (board && m_board && board->name == m_board->name))
        return;
    m_board = std::move(board);
    const QString previous = m_source->currentData().toString();
    const QSignalBlocker blocker(m_source);
    m_source->clear();
    if (m_board) {
        for (const simcore::ConfigList& list : m_board->configLists)
            m_source->addItem(
                tr("List %1 (%2 configurations)").arg(QString::fromStdString(list.name)).arg(list.layouts.size()),
                QString::fromStdString(list.name));
        m_source->addItem(tr("All maximal layouts of %1").arg(QString::fromStdString(m_board->name)),
                          QLatin1String(LayoutGalleryModel::kMaximal));
    }
    const int keep = m_source->findData(previous);
    m_source->setCurrentIndex(keep >= 0 ? keep : 0);
    m_model->setSource(m_board, m_source->currentData().toString());
}

bool LayoutGallery::setSource(const QString& source)
{
    const int index = m_source->findData(source);
    if (index < 0)
        return false;
    m_source->setCurrentIndex(index);
    return true;
}

void LayoutGallery::setCurrentRow(int row)
{
    m_view->setCurrentIndex(m_model->index(row, 0));
}

void LayoutGallery::setSelectionSize(int gpus)
{
    m_selectionSize = gpus;
    updateButtons();
}

void LayoutGallery::updateButtons()
{
    const bool chosen = m_view->currentIndex().isValid();
    m_applySelection->setEnabled(chosen && m_selectionSize > 0);
    m_applySelection->setText(m_selectionSize == 1 ? tr("Apply to selected GPU")
                                                   : tr("Apply to %1 selected GPUs").arg(m_selectionSize));
    m_applyFleet->setEnabled(chosen);
}

void LayoutGallery::request(Target target)
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid() || !m_model->board())
        return;
    emit applyRequested(m_model->layoutAt(current.row()),
                        QStringLiteral("%1 %2").arg(m_source->currentData().toString(), current.data().toString()),
                        target);
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "layouteditorcanvas.h"

#include "layouteditorcommands.h"
#include "palette.h"
#include "slicegrid.h"

#include <QApplication>
#include <QDragMoveEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

} // namespace

LayoutCanvas::LayoutCanvas(QWidget* parent) : QWidget(parent)
{
    m_metrics.minCardWidth = 250.0;
    m_metrics.maxCardWidth = 460.0;
    m_metrics.gridHeight = 84.0;
    m_metrics.legendHeight = 24.0;
    m_metrics.titleHeight = 22.0;
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setMouseTracking(true);
    setAcceptDrops(true);
    setFocusPolicy(Qt::StrongFocus);
}

void LayoutCanvas::setGpus(std::vector<Gpu> gpus)
{
    m_gpus = std::move(gpus);
    m_cards.clear();
    for (size_t i = 0; i < m_gpus.size(); ++i)
        m_cards.push_back(m_gpus[i].board ? cardOf(static_cast<int>(i), *m_gpus[i].board, m_gpus[i].layout)
                                          : FleetCard{});
    std::erase_if(m_selectedGpus, [this](int gpu) { return gpu >= gpuCount(); });
    if (m_selectedInstance &&
        (m_selectedInstance->gpu >= gpuCount() ||
         m_selectedInstance->instance >=
             static_cast<int>(m_gpus[static_cast<size_t>(m_selectedInstance->gpu)].layout.size())))
        m_selectedInstance.reset();
    m_preview.reset();
    updateGeometry();
    setMinimumHeight(heightForWidth(std::max(width(), 1)));
    update();
}

FleetGeometry LayoutCanvas::currentGeometry() const
{
    return layoutFleet(m_cards, width(), m_metrics);
}

int LayoutCanvas::heightForWidth(int width) const
{
    return static_cast<int>(std::ceil(layoutFleet(m_cards, width, m_metrics).height));
}

QSize LayoutCanvas::sizeHint() const
{
    const int width = static_cast<int>(2 * m_metrics.minCardWidth + m_metrics.spacing + 2 * m_metrics.margin);
    return {width, heightForWidth(width)};
}

void LayoutCanvas::setSelectedGpus(std::set<int> gpus)
{
    std::erase_if(gpus, [this](int gpu) { return gpu < 0 || gpu >= gpuCount(); });
    if (gpus == m_selectedGpus)
        return;
    m_selectedGpus = std::move(gpus);
    update();
    emit selectionChanged();
}

void LayoutCanvas::selectInstance(std::optional<InstanceRef> ref)
{
    m_selectedInstance = ref;
    if (ref)
        m_selectedGpus = {ref->gpu};
    update();
    emit selectionChanged();
}

void LayoutCanvas::setArmedProfile(const QString& board, int profile)
{
    m_armedBoard = board;
    m_armedProfile = profile;
    setCursor(profile >= 0 ? Qt::CrossCursor : Qt::ArrowCursor);
    setPreview(std::nullopt);
}

int LayoutCanvas::gpuAt(const QPointF& pos) const
{
    const FleetGeometry g = currentGeometry();
    for (size_t c = 0; c < g.cards.size(); ++c)
        if (g.cards[c].card.contains(pos))
            return static_cast<int>(c);
    return -1;
}

QPointF LayoutCanvas::slicePoint(int gpu, int slice) const
{
    const FleetGeometry g = currentGeometry();
    if (gpu < 0 || gpu >= static_cast<int>(g.cards.size()))
        return {};
    const auto& cells = g.cards[static_cast<size_t>(gpu)].cells;
    return slice >= 0 && slice < static_cast<int>(cells.size()) ? cells[static_cast<size_t>(slice)].center()
                                                                : QPointF();
}

std::optional<LayoutCanvas::InstanceRef> LayoutCanvas::instanceAt(const QPointF& pos) const
{
    const FleetGeometry g = currentGeometry();
    for (size_t c = 0; c < g.cards.size(); ++c)
        for (size_t i = 0; i < g.cards[c].blocks.size(); ++i)
            if (g.cards[c].blocks[i].contains(pos))
                return InstanceRef{static_cast<int>(c), static_cast<int>(i)};
    return std::nullopt;
}

std::optional<LayoutCanvas::Preview> LayoutCanvas::previewAt(const QPointF& pos, const QString& board, int profile,
                                                             std::optional<InstanceRef> moving) const
{
    const int gpu = gpuAt(pos);
    if (gpu < 0 || !m_gpus[static_cast<size_t>(gpu)].board)
        return std::nullopt;
    const simcore::GpuModel& gpuBoard = *m_gpus[static_cast<size_t>(gpu)].board;
    const CardGeometry cg = currentGeometry().cards[static_cast<size_t>(gpu)];
    const int slice = std::clamp(sliceAt(cg, std::clamp(pos.x(), cg.grid.left(), cg.grid.right() - 0.5)), 0,
                                 gpuBoard.memorySlices - 1);
    Preview p{gpu, profile, slice, {}, {}, moving};
    if (QString::fromStdString(gpuBoard.name) != board || profile < 0 ||
        profile >= static_cast<int>(gpuBoard.profiles.size())) {
        p.reason = tr("a %1 profile cannot go on GPU %2, a %3").arg(board).arg(gpu).arg(gpuBoard.name.c_str());
        return p;
    }
    simcore::Layout layout = m_gpus[static_cast<size_t>(gpu)].layout;
    if (moving && moving->gpu == gpu)
        layout.erase(layout.begin() + moving->instance);
    const simcore::Profile& prof = gpuBoard.profiles[static_cast<size_t>(profile)];
    p.allowedStarts = allowedStarts(gpuBoard, layout, profile);
    const auto covers = [&](int start) { return start <= slice && slice < start + prof.memorySlices; };
    const auto allowed = std::find_if(p.allowedStarts.begin(), p.allowedStarts.end(), covers);
    if (allowed != p.allowedStarts.end()) {
        p.start = *allowed;
        return p;
    }
    const auto natural = std::find_if(prof.starts.begin(), prof.starts.end(), covers);
    p.start = natural != prof.starts.end() ? *natural : slice;
    p.reason = refusalReason(gpuBoard, layout, {profile, p.start});
    return p;
}

void LayoutCanvas::setPreview(std::optional<Preview> preview)
{
    m_preview = std::move(preview);
    update();
    if (!m_preview) {
        emit statusMessage({});
        return;
    }
    const simcore::GpuModel* board = m_gpus[static_cast<size_t>(m_preview->gpu)].board;
    const bool known = m_preview->profile >= 0 && m_preview->profile < static_cast<int>(board->profiles.size());
    const QString name =
        known ? QString::fromStdString(board->profiles[static_cast<size_t>(m_preview->profile)].name) : tr("profile");
    const QString where = tr("%1 at memory slice %2 of GPU %3").arg(name).arg(m_preview->start).arg(m_preview->gpu);
    emit statusMessage(m_preview->reason.isEmpty() ? tr("%1: allowed").arg(where)
                                                   : tr("%1: refused: %2").arg(where, m_preview->reason));
}

void LayoutCanvas::commitPreview()
{
    if (!m_preview)
        return;
    const Preview p = *m_preview;
    if (!p.reason.isEmpty()) {
        update();
        return; // the refusal stays in the status line; nothing changes
    }
    m_preview.reset();
    update();
    if (p.moving)
        emit moveRequested(p.moving->gpu, p.moving->instance, p.gpu, p.start);
    else
        emit placeRequested(p.gpu, simcore::Placement{p.profile, p.start});
}

void LayoutCanvas::mousePressEvent(QMouseEvent* event)
{
    setFocus(Qt::MouseFocusReason);
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const QPointF pos = event->position();
    const int gpu = gpuAt(pos);
    if (const auto hit = instanceAt(pos)) {
        m_pressed = hit;
        m_pressPos = pos;
        selectInstance(hit);
        return;
    }
    if (m_armedProfile >= 0 && gpu >= 0) {
        setPreview(previewAt(pos, m_armedBoard, m_armedProfile));
        commitPreview();
        return;
    }
    m_selectedInstance.reset();
    std::set<int> gpus =
        (event->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier)) ? m_selectedGpus : std::set<int>{};
    if (gpu >= 0 && !gpus.erase(gpu))
        gpus.insert(gpu);
    m_selectedGpus = gpus;
    update();
    emit selectionChanged();
}

void LayoutCanvas::mouseMoveEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    if (m_pressed && (event->buttons() & Qt::LeftButton)) {
        if (!m_moving && (pos - m_pressPos).manhattanLength() < QApplication::startDragDistance())
            return;
        m_moving = true;
        const Gpu& source = m_gpus[static_cast<size_t>(m_pressed->gpu)];
        const int profile = source.layout[static_cast<size_t>(m_pressed->instance)].profile;
        setPreview(previewAt(pos, QString::fromStdString(source.board->name), profile, m_pressed));
        return;
    }
    if (m_armedProfile >= 0)
        setPreview(previewAt(pos, m_armedBoard, m_armedProfile));
}

void LayoutCanvas::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_moving && event->button() == Qt::LeftButton)
        commitPreview();
    if (m_moving && m_preview && !m_preview->reason.isEmpty())
        m_preview.reset(); // the status line keeps the reason; the instance stays where it was
    m_pressed.reset();
    m_moving = false;
    update();
}

void LayoutCanvas::keyPressEvent(QKeyEvent* event)
{
    if ((event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) && m_selectedInstance) {
        const InstanceRef ref = *m_selectedInstance;
        m_selectedInstance.reset();
        emit deleteRequested(ref.gpu, ref.instance);
        return;
    }
    if (event->key() == Qt::Key_Escape) {
        m_pressed.reset();
        m_moving = false;
        setPreview(std::nullopt);
        return;
    }
    QWidget::keyPressEvent(event);
}

void LayoutCanvas::leaveEvent(QEvent* event)
{
    if (!m_moving && m_preview)
        setPreview(std::nullopt);
    QWidget::leaveEvent(event);
}

bool LayoutCanvas::decodeProfile(const QMimeData* mime, QString& board, int& profile)
{
    if (!mime || !mime->hasFormat(QLatin1String(kProfileMimeType)))
        return false;
    const QStringList parts = QString::fromUtf8(mime->data(QLatin1String(kProfileMimeType))).split(QLatin1Char('\n'));
    bool ok = parts.size() == 2;
    board = parts.value(0);
    profile = parts.value(1).toInt(&ok);
    return ok;
}

void LayoutCanvas::dragEnterEvent(QDragEnterEvent* event)
{
    QString board;
    int profile = -1;
    if (decodeProfile(event->mimeData(), board, profile))
        event->acceptProposedAction();
}

bool LayoutCanvas::previewDrop(QDropEvent* event)
{
    QString board;
    int profile = -1;
    if (!decodeProfile(event->mimeData(), board, profile)) {
        event->ignore();
        return false;
    }
    setPreview(previewAt(event->position(), board, profile));
    // Accepted only over a card: the drag cursor then says "no" outside the GPUs and on refusals.
    if (m_preview && m_preview->reason.isEmpty())
        event->acceptProposedAction();
    else
        event->ignore();
    return true;
}

void LayoutCanvas::dragMoveEvent(QDragMoveEvent* event)
{
    (void)previewDrop(event);
}

void LayoutCanvas::dragLeaveEvent(QDragLeaveEvent* /*event*/)
{
    setPreview(std::nullopt);
}

void LayoutCanvas::dropEvent(QDropEvent* event)
{
    if (previewDrop(event))
        commitPreview(); // a refused drop keeps its reason in the status line
}

void LayoutCanvas::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // The scroll area around the canvas needs the height the cards take at this width.
    const int needed = heightForWidth(width());
    if (minimumHeight() != needed)
        setMinimumHeight(needed);
}

void LayoutCanvas::paintEvent(QPaintEvent* /*event*/)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const FleetGeometry g = currentGeometry();
    paintHint(painter, g.legend);
    for (size_t i = 0; i < g.cards.size(); ++i)
        paintCard(painter, static_cast<int>(i), g.cards[i]);
}

void LayoutCanvas::paintHint(QPainter& painter, const QRectF& area) const
{
    painter.setFont(font());
    painter.setPen(mutedTextColour());
    QString text;
    if (m_gpus.empty())
        text = tr("No GPUs: open a scenario or set the fleet's GPU count");
    else if (m_armedProfile >= 0)
        text = tr("Click a green start to place the profile · Esc or click the palette item again to stop");
    else
        text = tr("Drag a profile onto a GPU · click an instance to select it, drag it to move, Delete to remove "
                  "· Ctrl+click GPUs to select several");
    painter.drawText(area, Qt::AlignLeft | Qt::AlignVCenter,
                     painter.fontMetrics().elidedText(text, Qt::ElideRight, static_cast<int>(area.width())));
}

void LayoutCanvas::paintCard(QPainter& painter, int gpu, const CardGeometry& g) const
{
    const FleetCard& card = m_cards[static_cast<size_t>(gpu)];
    const bool selected = m_selectedGpus.count(gpu) > 0;
    const QColor highlight = palette().color(QPalette::Highlight);
    painter.setPen(selected ? QPen(highlight, 2.5) : QPen(borderColour(), 1.0));
    painter.setBrush(selected ? QColor(highlight.red(), highlight.green(), highlight.blue(), 22) : surfaceColour());
    painter.drawRoundedRect(g.card.adjusted(1.0, 1.0, -1.0, -1.0), 6.0, 6.0);

    QFont title = font();
    title.setBold(true);
    painter.setFont(title);
    painter.setPen(palette().color(QPalette::WindowText));
    const QString gpuText = tr("GPU %1").arg(card.index);
    painter.drawText(g.title, Qt::AlignLeft | Qt::AlignVCenter, gpuText);
    painter.setFont(font());
    painter.setPen(mutedTextColour());
    painter.drawText(g.title.adjusted(QFontMetricsF(title).horizontalAdvance(gpuText) + 8.0, 0, 0, 0),
                     Qt::AlignLeft | Qt::AlignVCenter, card.board);

    paintFreeSlots(painter, g, font(), m_metrics.blockGap);
    for (size_t i = 0; i < card.instances.size() && i < g.blocks.size(); ++i) {
        const InstanceRef ref{gpu, static_cast<int>(i)};
        const bool moving = m_preview && m_preview->moving && *m_preview->moving == ref;
        painter.setOpacity(moving ? 0.35 : 1.0);
        paintInstanceBlock(painter, card.instances[i], g.blocks[i], font());
        painter.setOpacity(1.0);
        if (m_selectedInstance && *m_selectedInstance == ref) {
            painter.setPen(QPen(palette().color(QPalette::WindowText), 2.5));
            painter.setBrush(Qt::NoBrush);
            painter.drawRoundedRect(g.blocks[i].adjusted(-1.5, -1.5, 1.5, 1.5), 4.5, 4.5);
        }
    }
    if (m_preview && m_preview->gpu == gpu)
        paintPreview(painter, g);

    painter.setFont(font());
    painter.setPen(mutedTextColour());
    painter.drawText(g.footer, Qt::AlignLeft | Qt::AlignBottom,
                     card.instances.empty()
                         ? tr("no instances")
                         : (card.instances.size() == 1 ? tr("compute %1/%2 · memory %3/%4 · %5 instance")
                                                       : tr("compute %1/%2 · memory %3/%4 · %5 instances"))
                               .arg(card.usedCompute())
                               .arg(card.computeSlices)
                               .arg(card.usedMemorySlices())
                               .arg(card.memorySlices)
                               .arg(card.instances.size()));
}

void LayoutCanvas::paintPreview(QPainter& painter, const CardGeometry& g) const
{
    const Preview& p = *m_preview;
    const simcore::GpuModel& board = *m_gpus[static_cast<size_t>(p.gpu)].board;
    const bool known = p.profile >= 0 && p.profile < static_cast<int>(board.profiles.size());
    const int size = known ? board.profiles[static_cast<size_t>(p.profile)].memorySlices : 1;
    QColor soft = allowedColour();
    soft.setAlpha(40);
    for (int start : p.allowedStarts) {
        painter.setPen(QPen(allowedColour(), 1.2, Qt::DashLine));
        painter.setBrush(soft);
        painter.drawRoundedRect(spanRect(g, start, size, 3.0), 3.0, 3.0);
    }
    const QRectF target = spanRect(g, p.start, size, 1.0);
    if (p.reason.isEmpty() && known) {
        const simcore::Profile& prof = board.profiles[static_cast<size_t>(p.profile)];
        painter.setOpacity(0.8);
        paintInstanceBlock(painter, {QString::fromStdString(prof.name), prof.compute, p.start, size}, target, font());
        painter.setOpacity(1.0);
        painter.setPen(QPen(allowedColour(), 2.5));
    } else {
        QColor red = refusedColour();
        red.setAlpha(45);
        painter.setBrush(QBrush(red, Qt::BDiagPattern));
        painter.setPen(QPen(refusedColour(), 2.5));
        painter.drawRoundedRect(target, 3.5, 3.5);
        painter.setBrush(red);
    }
    painter.setBrush(Qt::NoBrush);
    painter.drawRoundedRect(target, 3.5, 3.5);
}

} // namespace ui

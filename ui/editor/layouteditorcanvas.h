// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "fleetlayout.h"
#include "geometry.h"

#include <QWidget>

#include <optional>
#include <set>
#include <vector>

class QMimeData;

namespace ui {

/// MIME type of a profile dragged from the layout editor's palette: "<board>\n<profile index>".
inline constexpr const char* kProfileMimeType = "application/x-migsight-profile";

/// The editable fleet: every GPU as a card of its memory slices with the instances on them. A
/// profile dragged (or armed in the palette and clicked) onto a card shows where it may start
/// (green) and, under the pointer, why it may not (red, with the reason); instances can be
/// selected, dragged to another start or GPU, and deleted. It only requests edits; the page
/// applies them.
class LayoutCanvas : public QWidget
{
    Q_OBJECT

public:
    struct Gpu
    {
        const simcore::GpuModel* board = nullptr;
        simcore::Layout layout;
    };
    struct InstanceRef
    {
        int gpu = -1;
        int instance = -1;
        friend bool operator==(const InstanceRef&, const InstanceRef&) = default;
    };
    /// What a drag would do where the pointer is.
    struct Preview
    {
        int gpu = -1;
        int profile = -1;
        int start = -1;
        QString reason;                 ///< empty when the placement is allowed
        std::vector<int> allowedStarts; ///< for the highlight
        std::optional<InstanceRef> moving;
    };

    explicit LayoutCanvas(QWidget* parent = nullptr);

    void setGpus(std::vector<Gpu> gpus);
    [[nodiscard]] int gpuCount() const { return static_cast<int>(m_gpus.size()); }
    [[nodiscard]] FleetGeometry currentGeometry() const;

    [[nodiscard]] const std::set<int>& selectedGpus() const { return m_selectedGpus; }
    void setSelectedGpus(std::set<int> gpus);
    [[nodiscard]] std::optional<InstanceRef> selectedInstance() const { return m_selectedInstance; }
    void selectInstance(std::optional<InstanceRef> ref);

    /// The profile a click places (the palette's current item); -1 for none.
    void setArmedProfile(const QString& board, int profile);
    [[nodiscard]] const std::optional<Preview>& preview() const { return m_preview; }
    /// What the pointer would do at @p pos with @p profile of @p board (also used by drops).
    [[nodiscard]] std::optional<Preview> previewAt(const QPointF& pos, const QString& board, int profile,
                                                   std::optional<InstanceRef> moving = std::nullopt) const;
    /// Card (GPU) at @p pos, -1 for none.
    [[nodiscard]] int gpuAt(const QPointF& pos) const;
    /// Centre of memory slice @p slice of GPU @p gpu, in widget coordinates (tests, tooltips).
    [[nodiscard]] QPointF slicePoint(int gpu, int slice) const;

    [[nodiscard]] bool hasHeightForWidth() const override { return true; }
    [[nodiscard]] int heightForWidth(int width) const override;
    [[nodiscard]] QSize sizeHint() const override;

signals:
    void placeRequested(int gpu, simcore::Placement placement);
    void moveRequested(int fromGpu, int instance, int toGpu, int start);
    void deleteRequested(int gpu, int instance);
    void selectionChanged();
    /// A reason or hint for the status line; empty to clear it.
    void statusMessage(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dragLeaveEvent(QDragLeaveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    [[nodiscard]] std::optional<InstanceRef> instanceAt(const QPointF& pos) const;
    void setPreview(std::optional<Preview> preview);
    /// Shows the preview of the profile a drag carries at its position, accepting the event when
    /// the profile fits there and ignoring it otherwise; false when the drag carries no profile.
    bool previewDrop(QDropEvent* event);
    void commitPreview();
    void paintCard(QPainter& painter, int gpu, const CardGeometry& g) const;
    void paintPreview(QPainter& painter, const CardGeometry& g) const;
    void paintHint(QPainter& painter, const QRectF& area) const;
    [[nodiscard]] static bool decodeProfile(const QMimeData* mime, QString& board, int& profile);

    std::vector<Gpu> m_gpus;
    std::vector<FleetCard> m_cards;
    FleetMetrics m_metrics;
    std::set<int> m_selectedGpus;
    std::optional<InstanceRef> m_selectedInstance;
    std::optional<Preview> m_preview;
    QString m_armedBoard;
    int m_armedProfile = -1;
    std::optional<InstanceRef> m_pressed; ///< instance under a press, until the drag threshold
    QPointF m_pressPos;
    bool m_moving = false;
};

} // namespace ui

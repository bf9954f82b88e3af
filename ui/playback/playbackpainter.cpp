// SPDX-License-Identifier: GPL-3.0-or-later
#include "playbackpainter.h"

#include "fleetlayout.h"
#include "palette.h"
#include "playback.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

const QColor kText = paperTextColour();
const QColor kMuted = paperMutedTextColour();
const QColor kLate = lateColour();
constexpr double kGap = 8.0;

QString tr(const char* text)
{
    return QCoreApplication::translate("ui::PlaybackPainter", text);
}

double legendRow(QPainter& painter, const QRectF& area, const model::Playback& pb, const QFont& base,
                 const QColor& text)
{
    painter.setFont(scaledFont(base, 0.9));
    const QFontMetricsF fm(painter.font());
    double x = area.left();
    const auto& types = pb.scenario().jobTypes;
    for (size_t t = 0; t < types.size(); ++t) {
        const QString name = QString::fromStdString(types[t].label.empty() ? types[t].id : types[t].label);
        const QRectF box(x, area.top() + (area.height() - 11.0) / 2.0, 11.0, 11.0);
        painter.setPen(QPen(jobTypeColour(static_cast<int>(t)).darker(130), 1.0));
        painter.setBrush(jobTypeColour(static_cast<int>(t)));
        painter.drawRoundedRect(box, 2.0, 2.0);
        painter.setPen(text);
        painter.drawText(QRectF(box.right() + 5.0, area.top(), fm.horizontalAdvance(name) + 2.0, area.height()),
                         Qt::AlignVCenter | Qt::AlignLeft, name);
        x = box.right() + 5.0 + fm.horizontalAdvance(name) + 16.0;
    }
    if (!pb.result().faults.empty()) {
        // Only runs with faults show the failed look, so only they explain it.
        const QString name = tr("failed (until repaired)");
        const QRectF box(x, area.top() + (area.height() - 11.0) / 2.0, 11.0, 11.0);
        painter.setPen(QPen(faultColour(), 1.0));
        painter.setBrush(QBrush(faultColour(), Qt::BDiagPattern));
        painter.drawRect(box);
        painter.setPen(text);
        painter.drawText(QRectF(box.right() + 5.0, area.top(), fm.horizontalAdvance(name) + 2.0, area.height()),
                         Qt::AlignVCenter | Qt::AlignLeft, name);
    }
    return area.height();
}

void paintJob(QPainter& painter, const QRectF& area, const model::Playback& pb, const model::PlaybackInstance& inst,
              double now, const QFont& base)
{
    const simcore::Job& job = pb.jobs()[static_cast<size_t>(inst.job)];
    const QColor fill = jobTypeColour(job.type);
    painter.setPen(Qt::NoPen);
    painter.setBrush(fill);
    painter.drawRect(area);
    const double left = pb.remaining(inst, now);
    const QRectF bar(area.left() + 3.0, area.bottom() - 9.0, area.width() - 6.0, 6.0);
    painter.setBrush(progressTrackColour());
    painter.drawRect(bar);
    painter.setBrush(fill.darker(170));
    painter.drawRect(QRectF(bar.left(), bar.top(), bar.width() * std::clamp(left, 0.0, 1.0), bar.height()));
    painter.setPen(textColourOn(fill));
    const QRectF textArea(area.left() + 2.0, area.top(), area.width() - 4.0, bar.top() - area.top());
    QFont font = scaledFont(base, 0.9, true);
    painter.setFont(font);
    QString text = QStringLiteral("#%1").arg(job.id);
    if (QFontMetricsF(font).horizontalAdvance(text + QStringLiteral(" 100%")) < textArea.width())
        text += QStringLiteral(" %1%").arg(qRound(left * 100.0));
    if (job.deadline < now)
        text += QStringLiteral(" !");
    painter.drawText(textArea, Qt::AlignCenter, QFontMetricsF(font).elidedText(text, Qt::ElideRight, textArea.width()));
}

void paintInstance(QPainter& painter, const QRectF& block, const model::Playback& pb, int g,
                   const model::PlaybackInstance& inst, double now, const QFont& base)
{
    const simcore::Profile& profile = pb.gpuModel(g).profiles[static_cast<size_t>(inst.profile)];
    const QColor compute = computeColour(inst.compute);
    const double band = std::min(20.0, block.height() * 0.35);
    painter.setPen(QPen(compute.darker(135), 1.0));
    painter.setBrush(Qt::white);
    painter.drawRoundedRect(block, 3.5, 3.5);
    const QRectF top(block.left(), block.top(), block.width(), band);
    // A pale tint of the size's colour: the saturated colours are the job types' in the body below
    // (the two palettes share hues), so a saturated header read as a job.
    QColor tint = compute;
    tint.setAlphaF(0.28);
    painter.setPen(Qt::NoPen);
    painter.setBrush(tint);
    painter.drawRect(top.adjusted(0.5, 0.5, -0.5, 0));
    painter.setPen(QPen(compute.darker(120), 1.0));
    painter.drawLine(QLineF(top.left() + 0.5, top.bottom(), top.right() - 0.5, top.bottom()));
    const FleetInstance label{QString::fromStdString(profile.name), inst.compute, inst.start, profile.memorySlices};
    paintInstanceLabel(painter, label, top, scaledFont(base, 0.85), true);
    const QRectF body = block.adjusted(1.5, band, -1.5, -1.5);
    painter.setFont(scaledFont(base, 0.85));
    if (inst.failedUntil > now + 1e-9) {
        painter.setPen(QPen(faultColour(), 1.5));
        painter.setBrush(QBrush(faultColour(), Qt::BDiagPattern));
        painter.drawRect(body);
        const QString text = tr("failed · back %1").arg(QString::fromStdString(model::clockText(inst.failedUntil)));
        const QFontMetricsF fm(painter.font());
        const QRectF backdrop = fm.boundingRect(body, Qt::AlignCenter, text).adjusted(-3, -1, 3, 1) & body;
        painter.setPen(Qt::NoPen);
        painter.setBrush(Qt::white);
        painter.drawRect(backdrop);
        painter.setPen(faultColour());
        painter.drawText(body, Qt::AlignCenter, fm.elidedText(text, Qt::ElideRight, body.width() - 4.0));
    } else if (inst.readyAt > now + 1e-9) {
        painter.setBrush(QBrush(freeSlotColour(), Qt::BDiagPattern));
        painter.drawRect(body);
        painter.setPen(kMuted);
        painter.drawText(body, Qt::AlignCenter, tr("reconfiguring"));
    } else if (inst.job >= 0) {
        paintJob(painter, body, pb, inst, now, base);
    } else {
        painter.setPen(kMuted);
        painter.drawText(body, Qt::AlignCenter, tr("idle"));
    }
}

void paintGpuRow(QPainter& painter, const QRectF& row, const model::Playback& pb, const model::PlaybackState& state,
                 int g, const QFont& base, const QColor& text)
{
    const double labelWidth = 64.0;
    painter.setFont(scaledFont(base, 1.0, true));
    painter.setPen(text);
    painter.drawText(QRectF(row.left(), row.top(), labelWidth, row.height()), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("GPU %1").arg(g));
    const simcore::GpuModel& model = pb.gpuModel(g);
    const QRectF strip = row.adjusted(labelWidth, 0, 0, 0);
    const double cell = strip.width() / model.memorySlices;
    painter.setPen(QPen(freeSlotColour(), 1.0, Qt::DashLine));
    painter.setBrush(Qt::NoBrush);
    for (int s = 0; s < model.memorySlices; ++s)
        painter.drawRoundedRect(
            QRectF(strip.left() + s * cell + 1.5, strip.top() + 1.5, cell - 3.0, strip.height() - 3.0), 3.0, 3.0);
    for (const auto& inst : state.gpus[static_cast<size_t>(g)]) {
        const int span = model.profiles[static_cast<size_t>(inst.profile)].memorySlices;
        const QRectF block(strip.left() + inst.start * cell + 1.5, strip.top() + 1.5, span * cell - 3.0,
                           strip.height() - 3.0);
        paintInstance(painter, block, pb, g, inst, state.time, base);
    }
}

void paintQueue(QPainter& painter, const QRectF& area, const model::Playback& pb, const model::PlaybackState& state,
                const QFont& base)
{
    painter.setPen(QPen(paperBorderColour(), 1.0));
    painter.setBrush(paperSurfaceColour());
    painter.drawRoundedRect(area.adjusted(0.5, 0.5, -0.5, -0.5), 6.0, 6.0);
    const std::vector<int> none;
    const std::vector<int>& queue = state.step >= 0 ? pb.step(state.step).queue : none;
    const QRectF inner = area.adjusted(8.0, 6.0, -8.0, -6.0);
    painter.setFont(scaledFont(base, 1.0, true));
    painter.setPen(kText);
    const double rowH = QFontMetricsF(scaledFont(base, 0.9)).height() + 4.0;
    painter.drawText(QRectF(inner.left(), inner.top(), inner.width(), rowH), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("Queue: %1 waiting").arg(queue.size()));
    painter.setFont(scaledFont(base, 0.8));
    painter.setPen(kMuted);
    painter.drawText(QRectF(inner.left(), inner.top() + rowH, inner.width(), rowH), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("in the scheduler's order · deadline"));
    painter.setFont(scaledFont(base, 0.9));
    double y = inner.top() + 2.0 * rowH + 2.0;
    const int fit = std::max(0, static_cast<int>((inner.bottom() - y) / rowH));
    const int shown = static_cast<int>(queue.size()) <= fit ? static_cast<int>(queue.size()) : std::max(0, fit - 1);
    for (int k = 0; k < shown; ++k, y += rowH) {
        const simcore::Job& job = pb.jobs()[static_cast<size_t>(queue[static_cast<size_t>(k)])];
        const bool late = job.deadline < state.time;
        painter.setPen(Qt::NoPen);
        painter.setBrush(jobTypeColour(job.type));
        painter.drawRoundedRect(QRectF(inner.left(), y + (rowH - 10.0) / 2.0, 10.0, 10.0), 2.0, 2.0);
        painter.setPen(kText);
        painter.drawText(QRectF(inner.left() + 16.0, y, inner.width() - 16.0, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                         tr("job %1").arg(job.id));
        painter.setPen(late ? kLate : kMuted);
        const QString due = late ? tr("late · %1").arg(playbackClock(job.deadline)) : playbackClock(job.deadline);
        painter.drawText(QRectF(inner.left(), y, inner.width(), rowH), Qt::AlignRight | Qt::AlignVCenter, due);
    }
    if (shown < static_cast<int>(queue.size())) {
        painter.setPen(kMuted);
        painter.drawText(QRectF(inner.left(), y, inner.width(), rowH), Qt::AlignLeft | Qt::AlignVCenter,
                         tr("… and %1 more").arg(queue.size() - static_cast<size_t>(shown)));
    }
}

} // namespace

QString playbackClock(double minutes)
{
    const auto seconds = static_cast<long long>(std::floor(std::max(0.0, minutes) * 60.0 + 0.5));
    return QStringLiteral("%1:%2:%3")
        .arg(seconds / 3600)
        .arg((seconds / 60) % 60, 2, 10, QLatin1Char('0'))
        .arg(seconds % 60, 2, 10, QLatin1Char('0'));
}

void paintPlayback(QPainter& painter, const QRectF& rect, const model::Playback& pb, const model::PlaybackState& state,
                   const QFont& base, const QColor& background)
{
    // The legend and GPU labels stand on the background (dark in the dark theme); the instances
    // and the queue have their own light fill and keep dark text.
    const QColor text = textColourOn(background);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    const double queueWidth = std::clamp(rect.width() * 0.26, 170.0, 280.0);
    const QRectF fleet(rect.left(), rect.top(), rect.width() - queueWidth - kGap, rect.height());
    const double legend = legendRow(painter, QRectF(fleet.left(), fleet.top(), fleet.width(), 22.0), pb, base, text);
    const int gpus = pb.gpuCount();
    const double avail = fleet.height() - legend - kGap;
    const double rowH = std::clamp((avail - (gpus - 1) * 6.0) / std::max(1, gpus), 40.0, 110.0);
    for (int g = 0; g < gpus; ++g) {
        const QRectF row(fleet.left(), fleet.top() + legend + kGap + g * (rowH + 6.0), fleet.width(), rowH);
        if (row.top() > rect.bottom())
            break;
        paintGpuRow(painter, row, pb, state, g, base, text);
    }
    paintQueue(painter, QRectF(fleet.right() + kGap, rect.top(), queueWidth, rect.height()), pb, state, base);
    painter.restore();
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "playbackexport.h"

#include "fleetlayout.h"
#include "palette.h"
#include "playback.h"
#include "playbackpainter.h"
#include "savefile.h"

#include <QBuffer>
#include <QDir>
#include <QPainter>

#include <algorithm>

namespace ui {

std::vector<int> framesBetween(const model::Playback& playback, double from, double to, int maxFrames)
{
    std::vector<int> all;
    for (int i = std::max(0, playback.stepAtTime(from)); i < playback.stepCount(); ++i) {
        if (playback.step(i).time > to)
            break;
        if (playback.step(i).time >= from || all.empty())
            all.push_back(i);
    }
    if (maxFrames <= 0 || static_cast<int>(all.size()) <= maxFrames)
        return all;
    std::vector<int> thin;
    for (int k = 0; k < maxFrames; ++k) {
        const auto at = static_cast<size_t>(static_cast<double>(k) * static_cast<double>(all.size() - 1) /
                                            std::max(1, maxFrames - 1));
        thin.push_back(all[at]);
    }
    return thin;
}

QImage renderPlaybackFrame(const model::Playback& playback, int step, QSize size, const QFont& font)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const model::PlaybackState state = playback.stateAt(step);
    const QRectF all(12.0, 10.0, size.width() - 24.0, size.height() - 20.0);
    const QFont title = scaledFont(font, 1.15, true);
    const double titleH = QFontMetricsF(title).height() + 6.0;
    painter.setFont(title);
    painter.setPen(paperTextColour());
    const auto& sc = playback.scenario();
    painter.drawText(QRectF(all.left(), all.top(), all.width(), titleH), Qt::AlignLeft | Qt::AlignVCenter,
                     QStringLiteral("%1 · %2 · step %3 of %4")
                         .arg(QString::fromStdString(sc.name), playbackClock(state.time))
                         .arg(step + 1)
                         .arg(playback.stepCount()));
    QStringList lines;
    for (const auto& line : playback.describe(step))
        lines << QStringLiteral("• ") + QString::fromStdString(line);
    const QString text = lines.join(QLatin1Char('\n'));
    const QFont textFont = scaledFont(font, 0.95);
    // The explanations get the height they need: a one-GPU lesson has room to spare above them,
    // and a frame for slides must not cut a reason off. The GPUs keep at least the height their
    // rows are drawn at (at most 110 px each, plus the legend), or half the frame.
    const double textH =
        QFontMetricsF(textFont)
            .boundingRect(QRectF(0, 0, all.width() - 20.0, 1e6), Qt::AlignLeft | Qt::TextWordWrap, text)
            .height();
    const double fleetNeed = std::min(all.height() * 0.5, 50.0 + 114.0 * playback.gpuCount());
    const double explainH = std::clamp(textH + 18.0, 110.0, std::max(110.0, all.height() - titleH - 16.0 - fleetNeed));
    const QRectF fleet(all.left(), all.top() + titleH + 4.0, all.width(), all.height() - titleH - explainH - 12.0);
    paintPlayback(painter, fleet, playback, state, font);
    const QRectF box(all.left(), all.bottom() - explainH, all.width(), explainH);
    painter.setPen(QPen(paperBorderColour(), 1.0));
    painter.setBrush(paperSurfaceColour());
    painter.drawRoundedRect(box, 6.0, 6.0);
    painter.setFont(textFont);
    painter.setPen(paperTextColour());
    painter.drawText(box.adjusted(10.0, 8.0, -10.0, -8.0), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, text);
    return image;
}

int writePlaybackFrames(const model::Playback& playback, const std::vector<int>& steps, const QString& dir, QSize size,
                        QString* error)
{
    if (!QDir().mkpath(dir)) {
        if (error)
            *error = QStringLiteral("cannot create %1").arg(dir);
        return 0;
    }
    QFont font;
    font.setPointSizeF(std::max(9.0, size.height() / 80.0));
    int written = 0;
    for (int step : steps) {
        const QString path =
            QDir(dir).filePath(QStringLiteral("frame-%1.png").arg(written + 1, 4, 10, QLatin1Char('0')));
        // Encoded in memory, then written through a temporary file renamed over the frame: an
        // existing frame is replaced whole or kept (docs/limits.md, "Output files").
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        if (!renderPlaybackFrame(playback, step, size, font).save(&buffer, "PNG")) {
            if (error)
                *error = QStringLiteral("cannot encode %1").arg(path);
            return written;
        }
        if (!saveFileAtomically(path, png, error))
            return written;
        ++written;
    }
    return written;
}

} // namespace ui

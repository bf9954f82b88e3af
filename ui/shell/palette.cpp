// SPDX-License-Identifier: GPL-3.0-or-later
#include "palette.h"

#include <QApplication>
#include <QPalette>

#include <array>

namespace ui {

QColor computeColour(int computeSlices)
{
    // Index = compute slices; 5g and 6g do not exist on current boards but get a colour anyway.
    static const std::array<QColor, 8> colours{
        QColor(0x9e, 0x9e, 0x9e), // unused
        QColor(0x56, 0xb4, 0xe9), // 1g sky blue
        QColor(0x00, 0x9e, 0x73), // 2g bluish green
        QColor(0xe6, 0x9f, 0x00), // 3g orange
        QColor(0xcc, 0x79, 0xa7), // 4g reddish purple
        QColor(0xf0, 0xe4, 0x42), // 5g yellow
        QColor(0xd5, 0x5e, 0x00), // 6g vermillion
        QColor(0x00, 0x72, 0xb2), // 7g blue
    };
    if (computeSlices < 0 || computeSlices >= static_cast<int>(colours.size()))
        return colours[0];
    return colours[static_cast<size_t>(computeSlices)];
}

QColor textColourOn(const QColor& background)
{
    // Relative luminance (sRGB weights) is enough to pick a readable label colour.
    const double luminance = 0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return luminance > 0.45 ? QColor(0x1a, 0x1a, 0x1a) : QColor(Qt::white);
}

QColor powerColour()
{
    return QColor(0x00, 0x72, 0xb2);
}

QColor queueColour()
{
    return QColor(0xd5, 0x5e, 0x00);
}

QColor arrivalsColour()
{
    return QColor(0x00, 0x72, 0xb2);
}

bool isDarkTheme()
{
    return QApplication::palette().color(QPalette::Window).lightness() < 128;
}

QColor surfaceColour()
{
    return isDarkTheme() ? QColor(0x24, 0x26, 0x2a) : QColor(0xfb, 0xfb, 0xfc);
}

QColor borderColour()
{
    return isDarkTheme() ? QColor(0x5a, 0x60, 0x6a) : QColor(0xc4, 0xc8, 0xcf);
}

QColor mutedTextColour()
{
    return isDarkTheme() ? QColor(0xa9, 0xb0, 0xba) : paperMutedTextColour();
}

QColor paperMutedTextColour()
{
    return QColor(0x5f, 0x66, 0x70);
}

QColor paperNoteTextColour()
{
    return QColor(0x3c, 0x40, 0x46);
}

QColor gridColour()
{
    return isDarkTheme() ? QColor(0x3c, 0x40, 0x47) : QColor(0xdd, 0xdf, 0xe3);
}

QColor problemTextColour()
{
    return isDarkTheme() ? QColor(0xff, 0x9e, 0x80) : QColor(0xa8, 0x2c, 0x00);
}

QString textStyle(const QColor& colour)
{
    return QStringLiteral("color: %1").arg(colour.name());
}

QColor presenceColour(bool stale)
{
    if (isDarkTheme())
        return stale ? QColor(0x2a, 0x2c, 0x30) : QColor(0x33, 0x37, 0x3e);
    return stale ? QColor(0xf3, 0xf3, 0xf3) : QColor(0xe8, 0xeb, 0xf0);
}

} // namespace ui

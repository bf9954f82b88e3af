// SPDX-License-Identifier: GPL-3.0-or-later
#include "palette.h"

#include <QApplication>
#include <QPalette>

#include <array>

namespace ui {

namespace {

// The Okabe-Ito colours (distinct for colour-blind readers and in print), named once: slice sizes,
// compared runs, job types and series all draw from them.
constexpr QRgb kBlue = 0x0072b2;
constexpr QRgb kOrange = 0xe69f00;
constexpr QRgb kGreen = 0x009e73;
constexpr QRgb kPurple = 0xcc79a7; // reddish purple
constexpr QRgb kSky = 0x56b4e9;
constexpr QRgb kVermillion = 0xd55e00;
constexpr QRgb kYellow = 0xf0e442;
constexpr QRgb kGrey = 0x999999;
/// A red for what must be noticed: the time cursor and a late job.
constexpr QRgb kAlarmRed = 0xc02020;

} // namespace

QColor computeColour(int computeSlices)
{
    // Index = compute slices; 5g and 6g do not exist on current boards but get a colour anyway.
    static const std::array<QColor, 8> colours{
        unassignedColour(),  // unused
        QColor(kSky),        // 1g sky blue
        QColor(kGreen),      // 2g bluish green
        QColor(kOrange),     // 3g orange
        QColor(kPurple),     // 4g reddish purple
        QColor(kYellow),     // 5g yellow
        QColor(kVermillion), // 6g vermillion
        QColor(kBlue),       // 7g blue
    };
    if (computeSlices < 0 || computeSlices >= static_cast<int>(colours.size()))
        return colours[0];
    return colours[static_cast<size_t>(computeSlices)];
}

QColor runColour(int i)
{
    static const std::array<QColor, 4> colours{QColor(kBlue), QColor(kVermillion), QColor(kGreen), QColor(kPurple)};
    return colours[static_cast<size_t>(i) % colours.size()];
}

QColor jobTypeColour(int i)
{
    static const std::array<QColor, 8> colours{QColor(kSky),  QColor(kOrange),     QColor(kGreen),  QColor(kPurple),
                                               QColor(kBlue), QColor(kVermillion), QColor(kYellow), QColor(kGrey)};
    return colours[static_cast<size_t>(i) % colours.size()];
}

QColor faultColour()
{
    return QColor(0xb0, 0x00, 0x20);
}

QColor staleFaultColour()
{
    return QColor(0x80, 0x80, 0x80);
}

QColor unassignedColour()
{
    return QColor(0x9e, 0x9e, 0x9e);
}

QColor gangOutlineColour()
{
    return QColor(0x30, 0x30, 0x30);
}

QColor cursorColour()
{
    return QColor(kAlarmRed);
}

QColor targetColour()
{
    return QColor(0xcc, 0x33, 0x33);
}

QGradientStops powerGradientStops()
{
    return {{0.0, QColor(0xf7, 0xf3, 0xe8)},
            {0.35, QColor(0xf6, 0xc4, 0x7a)},
            {0.7, QColor(0xe0, 0x6a, 0x2c)},
            {1.0, QColor(0x8c, 0x1d, 0x18)}};
}

QColor textColourOn(const QColor& background)
{
    // Relative luminance (sRGB weights) is enough to pick a readable label colour.
    const double luminance = 0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return luminance > 0.45 ? inkColour() : QColor(Qt::white);
}

QColor powerColour()
{
    return QColor(kBlue);
}

QColor queueColour()
{
    return QColor(kVermillion);
}

QColor arrivalsColour()
{
    return QColor(kBlue);
}

bool isDarkTheme()
{
    return QApplication::palette().color(QPalette::Window).lightness() < 128;
}

QColor surfaceColour()
{
    return isDarkTheme() ? QColor(0x24, 0x26, 0x2a) : paperSurfaceColour();
}

QColor borderColour()
{
    return isDarkTheme() ? QColor(0x5a, 0x60, 0x6a) : paperBorderColour();
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

QColor noteTextColour()
{
    return isDarkTheme() ? QColor(0xc8, 0xcd, 0xd4) : paperNoteTextColour();
}

QColor staleTextColour()
{
    return QColor(0x8a, 0x8f, 0x98); // a mid grey reads on the light and on the dark base
}

QColor staleBarColour()
{
    return isDarkTheme() ? QColor(0x4a, 0x4f, 0x57) : QColor(0xc8, 0xcb, 0xd0);
}

QColor staleLineColour()
{
    return isDarkTheme() ? QColor(0x6b, 0x71, 0x7b) : QColor(0xb8, 0xbc, 0xc2);
}

QColor veilColour()
{
    QColor base = QApplication::palette().color(QPalette::Base);
    base.setAlpha(210);
    return base;
}

QColor axisLineColour()
{
    return isDarkTheme() ? QColor(0xa9, 0xb0, 0xba) : QColor(Qt::black);
}

QColor allowedColour()
{
    return QColor(0x1a, 0x9e, 0x4b);
}

QColor refusedColour()
{
    return QColor(0xc6, 0x28, 0x28);
}

QColor jobSizeBarColour()
{
    return QColor(kOrange);
}

QColor jobTypeBarColour()
{
    return QColor(kGreen);
}

QColor figureSeriesColour(size_t i)
{
    static const std::array<QColor, 12> colours{QColor(kBlue),
                                                QColor(kOrange),
                                                QColor(kGreen),
                                                QColor(kPurple),
                                                QColor(kSky),
                                                QColor(kVermillion),
                                                QColor(kYellow),
                                                QColor(kGrey),
                                                QColor(0x33, 0x33, 0x33),
                                                QColor(0x88, 0x2e, 0x72),
                                                QColor(0x7f, 0xc9, 0x7f),
                                                QColor(0xbe, 0xae, 0xd4)};
    return colours[i % colours.size()];
}

QColor inkColour()
{
    return QColor(0x1a, 0x1a, 0x1a);
}

QColor paperTextColour()
{
    return QColor(0x20, 0x24, 0x2a);
}

QColor tintTextColour()
{
    return QColor(0x1f, 0x23, 0x28);
}

QColor paperSurfaceColour()
{
    return QColor(0xfb, 0xfb, 0xfc);
}

QColor paperBorderColour()
{
    return QColor(0xc4, 0xc8, 0xcf);
}

QColor paperStripeColour()
{
    return QColor(0xf2, 0xf3, 0xf5);
}

QColor paperRuleColour()
{
    return QColor(0x8a, 0x90, 0x99);
}

QColor lateColour()
{
    return QColor(kAlarmRed);
}

QColor progressTrackColour()
{
    return QColor(255, 255, 255, 200);
}

QColor freeSlotColour()
{
    return QColor(0xb8, 0xbd, 0xc4);
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

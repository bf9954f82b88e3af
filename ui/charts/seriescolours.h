// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>

#include <array>

namespace ui {

/// Colour of the i-th compared run (Okabe-Ito: distinct for colour-blind readers and in print).
[[nodiscard]] inline QColor runColour(int i)
{
    static const std::array<QColor, 4> colours{QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00),
                                               QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7)};
    return colours[static_cast<size_t>(i) % colours.size()];
}

/// Colour of job type i in the occupancy Gantt.
[[nodiscard]] inline QColor jobTypeColour(int i)
{
    static const std::array<QColor, 8> colours{
        QColor(0x56, 0xb4, 0xe9), QColor(0xe6, 0x9f, 0x00), QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
        QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00), QColor(0xf0, 0xe4, 0x42), QColor(0x99, 0x99, 0x99)};
    return colours[static_cast<size_t>(i) % colours.size()];
}

/// Colour of a failure (its mark on the Gantt, a failed instance in playback): a deep red that no
/// job type or compared run uses.
[[nodiscard]] inline QColor faultColour()
{
    return {0xb0, 0x00, 0x20};
}

} // namespace ui

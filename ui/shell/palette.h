// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QString>

namespace ui {

/// Fill colour of a MIG instance by its compute slices (1..7). Colour-blind-safe (Okabe-Ito based)
/// so the fleet view stays readable for everyone and in print.
[[nodiscard]] QColor computeColour(int computeSlices);

/// Black or white, whichever reads better on @p background.
[[nodiscard]] QColor textColourOn(const QColor& background);

/// Series colours shared by every chart, so "power" looks the same everywhere.
[[nodiscard]] QColor powerColour();
[[nodiscard]] QColor queueColour();
[[nodiscard]] QColor arrivalsColour(); ///< jobs arriving by hour (workload page, import dialog)

/// Whether the application palette is a dark one (View › Theme › Dark).
[[nodiscard]] bool isDarkTheme();
/// Neutral colours of cards, frames and grids that follow the light or dark palette.
[[nodiscard]] QColor surfaceColour();   ///< a GPU card's fill
[[nodiscard]] QColor borderColour();    ///< card borders, chart frames, separators
[[nodiscard]] QColor mutedTextColour(); ///< secondary text (board names, captions)
/// Secondary text on paper (reports and pictures painted on white, whatever the theme).
[[nodiscard]] QColor paperMutedTextColour();
/// The explanation under a report's table: darker than the muted text, since it is read.
[[nodiscard]] QColor paperNoteTextColour();
[[nodiscard]] QColor gridColour();        ///< chart grid lines
[[nodiscard]] QColor problemTextColour(); ///< a refusal or warning that must be read
/// "color: #rrggbb", a label's style sheet with @p colour (style sheets do not follow the palette).
[[nodiscard]] QString textStyle(const QColor& colour);
/// The band behind a Gantt row while its instance exists (lighter when stale).
[[nodiscard]] QColor presenceColour(bool stale);

} // namespace ui

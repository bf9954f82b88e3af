// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QGradient>
#include <QString>

#include <cstddef>

namespace ui {

/// Fill colour of a MIG instance by its compute slices (1..7). Colour-blind-safe (Okabe-Ito based)
/// so the fleet view stays readable for everyone and in print.
[[nodiscard]] QColor computeColour(int computeSlices);

/// Black or white, whichever reads better on @p background.
[[nodiscard]] QColor textColourOn(const QColor& background);

/// Colour of the i-th compared run (Okabe-Ito: distinct for colour-blind readers and in print).
[[nodiscard]] QColor runColour(int i);
/// Colour of job type i in the occupancy Gantt (and of tenant i on the Tenants page).
[[nodiscard]] QColor jobTypeColour(int i);
/// Colour of a failure (its mark on the Gantt, a failed instance in playback): a deep red that no
/// job type or compared run uses.
[[nodiscard]] QColor faultColour();
/// A failure's mark on a stale Gantt.
[[nodiscard]] QColor staleFaultColour();
/// What has no colour of its own: an unused slice, a job without a tenant or of an unknown type.
[[nodiscard]] QColor unassignedColour();
/// The outline of a gang job's segments (and its legend entry).
[[nodiscard]] QColor gangOutlineColour();
/// The time cursor drawn across the time charts.
[[nodiscard]] QColor cursorColour();
/// The sweep chart's tardiness target and its knee.
[[nodiscard]] QColor targetColour();
/// The power strip's colour map, pale (idle) to dark red (full power), as stops from 0 to 1:
/// readable in light and dark themes alike.
[[nodiscard]] QGradientStops powerGradientStops();

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
/// Text and marks that must read on every chart and in every theme, themed.
[[nodiscard]] QColor noteTextColour();  ///< a chart's key under its panels (the note text on paper)
[[nodiscard]] QColor staleTextColour(); ///< a table row that is not the current scenario's result
[[nodiscard]] QColor staleBarColour();  ///< a stale run's bars on Compare
[[nodiscard]] QColor staleLineColour(); ///< a stale run's lines on Compare
/// The base colour, translucent: behind a label drawn over a chart's data ("stale — updating…").
[[nodiscard]] QColor veilColour();
/// The lines from an axis to its ticks: black in light, a light grey in dark (stylePlot()).
[[nodiscard]] QColor axisLineColour();
/// The layout editor's verdict on a drop: a start the placement rules allow, or refuse.
[[nodiscard]] QColor allowedColour();
[[nodiscard]] QColor refusedColour();
/// The Workload page's bars of job sizes and of job types (arrivals take arrivalsColour()).
[[nodiscard]] QColor jobSizeBarColour();
[[nodiscard]] QColor jobTypeBarColour();
/// Series of a report figure's panel with more than the four run colours (Okabe-Ito, then greys
/// and three more), repeating after twelve.
[[nodiscard]] QColor figureSeriesColour(size_t i);

/// Paper: pictures painted on white whatever the theme (reports, playback frames and the
/// playback page, which shows what an exported frame will look like).
[[nodiscard]] QColor inkColour();           ///< near-black: dark labels, a figure's dashed bound
[[nodiscard]] QColor paperTextColour();     ///< titles and explanations
[[nodiscard]] QColor tintTextColour();      ///< a label on an instance's light tint
[[nodiscard]] QColor paperSurfaceColour();  ///< a card's or box's fill (surfaceColour() in light)
[[nodiscard]] QColor paperBorderColour();   ///< card borders, rules (borderColour() in light)
[[nodiscard]] QColor paperStripeColour();   ///< every other row of a report's table
[[nodiscard]] QColor paperRuleColour();     ///< the rule under a report's table, above its note
[[nodiscard]] QColor lateColour();          ///< a queued job past its deadline
[[nodiscard]] QColor progressTrackColour(); ///< behind a job's progress bar, on its fill
/// Outline of a free memory or compute slot (also on paper, so one colour in both themes).
[[nodiscard]] QColor freeSlotColour();

/// "color: #rrggbb", a label's style sheet with @p colour (style sheets do not follow the palette).
[[nodiscard]] QString textStyle(const QColor& colour);
/// The band behind a Gantt row while its instance exists (lighter when stale).
[[nodiscard]] QColor presenceColour(bool stale);

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QCustomPlot;
class QMenu;

namespace ui {

/// The studio's colour scheme: the platform's, or Fusion with a light or a dark palette.
enum class Theme { System, Light, Dark };

/// The theme kept in QSettings ("view/theme"), System when none.
[[nodiscard]] Theme savedTheme();
/// Applies @p theme to the whole application (Fusion style and palette), restyles every chart
/// and keeps the choice in QSettings. Charts created later follow it too.
void applyTheme(Theme theme, bool remember = true);
/// "system", "light" or "dark"; false for anything else.
bool parseTheme(const QString& name, Theme& theme);
[[nodiscard]] Theme currentTheme();
[[nodiscard]] QString themeName(Theme theme);

/// Axes, grids, text, legend and background of @p plot in the colours of the application
/// palette (called before each replot of every shown chart once applyTheme() ran).
void stylePlot(QCustomPlot* plot);

/// View › Theme: System, Light, Dark as exclusive checkable actions.
void addThemeMenu(QMenu* view);

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QMainWindow;
class QMenuBar;
class QTabWidget;

namespace ui {

/// View menu: one action per page (Ctrl+1 … Ctrl+9, in tab order) and View › Theme.
void setupViewMenu(QMenuBar* bar, QTabWidget* pages);

/// Keeps the window's geometry, dock state, current page and named splitters in QSettings.
void saveWindowState(QMainWindow* window);
void restoreWindowState(QMainWindow* window);

} // namespace ui

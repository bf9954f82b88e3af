// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QMainWindow;
class QMenuBar;
class QTabWidget;

namespace ui {

/// View menu: one action per page (Ctrl+1 … Ctrl+9, in tab order), View › Theme and Reset layout.
void setupViewMenu(QMenuBar* bar, QTabWidget* pages);

/// Keeps the window's geometry, dock state, current page and named splitters in QSettings.
void saveWindowState(QMainWindow* window);
void restoreWindowState(QMainWindow* window);
/// View › Reset layout: every splitter back to its first sizes, the saved ones forgotten.
void resetWindowLayout(QMainWindow* window);

} // namespace ui

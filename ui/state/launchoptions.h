// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

namespace ui {

/// What the migsight command line asked for.
struct LaunchOptions
{
    bool help = false;
    bool version = false;
    QString session;    ///< scenario file to open; empty = the default sample
    QString screenshot; ///< PNG to write after the first run, then exit
    QSize screenshotSize{1280, 800};
    QString page;             ///< page to show (--page): overview, runs or compare; empty = overview
    QString theme;            ///< --theme system|light|dark for this start only; empty = the saved one
    bool startupTime = false; ///< --startup-time: print the time to an interactive window, quit
    QStringList rest;         ///< arguments that are not ours, for QApplication
    QString error;            ///< first usage error, empty when the line was fine
};

/// Takes migsight's own options out of the arguments after the program name. Everything else
/// is kept in @c rest for QApplication: it must not see them, as it takes "--session" for its
/// own (X11 session management) option.
[[nodiscard]] LaunchOptions parseLaunchOptions(const QStringList& arguments);

/// Checks what QApplication left of @c rest: one plain argument is the scenario file (as file
/// managers pass it), anything else is a usage error.
void applyLeftoverArguments(LaunchOptions& options, const QStringList& leftovers);

/// The page names --page accepts.
[[nodiscard]] QStringList launchPages();

/// The --help text.
[[nodiscard]] QString launchHelp();

} // namespace ui

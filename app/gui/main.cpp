// SPDX-License-Identifier: GPL-3.0-or-later
// migsight: the Qt Widgets studio.
#include "about.h"
#include "args.h"
#include "launchoptions.h"
#include "mainwindow.h"
#include "plugins.h"
#include "resources.h"
#include "scenariofile.h"
#include "screenshot.h"
#include "sessioncontroller.h"
#include "sessionfile.h"
#include "startuptime.h"
#include "studioapplication.h"
#include "theme.h"
#include "version.h"

#include <QApplication>
#include <QByteArray>
#include <QIcon>
#include <QList>
#include <QStringList>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

QStringList rawArguments(const std::vector<std::string>& words)
{
    QStringList args;
    for (const auto& w : words)
        args << QString::fromLocal8Bit(w.c_str());
    return args;
}

/// Python policies for the studio (docs/python.md, "Plugins"): the files of MIGSIGHT_PLUGINS, then
/// those of --plugin FILE.py (taken out of @p words). Loaded before any scenario is read, so the
/// policy form lists them and scenarios and sessions may name them.
void loadStudioPlugins(std::vector<std::string>& words)
{
    std::vector<std::string> files = cli::pluginsFromEnvironment();
    cli::loadPlugins(files);
    cli::takePlugins(words);
}

/// The argc/argv QApplication gets: the program name and the arguments that are not ours.
struct QtArguments
{
    QtArguments(const char* program, const QStringList& rest)
    {
        storage << QByteArray(program);
        for (const QString& arg : rest)
            storage << arg.toLocal8Bit();
        for (QByteArray& bytes : storage)
            argv.push_back(bytes.data());
        argv.push_back(nullptr);
        argc = static_cast<int>(storage.size());
    }
    QList<QByteArray> storage;
    std::vector<char*> argv;
    int argc = 0; // QApplication keeps a reference: this object outlives it
};

void printErr(const QString& text)
{
    std::fputs(text.toLocal8Bit().constData(), stderr);
}

/// Screenshots need no display: use the offscreen platform unless the caller chose one or a
/// display is there (xvfb-run).
void preferOffscreenWithoutDisplay()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

/// The scenario of a scenario file or of a session file (its workspace's scenario).
ui::LoadedScenario loadForScreenshot(const QString& path)
{
    if (!ui::isSessionFile(path))
        return ui::loadScenarioFile(path);
    ui::LoadedSession session = ui::loadSession(path);
    ui::LoadedScenario loaded{std::move(session.state.scenario), std::move(session.problems)};
    if (!session.error.isEmpty())
        loaded.problems.add(path.toStdString(), {}, session.error.toStdString());
    return loaded;
}

int runScreenshot(const ui::LaunchOptions& options, const QString& scenarioPath)
{
    ui::LoadedScenario loaded = loadForScreenshot(scenarioPath);
    if (!loaded.ok()) {
        for (const auto& p : loaded.problems.items())
            printErr(QStringLiteral("error: %1\n").arg(QString::fromStdString(p.text())));
        return kExitBadInput;
    }
    ui::MainWindow window;
    const ui::ScreenshotOutcome outcome =
        ui::screenshotAfterRun(window, std::move(loaded.scenario), scenarioPath, options.screenshot,
                               options.screenshotSize, 300000, options.page);
    if (!outcome.ok) {
        printErr(QStringLiteral("migsight: screenshot: %1\n").arg(outcome.error));
        return kExitFailure;
    }
    return kExitOk;
}

/// Prints why the command line cannot be used; nullopt when it can.
std::optional<int> usageFailure(const ui::LaunchOptions& options)
{
    if (!options.error.isEmpty()) {
        printErr(QStringLiteral("migsight: %1 (see --help)\n").arg(options.error));
        return kExitBadInput;
    }
    return std::nullopt;
}

void setupApplication()
{
    QApplication::setOrganizationName(QStringLiteral("MIGsight"));
    QApplication::setApplicationName(QStringLiteral("MIGsight"));
    QApplication::setApplicationVersion(ui::versionString());
    QApplication::setDesktopFileName(QStringLiteral("migsight"));
    // Installed: the theme's hicolor icon; in the build tree: the source file.
    const auto svg = model::resourceDir() / "icons" / "migsight.svg";
    QApplication::setWindowIcon(
        QIcon::fromTheme(QStringLiteral("migsight"), QIcon(QString::fromStdString(svg.string()))));
}

} // namespace

/// The theme of --theme for this start only, else the one kept by View › Theme.
void applyStartTheme(const ui::LaunchOptions& options)
{
    ui::Theme theme = ui::savedTheme();
    (void)ui::parseTheme(options.theme, theme);
    ui::applyTheme(theme, false); // already kept, or only for this start
}

/// The studio as a user starts it: window state and theme as left, crash recovery first.
int runInteractive(const ui::LaunchOptions& options, const QString& path, qint64 mainStartNs)
{
    ui::MainWindow window;
    if (options.startupTime) {
        ui::reportStartupWhenInteractive(&window, mainStartNs);
    } else {
        window.session()->restoreWindowState();
    }
    window.show();
    // A crash's autosaved work comes first; an explicitly given file still opens when it is declined.
    if (options.startupTime || !window.session()->offerRecovery() || !options.session.isEmpty())
        window.openScenario(path);
    if (!options.page.isEmpty())
        window.showPage(options.page);
    return QApplication::exec();
}

namespace {

int runStudio(int argc, char** argv)
{
    const qint64 mainStartNs = ui::steadyNowNs();
    // Our options are taken out before QApplication sees the line: it would take "--session" for
    // itself, and --help, --version and usage errors must work without a display.
    std::vector<std::string> words(argv + 1, argv + argc);
    try {
        loadStudioPlugins(words);
    } catch (const cli::UsageError& e) {
        std::fprintf(stderr, "migsight: %s\n", e.what());
        return kExitBadInput;
    }
    ui::LaunchOptions options = ui::parseLaunchOptions(rawArguments(words));
    if (options.help || options.version) {
        std::fputs(options.help ? ui::launchHelp().toLocal8Bit().constData() : "migsight " MIGSIGHT_VERSION "\n",
                   stdout);
        return kExitOk;
    }
    if (const auto failure = usageFailure(options))
        return *failure;
    if (!options.screenshot.isEmpty())
        preferOffscreenWithoutDisplay();

    QtArguments qtArgs(argv[0], options.rest);
    ui::StudioApplication app(qtArgs.argc, qtArgs.argv.data()); // exceptions end in a message
    setupApplication();
    ui::applyLeftoverArguments(options, QApplication::arguments().mid(1));
    if (const auto failure = usageFailure(options))
        return *failure;
    const QString path = options.session.isEmpty() ? ui::defaultScenarioPath() : options.session;
    applyStartTheme(options);
    if (!options.screenshot.isEmpty())
        return runScreenshot(options, path);
    return runInteractive(options, path, mainStartNs);
}

} // namespace

int main(int argc, char** argv)
{
    // Inside the event loop, ui::StudioApplication::notify is the boundary; this one catches what
    // is thrown before the loop starts or after it ends (docs/limits.md, "The studio").
    try {
        return runStudio(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "migsight: error: %s\n", e.what());
    } catch (...) {
        std::fputs("migsight: error: an unexpected error of unknown kind\n", stderr);
    }
    return kExitFailure;
}

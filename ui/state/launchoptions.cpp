// SPDX-License-Identifier: GPL-3.0-or-later
#include "launchoptions.h"

#include <QRegularExpression>

namespace ui {

namespace {

/// Reads the value of option @p name (as "--name VALUE" or "--name=VALUE").
bool takeValue(const QStringList& args, qsizetype& i, const QString& name, QString& value, QString& error)
{
    const QString& arg = args[i];
    if (arg.startsWith(name + QLatin1Char('='))) {
        value = arg.mid(name.size() + 1);
    } else if (i + 1 < args.size()) {
        value = args[++i];
    } else {
        error = QStringLiteral("%1 needs a value").arg(name);
        return false;
    }
    if (value.isEmpty())
        error = QStringLiteral("%1 needs a non-empty value").arg(name);
    return error.isEmpty();
}

bool isOption(const QString& arg, const QString& name)
{
    return arg == name || arg.startsWith(name + QLatin1Char('='));
}

bool parseSize(const QString& text, QSize& size)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"));
    const auto match = pattern.match(text);
    if (!match.hasMatch())
        return false;
    size = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    return size.width() >= 320 && size.height() >= 240;
}

} // namespace

QStringList launchPages()
{
    return {QStringLiteral("overview"), QStringLiteral("runs"),     QStringLiteral("compare"),
            QStringLiteral("layouts"),  QStringLiteral("workload"), QStringLiteral("playback"),
            QStringLiteral("plan"),     QStringLiteral("plan-day"), QStringLiteral("plan-size"),
            QStringLiteral("services"), QStringLiteral("tenants")};
}

LaunchOptions parseLaunchOptions(const QStringList& args)
{
    LaunchOptions o;
    for (qsizetype i = 0; i < args.size() && o.error.isEmpty(); ++i) {
        const QString& arg = args[i];
        QString size;
        if (arg == QLatin1String("--help") || arg == QLatin1String("-h"))
            o.help = true;
        else if (arg == QLatin1String("--version"))
            o.version = true;
        else if (arg == QLatin1String("--startup-time"))
            o.startupTime = true;
        else if (isOption(arg, QStringLiteral("--theme"))) {
            if (takeValue(args, i, QStringLiteral("--theme"), o.theme, o.error) &&
                !QStringList{QStringLiteral("system"), QStringLiteral("light"), QStringLiteral("dark")}.contains(
                    o.theme))
                o.error = QStringLiteral("--theme needs system, light or dark, got '%1'").arg(o.theme);
        } else if (isOption(arg, QStringLiteral("--session")))
            takeValue(args, i, QStringLiteral("--session"), o.session, o.error);
        else if (isOption(arg, QStringLiteral("--screenshot")))
            takeValue(args, i, QStringLiteral("--screenshot"), o.screenshot, o.error);
        else if (isOption(arg, QStringLiteral("--size"))) {
            if (takeValue(args, i, QStringLiteral("--size"), size, o.error) && !parseSize(size, o.screenshotSize))
                o.error = QStringLiteral("--size needs WIDTHxHEIGHT, at least 320x240, got '%1'").arg(size);
        } else if (isOption(arg, QStringLiteral("--page"))) {
            if (takeValue(args, i, QStringLiteral("--page"), o.page, o.error) && !launchPages().contains(o.page))
                o.error = QStringLiteral("--page needs one of %1, got '%2'")
                              .arg(launchPages().join(QStringLiteral(", ")), o.page);
        } else
            o.rest << arg;
    }
    return o;
}

void applyLeftoverArguments(LaunchOptions& options, const QStringList& leftovers)
{
    for (const QString& arg : leftovers) {
        if (!options.error.isEmpty())
            return;
        if (arg.startsWith(QLatin1Char('-')))
            options.error = QStringLiteral("unknown option '%1'").arg(arg);
        else if (options.session.isEmpty())
            options.session = arg;
        else
            options.error = QStringLiteral("unexpected argument '%1'").arg(arg);
    }
}

QString launchHelp()
{
    return QStringLiteral("migsight - MIG partitioning and GPU job scheduling what-if studio\n"
                          "\n"
                          "Usage: migsight [--session FILE | FILE] [--page NAME]\n"
                          "                [--screenshot FILE.png [--size WxH]] [--theme NAME]\n"
                          "                [--startup-time] [--plugin FILE.py]...\n"
                          "\n"
                          "Options:\n"
                          "  --session FILE     open FILE: a session (.sqlite, saved by File › Save or\n"
                          "                     migsight-cli --db) or a scenario .json (default: the\n"
                          "                     bundled samples/quickstart.json); a bare FILE does the same\n"
                          "  --screenshot FILE  render the main window offscreen once the first simulation\n"
                          "                     has finished, save it as a PNG and exit\n"
                          "  --size WxH         window size for --screenshot (default 1280x800)\n"
                          "  --page NAME        page to show: overview (default), layouts, workload, runs,\n"
                          "                     compare, playback, plan, plan-day, plan-size (the Plan\n"
                          "                     page's tabs), services or tenants; for services it waits\n"
                          "                     for the autoscaler comparison; for runs and compare, --screenshot\n"
                          "                     first adds two runs (the scenario's policies and\n"
                          "                     cedf/threshold) and waits for them; for playback it waits\n"
                          "                     for the recording and shows mid-run; for the plan pages it\n"
                          "                     runs the tab's search (static layout, day plan, or a sweep\n"
                          "                     of 1 to 2x the fleet's GPUs at loads 1 and 1.5 with a p95 <= 5\n"
                          "                     min target) and waits for it\n"
                          "  --theme NAME       system, light or dark for this start (View › Theme keeps one)\n"
                          "  --startup-time     print the milliseconds from process start to the first\n"
                          "                     painted, responsive window, then quit\n"
                          "  --plugin FILE.py   load a Python file that registers schedulers and\n"
                          "                     repartitioners with the migsight module (repeatable; the\n"
                          "                     files of MIGSIGHT_PLUGINS=a.py:b.py are loaded first)\n"
                          "  --help             this text\n"
                          "  --version          the version\n"
                          "Qt's own options (-platform, -style, ...) are accepted too.\n"
                          "\n"
                          "Exit status: 0 success, 1 failure, 2 invalid input (every problem of a scenario\n"
                          "file is listed).\n");
}

} // namespace ui

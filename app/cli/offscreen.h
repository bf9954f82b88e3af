// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <cstdio>

namespace cli {

/// Qt's messages, without the one about XDG_RUNTIME_DIR that every headless run would print.
inline void quietQtMessages(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR")))
        return;
    std::fputs(qPrintable(qFormatLogMessage(type, context, message) + QLatin1Char('\n')), stderr);
}

/// What a command that paints needs before it makes its Qt application: the offscreen platform
/// (whatever the display, none needed), and with @p quiet, Qt's messages through quietQtMessages.
inline void useOffscreenPlatform(bool quiet)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    if (quiet)
        qInstallMessageHandler(quietQtMessages);
}

/// The command line of a Qt application made inside a command; it must outlive the application.
struct QtArguments
{
    int argc = 1;
    char name[13] = "migsight-cli";
    char* argv[2] = {name, nullptr};

    QtArguments() = default;
    QtArguments(const QtArguments&) = delete;
    QtArguments& operator=(const QtArguments&) = delete;
};

} // namespace cli

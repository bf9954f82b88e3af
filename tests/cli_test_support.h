// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Running migsight-cli from a test: its exit status and both streams. MIGSIGHT_CLI and
// MIGSIGHT_SOURCE_DIR come from migsight_add_qtest (tests/CMakeLists.txt).

#include <QByteArray>
#include <QProcess>
#include <QStringList>
#include <QtGlobal>

namespace clitest {

struct Output
{
    int exitCode = -1; ///< -1 when the process crashed
    QByteArray out;
    QByteArray err;
};

/// Runs migsight-cli with @p args in the source folder (so samples/... paths work); a run that
/// does not end within @p timeoutMs fails the test program.
inline Output cli(const QStringList& args, int timeoutMs = 300000)
{
    QProcess p;
    p.setWorkingDirectory(QStringLiteral(MIGSIGHT_SOURCE_DIR));
    p.start(QStringLiteral(MIGSIGHT_CLI), args);
    if (!p.waitForFinished(timeoutMs))
        qFatal("migsight-cli %s did not finish", qPrintable(args.join(QLatin1Char(' '))));
    Output o;
    o.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    o.out = p.readAllStandardOutput();
    o.err = p.readAllStandardError();
    return o;
}

} // namespace clitest

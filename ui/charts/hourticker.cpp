// SPDX-License-Identifier: GPL-3.0-or-later
#include "hourticker.h"

#include <qcustomplot.h>

#include <array>
#include <cmath>
#include <cstdlib>

namespace ui {

namespace {

class HourTicker : public QCPAxisTicker
{
protected:
    double getTickStep(const QCPRange& range) override
    {
        // Minute steps a reader counts in, then hour steps that divide a day.
        static constexpr std::array<double, 13> kSteps{
            1.0 / 60, 2.0 / 60, 5.0 / 60, 10.0 / 60, 15.0 / 60, 30.0 / 60, 1.0, 2.0, 3.0, 4.0, 6.0, 12.0, 24.0};
        const double wanted = range.size() / std::max(1, tickCount());
        for (double step : kSteps)
            if (step >= wanted * 0.999)
                return step;
        return 24.0 * std::ceil(wanted / 24.0); // several days: whole days
    }

    int getSubTickCount(double step) override
    {
        const long long minutes = std::llround(step * 60.0);
        if (minutes >= 60 && minutes % 60 == 0)
            return minutes / 60 <= 6 ? static_cast<int>(minutes / 60) - 1 : 1;
        return minutes % 5 == 0 && minutes > 5 ? static_cast<int>(minutes / 5) - 1 : 0;
    }

    QString getTickLabel(double tick, const QLocale& locale, QChar /*formatChar*/, int /*precision*/) override
    {
        const long long signedMinutes = std::llround(tick * 60.0);
        const long long minutes = std::llabs(signedMinutes);
        const QString sign = signedMinutes < 0 ? QStringLiteral("-") : QString();
        if (minutes % 60 == 0)
            return sign + locale.toString(minutes / 60);
        return sign + QStringLiteral("%1:%2").arg(minutes / 60).arg(minutes % 60, 2, 10, QLatin1Char('0'));
    }
};

} // namespace

QSharedPointer<QCPAxisTicker> makeHourTicker(int tickCount)
{
    QSharedPointer<QCPAxisTicker> ticker(new HourTicker);
    ticker->setTickCount(tickCount);
    return ticker;
}

} // namespace ui

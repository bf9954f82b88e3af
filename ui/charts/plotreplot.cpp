// SPDX-License-Identifier: GPL-3.0-or-later
#include "plotreplot.h"

#include <QCoreApplication>
#include <QEvent>
#include <qcustomplot.h>

namespace ui {

namespace {

const char* const kPending = "migsightReplotWhenShown";

/// Replots a plot whose replot waited while it was hidden, when it is shown; then lets go of it.
class ReplotOnShow : public QObject
{
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Show)
            if (auto* plot = qobject_cast<QCustomPlot*>(watched)) {
                plot->removeEventFilter(this);
                plot->setProperty(kPending, false);
                plot->replot(QCustomPlot::rpQueuedRefresh); // drawn now, painted with the page
            }
        return false;
    }
};

ReplotOnShow* replotOnShow()
{
    static auto* filter = new ReplotOnShow(QCoreApplication::instance());
    return filter;
}

} // namespace

void replotWhenVisible(QCustomPlot* plot, bool queued)
{
    if (plot->isVisible()) {
        plot->replot(queued ? QCustomPlot::rpQueuedReplot : QCustomPlot::rpRefreshHint);
        return;
    }
    if (plot->property(kPending).toBool())
        return;
    plot->setProperty(kPending, true);
    plot->installEventFilter(replotOnShow());
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "studycontrols.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace ui {

StudyControls StudyControls::addTo(QHBoxLayout* row, const QString& runText, const QString& prefix,
                                   const QString& runName)
{
    StudyControls c;
    auto* actions = new QVBoxLayout;
    c.run = new QPushButton(runText);
    c.run->setObjectName(prefix + runName);
    c.run->setDefault(true);
    c.cancel = new QPushButton(QCoreApplication::translate("ui::StudyControls", "Cancel"));
    c.cancel->setObjectName(prefix + QLatin1String("Cancel"));
    c.cancel->setEnabled(false);
    actions->addWidget(c.run);
    actions->addWidget(c.cancel);
    actions->addStretch(1);
    row->addLayout(actions);
    auto* progress = new QVBoxLayout;
    c.progress = new QProgressBar;
    c.progress->setObjectName(prefix + QLatin1String("Progress"));
    c.progress->setRange(0, 1);
    c.progress->setValue(0);
    c.status = new QLabel;
    c.status->setObjectName(prefix + QLatin1String("Status"));
    c.status->setWordWrap(true);
    progress->addWidget(c.progress);
    progress->addWidget(c.status);
    progress->addStretch(1);
    row->addLayout(progress, 1);
    return c;
}

void StudyControls::setRunning(bool running, QTimer* poll) const
{
    cancel->setEnabled(running);
    if (running) {
        progress->setRange(0, 0); // busy until the first count
        poll->start();
    } else {
        poll->stop();
    }
}

void StudyControls::sayCancelling() const
{
    status->setText(QCoreApplication::translate("ui::StudyControls", "Cancelling…"));
}

} // namespace ui

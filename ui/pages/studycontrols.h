// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>
#include <QProgressBar>
#include <QString>

class QHBoxLayout;
class QPushButton;
class QTimer;

namespace ui {

/// What the Plan page's "Best static layout" and "Day plan" tabs show to start, follow and stop
/// a study: a column with the run button over Cancel, and a column with the progress bar over the
/// status line, side by side at the end of the tab's control row.
struct StudyControls
{
    QPushButton* run = nullptr;
    QPushButton* cancel = nullptr;
    QProgressBar* progress = nullptr;
    QLabel* status = nullptr;

    /// Adds the two columns to @p row; the widgets get the object names @p prefix followed by
    /// @p runName, "Cancel", "Progress" and "Status" (what the tests and the screenshots tool find).
    static StudyControls addTo(QHBoxLayout* row, const QString& runText, const QString& prefix, const QString& runName);

    /// While @p running, Cancel is enabled and the bar is busy until @p poll (which the tab's
    /// progress polling runs on) gives it a count; @p poll runs only then.
    void setRunning(bool running, QTimer* poll) const;
    /// Tells a running study (@p cancelFlag of its job) to stop, and says so in the status line.
    template <typename Flag>
    void requestCancel(Flag& cancelFlag) const
    {
        cancelFlag = true;
        sayCancelling();
    }

private:
    void sayCancelling() const;
};

/// What a Plan tab shows when its study's @p job (ui/state/planjob.h) has ended: the bar full when
/// the job produced a result and was not cancelled (true: the tab takes job.result); otherwise the
/// bar empty, @p status saying it was cancelled (@p cancelledText) or failed (@p failedText, %1 the
/// error), and false.
template <typename Job>
bool showStudyEnd(const Job& job, QProgressBar* progress, QLabel* status, const QString& cancelledText,
                  const QString& failedText)
{
    const bool produced = job.result && !job.cancel;
    progress->setRange(0, 1);
    progress->setValue(produced ? 1 : 0);
    if (!produced)
        status->setText(job.cancelled || job.cancel ? cancelledText : failedText.arg(job.error));
    return produced;
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "playback.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QSlider;
class QSpinBox;
class QThread;
class QTimer;
class QToolButton;

namespace ui {

class Workspace;

/// Draws one moment of a playback (paintPlayback) in a widget.
class PlaybackCanvas : public QWidget
{
    Q_OBJECT

public:
    explicit PlaybackCanvas(QWidget* parent = nullptr);
    void setPlayback(std::shared_ptr<const model::Playback> playback, const model::PlaybackState* state);
    [[nodiscard]] QSize minimumSizeHint() const override { return {560, 260}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::shared_ptr<const model::Playback> m_playback;
    const model::PlaybackState* m_state = nullptr;
};

/// The Playback page: any run of the workspace re-simulated with explanations on, stepped event by
/// event (forward, back, play at a chosen speed, jump to a time). The fleet with the job on every
/// instance and the queue in the scheduler's order on top; below, the decisions of the current
/// step in the policies' own words. Exports the playback as numbered PNG frames.
class PlaybackPage : public QWidget
{
    Q_OBJECT

public:
    explicit PlaybackPage(Workspace* workspace, QWidget* parent = nullptr);
    ~PlaybackPage() override;

    [[nodiscard]] std::shared_ptr<const model::Playback> playback() const { return m_playback; }
    [[nodiscard]] int currentStep() const { return m_state.step; }
    [[nodiscard]] const model::PlaybackState& state() const { return m_state; }
    [[nodiscard]] QString explanationText() const;
    [[nodiscard]] PlaybackCanvas* canvas() const { return m_canvas; }
    [[nodiscard]] bool isPlaying() const;
    /// Shows an already recorded playback (tests, benchmarks).
    void setPlayback(std::shared_ptr<const model::Playback> playback);

public slots:
    void stepForward();
    void stepBack();
    void goToStep(int step);
    /// Jumps to the next step with a failure (or maintenance stop); stays when there is none.
    void nextFault();
    /// Jumps to the last step at or before @p minutes.
    void jumpToTime(double minutes);
    void play();
    void pause();
    /// Steps per second while playing.
    void setSpeed(int stepsPerSecond);
    /// Asks for a folder and writes the frames from now to the end (at most 300) as PNGs.
    void exportFrames();

protected:
    /// The first time the page is shown, the first run is recorded (recording costs a run).
    void showEvent(QShowEvent* event) override;

signals:
    /// The playback time changed (minutes), e.g. for the Compare page's cursor.
    void timeChanged(double minutes);
    /// A picked run's playback is recorded and shown.
    void playbackReady();

private:
    QWidget* createControls();
    void connectSignals();
    void refreshRuns();
    /// Forgets the shown playback (its scenario was replaced or edited); the next run is recorded.
    void dropPlayback();
    void record();
    void onRecorded(int request, std::shared_ptr<const model::Playback> playback, const QString& error);
    void showState();

    Workspace* m_workspace;
    QComboBox* m_run = nullptr;
    QToolButton* m_start = nullptr;
    QToolButton* m_back = nullptr;
    QToolButton* m_play = nullptr;
    QToolButton* m_forward = nullptr;
    QToolButton* m_end = nullptr;
    QToolButton* m_nextFault = nullptr;
    QSpinBox* m_speed = nullptr;
    QSlider* m_slider = nullptr;
    QDoubleSpinBox* m_time = nullptr;
    QLabel* m_status = nullptr;
    PlaybackCanvas* m_canvas = nullptr;
    QPlainTextEdit* m_explain = nullptr;
    QTimer* m_timer = nullptr;
    QThread* m_thread = nullptr;
    int m_request = 0;
    bool m_recording = false; ///< the newest request is being recorded
    std::shared_ptr<const model::Playback> m_playback;
    model::PlaybackState m_state;
};

} // namespace ui

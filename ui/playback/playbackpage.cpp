// SPDX-License-Identifier: GPL-3.0-or-later
#include "playbackpage.h"

#include "playbackexport.h"
#include "playbackpainter.h"
#include "workspace.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace ui {

PlaybackCanvas::PlaybackCanvas(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("playbackCanvas"));
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void PlaybackCanvas::setPlayback(std::shared_ptr<const model::Playback> playback, const model::PlaybackState* state)
{
    m_playback = std::move(playback);
    m_state = state;
    update();
}

void PlaybackCanvas::paintEvent(QPaintEvent* /*event*/)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (!m_playback || m_state == nullptr) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("Pick a run to play it back step by step."));
        return;
    }
    paintPlayback(painter, QRectF(rect()).adjusted(10, 8, -10, -8), *m_playback, *m_state, font(),
                  palette().color(QPalette::Base));
}

PlaybackPage::PlaybackPage(Workspace* workspace, QWidget* parent)
    : QWidget(parent), m_workspace(workspace), m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("playbackPage"));
    m_timer->setTimerType(Qt::PreciseTimer);
    m_canvas = new PlaybackCanvas;
    m_explain = new QPlainTextEdit;
    m_explain->setObjectName(QStringLiteral("playbackExplanation"));
    m_explain->setReadOnly(true);
    m_explain->setPlaceholderText(tr("The decisions of the current step, in the policies' own words."));
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_canvas);
    split->addWidget(m_explain);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(createControls());
    layout->addWidget(split, 1);
    setSpeed(10);
    connectSignals();
    refreshRuns();
}

PlaybackPage::~PlaybackPage()
{
    if (m_thread != nullptr) {
        m_thread->wait();
        delete m_thread;
    }
}

QWidget* PlaybackPage::createControls()
{
    // Two rows (run and transport; time and export): one row kept the window 1,100 px wide.
    auto* bar = new QWidget;
    auto* rows = new QVBoxLayout(bar);
    rows->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    auto* timeRow = new QHBoxLayout;
    rows->addLayout(row);
    rows->addLayout(timeRow);
    m_run = new QComboBox;
    m_run->setObjectName(QStringLiteral("playbackRun"));
    m_run->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_run->setMinimumContentsLength(24); // longer run names are elided; the list shows them whole
    row->addWidget(new QLabel(tr("Run:")));
    row->addWidget(m_run);
    QHBoxLayout* target = row;
    auto button = [&](const QString& text, const QString& tip, const char* name) {
        auto* b = new QToolButton;
        b->setText(text);
        b->setToolTip(tip);
        b->setObjectName(QLatin1String(name));
        target->addWidget(b);
        return b;
    };
    m_start = button(tr("|◀ Start"), tr("Back to the start"), "playbackStart");
    m_back = button(tr("◀ Back"), tr("One event back"), "playbackBack");
    m_play = button(tr("▶ Play"), tr("Play / pause"), "playbackPlay");
    m_forward = button(tr("Step ▶"), tr("One event forward"), "playbackForward");
    m_end = button(tr("End ▶|"), tr("To the last event"), "playbackEnd");
    m_speed = new QSpinBox;
    m_speed->setObjectName(QStringLiteral("playbackSpeed"));
    m_speed->setRange(1, 240);
    m_speed->setSuffix(tr(" steps/s"));
    row->addWidget(m_speed);
    row->addStretch(1);
    target = timeRow;
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setObjectName(QStringLiteral("playbackSlider"));
    m_slider->setMinimumWidth(160);
    timeRow->addWidget(m_slider, 1);
    m_time = new QDoubleSpinBox;
    m_time->setObjectName(QStringLiteral("playbackTime"));
    m_time->setSuffix(tr(" min"));
    m_time->setDecimals(2);
    m_time->setKeyboardTracking(false);
    m_time->setToolTip(tr("Jump to a time (minutes from the start)"));
    timeRow->addWidget(m_time);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("playbackStatus"));
    timeRow->addWidget(m_status);
    m_nextFault = button(tr("Next failure ▶"), tr("To the next GPU or instance failure (or maintenance stop)"),
                         "playbackNextFault");
    m_nextFault->setEnabled(false);
    auto* exportButton =
        button(tr("Export PNGs…"), tr("Write the frames from here to the end as numbered PNGs"), "playbackExport");
    connect(exportButton, &QToolButton::clicked, this, &PlaybackPage::exportFrames);
    return bar;
}

void PlaybackPage::connectSignals()
{
    connect(m_start, &QToolButton::clicked, this, [this] { goToStep(-1); });
    connect(m_nextFault, &QToolButton::clicked, this, &PlaybackPage::nextFault);
    connect(m_back, &QToolButton::clicked, this, &PlaybackPage::stepBack);
    connect(m_forward, &QToolButton::clicked, this, &PlaybackPage::stepForward);
    connect(m_end, &QToolButton::clicked, this, [this] { goToStep(m_playback ? m_playback->stepCount() - 1 : -1); });
    connect(m_play, &QToolButton::clicked, this, [this] { isPlaying() ? pause() : play(); });
    connect(m_speed, &QSpinBox::valueChanged, this, &PlaybackPage::setSpeed);
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) { jumpToTime(v / 10.0); });
    connect(m_time, &QDoubleSpinBox::valueChanged, this, &PlaybackPage::jumpToTime);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (!m_playback || m_state.step + 1 >= m_playback->stepCount()) {
            pause();
            return;
        }
        stepForward();
    });
    connect(m_run, &QComboBox::activated, this, &PlaybackPage::record);
    connect(m_workspace, &Workspace::runsChanged, this, &PlaybackPage::refreshRuns);
    // Another file (or an edit) makes the shown playback a run of a scenario that is gone.
    connect(m_workspace, &Workspace::scenarioChanged, this, &PlaybackPage::dropPlayback);
    connect(m_workspace, &Workspace::runFinished, this, [this] {
        const bool first = !m_playback;
        refreshRuns();
        if (first && m_run->count() > 0 && isVisible())
            record();
    });
}

void PlaybackPage::dropPlayback()
{
    if (!m_playback && !m_recording)
        return;
    pause();
    ++m_request; // a recording in flight is of the old scenario: its result is dropped
    m_recording = false;
    m_playback.reset();
    m_state = {};
    m_canvas->setPlayback(nullptr, nullptr);
    showState();
    m_status->setText(tr("Waiting for the new run…"));
    refreshRuns();
}

void PlaybackPage::refreshRuns()
{
    const QVariant current = m_run->currentData();
    m_run->clear();
    if (const auto& last = m_workspace->lastRun())
        m_run->addItem(
            tr("Scenario: %1 / %2")
                .arg(QString::fromStdString(last->scheduler.id), QString::fromStdString(last->repartitioner.id)),
            -1);
    for (const auto& spec : m_workspace->runs()) {
        if (spec.latest)
            m_run->addItem(spec.label(), spec.key);
    }
    const int at = m_run->findData(current);
    m_run->setCurrentIndex(at >= 0 ? at : 0);
}

void PlaybackPage::record()
{
    pause();
    std::optional<RunSnapshot> snapshot;
    const int key = m_run->currentData().toInt();
    if (key == -1)
        snapshot = m_workspace->lastRun();
    else if (const RunSpec* spec = m_workspace->runSpec(key))
        snapshot = spec->latest;
    if (!snapshot)
        return;
    const int request = ++m_request;
    m_recording = true;
    if (m_thread != nullptr) {
        m_thread->wait();
        delete m_thread;
    }
    m_status->setText(tr("Recording…"));
    const auto scenario = snapshot->scenario;
    model::RunOptions options;
    options.scheduler = snapshot->scheduler;
    options.repartitioner = snapshot->repartitioner;
    options.timeSeries = false;
    m_thread = QThread::create([this, request, scenario, options] {
        std::shared_ptr<const model::Playback> pb;
        QString error;
        try {
            model::Problems problems;
            pb = model::Playback::record(scenario, model::scenarioJobs(*scenario, std::nullopt, problems), options);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            this, [this, request, pb, error] { onRecorded(request, pb, error); }, Qt::QueuedConnection);
    });
    m_thread->start();
}

void PlaybackPage::onRecorded(int request, std::shared_ptr<const model::Playback> playback, const QString& error)
{
    if (request != m_request)
        return; // a newer pick is on its way
    m_recording = false;
    if (!playback) {
        m_status->setText(tr("Failed: %1").arg(error));
        return;
    }
    setPlayback(std::move(playback));
}

void PlaybackPage::setPlayback(std::shared_ptr<const model::Playback> playback)
{
    pause();
    m_playback = std::move(playback);
    m_state = m_playback->stateAt(-1);
    const double end = m_playback->stepCount() > 0 ? m_playback->step(m_playback->stepCount() - 1).time : 0.0;
    m_slider->blockSignals(true);
    m_slider->setRange(0, static_cast<int>(std::ceil(end * 10.0)));
    m_slider->blockSignals(false);
    m_time->blockSignals(true);
    m_time->setRange(0.0, end);
    m_time->blockSignals(false);
    m_canvas->setPlayback(m_playback, &m_state);
    m_nextFault->setEnabled(!m_playback->result().faults.empty());
    showState();
    emit playbackReady();
}

void PlaybackPage::nextFault()
{
    if (!m_playback)
        return;
    for (int i = m_state.step + 1; i < m_playback->stepCount(); ++i)
        if (!m_playback->step(i).faults.empty()) {
            goToStep(i);
            return;
        }
}

void PlaybackPage::stepForward()
{
    if (!m_playback || m_state.step + 1 >= m_playback->stepCount())
        return;
    m_playback->advance(m_state);
    showState();
}

void PlaybackPage::stepBack()
{
    if (m_playback && m_state.step >= 0)
        goToStep(m_state.step - 1);
}

void PlaybackPage::goToStep(int step)
{
    if (!m_playback)
        return;
    m_state = m_playback->stateAt(step);
    showState();
}

void PlaybackPage::jumpToTime(double minutes)
{
    if (!m_playback)
        return;
    const int step = m_playback->stepAtTime(minutes + 1e-9);
    if (step != m_state.step)
        goToStep(step);
}

bool PlaybackPage::isPlaying() const
{
    return m_timer->isActive();
}

void PlaybackPage::play()
{
    if (!m_playback)
        return;
    if (m_state.step + 1 >= m_playback->stepCount())
        goToStep(-1);
    m_timer->start();
    m_play->setText(tr("|| Pause"));
}

void PlaybackPage::pause()
{
    m_timer->stop();
    m_play->setText(tr("▶ Play"));
}

void PlaybackPage::setSpeed(int stepsPerSecond)
{
    if (m_speed->value() != stepsPerSecond)
        m_speed->setValue(stepsPerSecond);
    m_timer->setInterval(std::max(1, qRound(1000.0 / std::max(1, stepsPerSecond))));
}

void PlaybackPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!m_playback && !m_recording && m_run->count() > 0)
        record();
}

QString PlaybackPage::explanationText() const
{
    return m_explain->toPlainText();
}

void PlaybackPage::showState()
{
    const int count = m_playback ? m_playback->stepCount() : 0;
    QStringList lines;
    if (m_state.step < 0) {
        lines << tr("Before the first event: every GPU in its initial layout. Step forward or press Play.");
    } else {
        const auto& s = m_playback->step(m_state.step);
        lines << tr("Step %1 of %2 at %3: %4 running, %5 waiting, %6 completed")
                     .arg(m_state.step + 1)
                     .arg(count)
                     .arg(playbackClock(s.time))
                     .arg(s.summary.running)
                     .arg(s.summary.queued)
                     .arg(s.summary.completed);
        for (const auto& line : m_playback->describe(m_state.step))
            lines << QStringLiteral("• ") + QString::fromStdString(line);
    }
    m_explain->setPlainText(lines.join(QLatin1Char('\n')));
    m_slider->blockSignals(true);
    m_slider->setValue(static_cast<int>(std::floor(m_state.time * 10.0)));
    m_slider->blockSignals(false);
    m_time->blockSignals(true);
    m_time->setValue(m_state.time);
    m_time->blockSignals(false);
    m_status->setText(tr("%1 · step %2/%3").arg(playbackClock(m_state.time)).arg(m_state.step + 1).arg(count));
    m_canvas->update();
    emit timeChanged(m_state.time);
}

void PlaybackPage::exportFrames()
{
    if (!m_playback)
        return;
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export playback frames to"));
    if (dir.isEmpty())
        return;
    const double from = m_state.time;
    const double to = m_playback->step(m_playback->stepCount() - 1).time;
    QString error;
    const int n = writePlaybackFrames(*m_playback, framesBetween(*m_playback, from, to, 300), dir, {1280, 800}, &error);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), error);
    else
        m_status->setText(tr("Wrote %1 frames").arg(n));
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessioncontroller.h"

#include "autosave.h"
#include "recentfiles.h"
#include "resources.h"
#include "result_json.h"
#include "scenario_writer.h"
#include "scenariofile.h"
#include "service_run.h"
#include "viewmenu.h"
#include "workspace.h"

#include <QAction>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSaveFile>
#include <QStatusBar>

namespace ui {

namespace {

bool isTrace(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("csv") || suffix == QLatin1String("txt");
}

bool isScenario(const QString& path)
{
    return QFileInfo(path).suffix().toLower() == QLatin1String("json");
}

QString droppedFile(const QMimeData* mime)
{
    if (mime == nullptr || !mime->hasUrls())
        return {};
    for (const QUrl& url : mime->urls()) {
        const QString path = url.toLocalFile();
        if (!path.isEmpty() && (isScenario(path) || isTrace(path) || isSessionFile(path)))
            return path;
    }
    return {};
}

/// Whether every metric of @p fresh has the same value in @p stored (which may hold more keys,
/// e.g. the scenario name migsight-cli adds). Numbers are written with round-trip precision, so
/// equal means bit for bit. A metric that @p stored lacks (written before that metric existed,
/// e.g. the churn figures) is not compared.
bool sameMetrics(const std::string& fresh, const std::string& stored)
{
    const QJsonObject a = QJsonDocument::fromJson(QByteArray::fromStdString(fresh)).object();
    const QJsonObject b = QJsonDocument::fromJson(QByteArray::fromStdString(stored)).object();
    for (auto it = a.begin(); it != a.end(); ++it)
        if (b.contains(it.key()) && b.value(it.key()) != it.value())
            return false;
    return !a.isEmpty();
}

QAction* addAction(QMenu* menu, const QString& text, QKeySequence::StandardKey key, const QString& tip)
{
    QAction* action = menu->addAction(text);
    action->setShortcut(key);
    action->setStatusTip(tip);
    action->setToolTip(tip);
    return action;
}

} // namespace

SessionController::SessionController(QMainWindow* window, Workspace* workspace)
    : QObject(window), m_window(window), m_workspace(workspace), m_recent(new RecentFiles(this))
{
    m_autosave = new Autosave(
        [this](const QString& path) {
            return saveSession(path, *m_workspace, false, m_isSession ? m_document : QString());
        },
        this);
    connect(m_autosave, &Autosave::failed, this,
            [this](const QString& e) { showStatus(tr("Autosave failed: %1").arg(e)); });
    connect(m_recent, &RecentFiles::openRequested, this, [this](const QString& path) {
        if (!QFileInfo::exists(path)) {
            m_recent->remove(path);
            QMessageBox::information(m_window, tr("Open Recent"),
                                     tr("%1 no longer exists; it was removed from the list.").arg(path));
            return;
        }
        openFile(path);
    });
    auto dirty = [this] { m_autosave->setDirty(m_workspace->isModified()); };
    connect(m_workspace, &Workspace::modifiedChanged, this, dirty);
    connect(m_workspace, &Workspace::scenarioEdited, this, dirty);
    connect(m_workspace, &Workspace::runsChanged, this, dirty);
    connect(m_workspace, &Workspace::runSpecChanged, this, &SessionController::checkRestored);
}

void SessionController::addFileActions(QMenu* file)
{
    connect(addAction(file, tr("&New"), QKeySequence::New, tr("Start a new session on the quick-start scenario")),
            &QAction::triggered, this, &SessionController::newSession);
    connect(addAction(file, tr("&Open…"), QKeySequence::Open,
                      tr("Open a session (.sqlite), a scenario (.json) or a trace to import (.csv)")),
            &QAction::triggered, this, &SessionController::openDialog);
    QMenu* recent = file->addMenu(tr("Open &Recent"));
    recent->setObjectName(QStringLiteral("recentMenu"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] { m_recent->populate(recent); });
    m_recent->populate(recent);
    file->addSeparator();
    QAction* save = addAction(file, tr("&Save"), QKeySequence::Save,
                              tr("Save the scenario, the runs and their results to the session file"));
    save->setObjectName(QStringLiteral("saveAction"));
    connect(save, &QAction::triggered, this, &SessionController::save);
    connect(addAction(file, tr("Save &As…"), QKeySequence::SaveAs, tr("Save the session to another file")),
            &QAction::triggered, this, &SessionController::saveAs);
}

QString SessionController::title() const
{
    const auto scenario = m_workspace->scenario();
    if (!scenario)
        return QStringLiteral("MIGsight");
    const QString file = m_document.isEmpty() ? tr("untitled") : QFileInfo(m_document).fileName();
    return tr("MIGsight — %1 — %2[*]").arg(QString::fromStdString(scenario->name), file);
}

void SessionController::setDocument(const QString& path, bool isSession)
{
    m_document = path;
    m_isSession = isSession;
    if (!path.isEmpty())
        m_recent->add(path);
    emit documentChanged();
}

void SessionController::showStatus(const QString& text, int ms)
{
    m_window->statusBar()->showMessage(text, ms);
}

bool SessionController::maybeSave()
{
    if (!m_workspace->isModified())
        return true;
    QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                    tr("The session %1 has changes that are not saved.")
                        .arg(m_document.isEmpty() ? tr("(untitled)") : QFileInfo(m_document).fileName()),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, m_window);
    box.setObjectName(QStringLiteral("discardPrompt"));
    box.setInformativeText(tr("Save them before going on?"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save:
        return save();
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

bool SessionController::newSession()
{
    if (!maybeSave())
        return false;
    LoadedScenario loaded = loadScenarioFile(defaultScenarioPath());
    if (!loaded.ok())
        return false;
    clearRuns();
    m_workspace->setScenario(std::move(loaded.scenario), defaultScenarioPath());
    m_autosave->setDirty(false);
    setDocument({}, false);
    showStatus(tr("New session on the quick-start scenario"));
    return true;
}

void SessionController::openDialog()
{
    const QString start = m_document.isEmpty() ? QString::fromStdString(model::samplesDir().string())
                                               : QFileInfo(m_document).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("Open"), start,
        tr("MIGsight files (*.sqlite *.sqlite3 *.json *.csv);;Sessions (*.sqlite *.sqlite3);;Scenarios (*.json);;"
           "Traces to import (*.csv *.txt);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

bool SessionController::openFile(const QString& path, bool ask)
{
    if (isTrace(path) && !isSessionFile(path)) {
        if (!m_workspace->scenario() || !m_importTrace) {
            showStatus(tr("Open a scenario before importing a trace"));
            return false;
        }
        return m_importTrace(path);
    }
    if (ask && !maybeSave())
        return false;
    return isSessionFile(path) ? openSession(path) : openScenario(path);
}

bool SessionController::openScenario(const QString& path)
{
    LoadedScenario loaded = loadScenarioFile(path);
    if (!loaded.ok()) {
        showProblems(path, problemsHtml(path, loaded.problems), problemsText(loaded.problems));
        showStatus(tr("Could not open %1").arg(QFileInfo(path).fileName()), 8000);
        return false;
    }
    m_workspace->setScenario(std::move(loaded.scenario), path);
    m_autosave->setDirty(false);
    setDocument(QFileInfo(path).absoluteFilePath(), false);
    return true;
}

bool SessionController::openSession(const QString& path)
{
    LoadedSession loaded = loadSession(path);
    if (!loaded.error.isEmpty()) {
        showProblems(path, QStringLiteral("<p>%1</p>").arg(loaded.error.toHtmlEscaped()), loaded.error);
        showStatus(tr("Could not open %1").arg(QFileInfo(path).fileName()), 8000);
        return false;
    }
    if (!loaded.problems.empty()) {
        showProblems(path, problemsHtml(path, loaded.problems), problemsText(loaded.problems));
        return false;
    }
    const QString studyWarning = loaded.state.studyWarning;
    restore(std::move(loaded.state));
    m_autosave->setDirty(false);
    setDocument(QFileInfo(path).absoluteFilePath(), true);
    if (studyWarning.isEmpty())
        showStatus(
            tr("Opened %1: %n run(s), recomputed from the stored settings", nullptr, int(m_workspace->runs().size()))
                .arg(QFileInfo(path).fileName()));
    else
        showStatus(studyWarning, 15000);
    return true;
}

void SessionController::clearRuns()
{
    m_workspace->cancelAll();
    while (!m_workspace->runs().empty())
        m_workspace->removeRun(m_workspace->runs().front().key);
    m_expected.clear();
}

void SessionController::restore(SessionState state)
{
    clearRuns();
    m_workspace->setScenario(std::move(state.scenario), state.scenarioPath);
    m_workspace->setVariants(std::move(state.variants));
    for (const SessionSpec& spec : state.specs)
        m_workspace->addRun(spec.scheduler, spec.repartitioner, spec.variant, spec.autoscaler);
    m_workspace->studies()->restore(std::move(state.staticSearch), std::move(state.dayPlan), std::move(state.sweep));
    if (!state.studyWarning.isEmpty())
        showStatus(state.studyWarning, 15000);
    watchRestoredRuns(state);
    m_workspace->setModified(false);
}

void SessionController::watchRestoredRuns(const SessionState& state)
{
    m_matched = m_mismatched = 0;
    for (size_t i = 0; i < state.specs.size() && i < m_workspace->runs().size(); ++i)
        if (!state.specs[i].storedMetrics.empty())
            m_expected[m_workspace->runs()[i].key] = state.specs[i].storedMetrics;
}

void SessionController::checkRestored(int key)
{
    const auto it = m_expected.find(key);
    const RunSpec* spec = m_workspace->runSpec(key);
    if (it == m_expected.end() || spec == nullptr || spec->running() || !spec->latest)
        return;
    // The services' figures and series are checked with the metrics (a run stored before they
    // were kept has none to compare: sameMetrics skips keys the stored text does not have).
    std::vector<std::pair<std::string, std::string>> extra;
    if (spec->latest->services)
        extra.emplace_back("services", model::serviceResultJson(*spec->latest->services, -1));
    const bool same = sameMetrics(model::metricsJson(*spec->latest->result, extra), it->second);
    m_expected.erase(it);
    (same ? m_matched : m_mismatched)++;
    if (!same)
        showStatus(tr("Run %1 re-ran to other results than those stored in the session (an input such as "
                      "the jobs file changed since it was saved); the new results are shown")
                       .arg(spec->label()),
                   15000);
}

bool SessionController::save()
{
    if (m_isSession && !m_document.isEmpty())
        return saveTo(m_document);
    return saveAs();
}

bool SessionController::saveAs()
{
    const QFileInfo current(m_document.isEmpty() ? QStringLiteral("untitled.sqlite") : m_document);
    const QString suggested = current.absoluteDir().filePath(current.completeBaseName() + QStringLiteral(".sqlite"));
    QString selected;
    QString path =
        QFileDialog::getSaveFileName(m_window, tr("Save session as"), suggested,
                                     tr("MIGsight sessions (*.sqlite);;Scenario only, no runs (*.json)"), &selected);
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += selected.contains(QLatin1String("*.json")) ? QStringLiteral(".json") : QStringLiteral(".sqlite");
    return saveTo(path);
}

bool SessionController::saveTo(const QString& path)
{
    const auto scenario = m_workspace->scenario();
    if (!scenario)
        return false;
    QString error;
    if (isScenario(path)) {
        QSaveFile out(path); // written aside and renamed: a failure keeps the old file
        out.open(QIODevice::WriteOnly);
        out.write(QByteArray::fromStdString(model::writeScenarioJson(*scenario)));
        if (!out.commit())
            error = tr("%1: %2; nothing was saved").arg(path, out.errorString());
    } else {
        const bool inPlace = m_isSession && QFileInfo(path) == QFileInfo(m_document);
        error = saveSession(path, *m_workspace, inPlace);
    }
    if (!error.isEmpty()) {
        QMessageBox box(QMessageBox::Critical, tr("Save failed"), error, QMessageBox::Ok, m_window);
        box.setObjectName(QStringLiteral("saveFailedBox"));
        box.exec();
        return false;
    }
    m_workspace->setModified(false);
    m_autosave->setDirty(false);
    setDocument(QFileInfo(path).absoluteFilePath(), !isScenario(path));
    showStatus(tr("Saved %1").arg(QFileInfo(path).fileName()));
    return true;
}

bool SessionController::offerRecovery()
{
    const QStringList files = Autosave::orphans();
    if (files.isEmpty())
        return false;
    const QFileInfo newest(files.front());
    QMessageBox box(QMessageBox::Question, tr("Recover unsaved work"),
                    tr("MIGsight did not exit cleanly. Unsaved work was autosaved at %1.")
                        .arg(QLocale().toString(newest.lastModified(), QLocale::ShortFormat)),
                    QMessageBox::NoButton, m_window);
    box.setObjectName(QStringLiteral("recoveryPrompt"));
    box.setInformativeText(tr("Restore it? Discarded work cannot be recovered later."));
    QPushButton* restoreButton = box.addButton(tr("&Restore"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Discard);
    box.setDefaultButton(restoreButton);
    box.exec();
    bool restored = false;
    if (box.clickedButton() == restoreButton) {
        LoadedSession loaded = loadSession(files.front());
        if (loaded.ok()) {
            const QString document = loaded.state.documentPath;
            restore(std::move(loaded.state));
            setDocument(document, !document.isEmpty());
            m_workspace->setModified(true);
            m_autosave->setDirty(true);
            restored = true;
        } else {
            showProblems(files.front(), QStringLiteral("<p>%1</p>").arg(loaded.error.toHtmlEscaped()), loaded.error);
        }
    }
    for (const QString& file : files)
        QFile::remove(file);
    return restored;
}

bool SessionController::canOpen(const QMimeData* mime)
{
    return !droppedFile(mime).isEmpty();
}

bool SessionController::openDropped(const QMimeData* mime)
{
    const QString path = droppedFile(mime);
    return !path.isEmpty() && openFile(path);
}

void SessionController::showProblems(const QString& path, const QString& html, const QString& details)
{
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot open %1").arg(QFileInfo(path).fileName()), html,
                                QMessageBox::Close, m_window);
    box->setObjectName(QStringLiteral("problemsBox"));
    box->setTextFormat(Qt::RichText);
    box->setDetailedText(details); // plain text, easy to copy into a bug report or an editor
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void SessionController::shutdown()
{
    saveWindowState();
    m_autosave->discard();
}

void SessionController::saveWindowState()
{
    ui::saveWindowState(m_window);
}

void SessionController::restoreWindowState()
{
    ui::restoreWindowState(m_window);
}

} // namespace ui

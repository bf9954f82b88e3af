// SPDX-License-Identifier: GPL-3.0-or-later
#include "reproducedialog.h"

#include "experimentwriter.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

namespace ui {

ReproduceDialog::ReproduceDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Reproduce the papers' figures"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Experiment (docs/reproducing-the-papers.md):")));
    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("experimentList"));
    for (const model::Experiment& e : model::experiments())
        m_list->addItem(QStringLiteral("%1 — %2").arg(QString::fromStdString(e.id), QString::fromStdString(e.title)));
    layout->addWidget(m_list);
    m_runs = new QLabel;
    m_runs->setWordWrap(true);
    layout->addWidget(m_runs);
    auto* folderRow = new QHBoxLayout;
    m_folder = new QLineEdit(QDir::home().filePath(QStringLiteral("migsight-figures")));
    auto* browseButton = new QPushButton(tr("Browse…"));
    folderRow->addWidget(new QLabel(tr("Folder:")));
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browseButton);
    layout->addLayout(folderRow);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    layout->addWidget(m_progress);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_run = buttons->addButton(tr("Run"), QDialogButtonBox::ActionRole);
    m_cancel = buttons->addButton(tr("Cancel run"), QDialogButtonBox::ActionRole);
    m_open = buttons->addButton(tr("Open folder"), QDialogButtonBox::ActionRole);
    layout->addWidget(buttons);
    m_poll = new QTimer(this);
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, &ReproduceDialog::showProgress);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0)
            m_runs->setText(
                tr("Runs: %1").arg(QString::fromStdString(model::experiments()[static_cast<size_t>(row)].runs)));
        updateButtons();
    });
    connect(browseButton, &QPushButton::clicked, this, &ReproduceDialog::browse);
    connect(m_run, &QPushButton::clicked, this, &ReproduceDialog::run);
    connect(m_cancel, &QPushButton::clicked, this, &ReproduceDialog::cancel);
    connect(m_open, &QPushButton::clicked, this,
            [this] { QDesktopServices::openUrl(QUrl::fromLocalFile(m_folder->text())); });
    connect(buttons, &QDialogButtonBox::rejected, this, &ReproduceDialog::reject);
    m_open->setEnabled(false);
    select(0);
    resize(720, 460);
}

ReproduceDialog::~ReproduceDialog()
{
    if (m_job)
        m_job->stopAndWait();
}

QString ReproduceDialog::statusText() const
{
    return m_status->text();
}

void ReproduceDialog::setFolder(const QString& folder)
{
    m_folder->setText(folder);
}

void ReproduceDialog::select(int row)
{
    m_list->setCurrentRow(row);
}

void ReproduceDialog::browse()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Folder for the figures"), m_folder->text());
    if (!folder.isEmpty())
        m_folder->setText(folder);
}

void ReproduceDialog::run()
{
    const int row = m_list->currentRow();
    if (m_job || row < 0)
        return;
    if (!QDir().mkpath(m_folder->text())) {
        m_status->setText(tr("Cannot create the folder %1.").arg(m_folder->text()));
        return;
    }
    m_running = &model::experiments()[static_cast<size_t>(row)];
    m_job = std::make_unique<PlanJob<model::ExperimentOutput>>();
    auto* job = m_job.get();
    const model::Experiment* experiment = m_running;
    job->start(
        this,
        [experiment, job](model::Problems&) {
            return model::runExperiment(
                *experiment, [job](std::size_t done, std::size_t total) { return job->keepGoing(done, total); },
                planThreads());
        },
        [this] { finished(); });
    m_status->setText(tr("Running %1…").arg(QString::fromStdString(experiment->id)));
    m_open->setEnabled(false);
    m_poll->start();
    updateButtons();
}

void ReproduceDialog::cancel()
{
    if (m_job)
        m_job->cancel = true;
}

void ReproduceDialog::reject()
{
    if (m_job) // closing while running: stop the run first
        m_job->stopAndWait();
    QDialog::reject();
}

void ReproduceDialog::showProgress()
{
    if (!m_job)
        return;
    const auto total = static_cast<int>(m_job->total.load());
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(static_cast<int>(m_job->done.load()));
}

void ReproduceDialog::finished()
{
    m_poll->stop();
    std::unique_ptr<PlanJob<model::ExperimentOutput>> job = std::move(m_job);
    job->release();
    const QString id = QString::fromStdString(m_running->id);
    if (job->cancelled) {
        m_status->setText(tr("%1 cancelled; nothing was written.").arg(id));
    } else if (!job->error.isEmpty() || !job->result) {
        m_status->setText(tr("%1 failed: %2").arg(id, job->error));
    } else {
        try {
            const ExperimentFiles files =
                writeExperimentFiles(m_running->id, *job->result, m_folder->text().toStdString());
            m_status->setText(tr("Wrote %1, %2 and %3.")
                                  .arg(QString::fromStdString(files.pdf.string()),
                                       QString::fromStdString(files.png.filename().string()),
                                       QString::fromStdString(files.csv.filename().string())));
            m_open->setEnabled(true);
        } catch (const std::exception& e) {
            m_status->setText(tr("%1: cannot write the files: %2").arg(id, QString::fromUtf8(e.what())));
        }
    }
    updateButtons();
}

void ReproduceDialog::updateButtons()
{
    m_run->setEnabled(!m_job && m_list->currentRow() >= 0);
    m_cancel->setEnabled(m_job != nullptr);
    m_list->setEnabled(!m_job);
}

} // namespace ui

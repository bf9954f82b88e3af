// SPDX-License-Identifier: GPL-3.0-or-later
#include "plansweeppanel.h"

#include "layouteditorcommands.h"
#include "planjob.h"
#include "planjobexport.h"
#include "simulation.h"
#include "studycontrols.h"
#include "sweep_checks.h"
#include "sweepfields.h"
#include "sweepview.h"
#include "workspace.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <atomic>
#include <stdexcept>

namespace ui {

/// The sweep on its worker thread (ui/planjob.h), with the scenario it sweeps.
struct SweepJob : PlanJob<model::SweepResult>
{
    std::shared_ptr<const model::Scenario> scenario;
};

namespace {

/// A field's text without spaces: "1, 2" reads as "1,2".
std::string compact(const QLineEdit* edit)
{
    QString text = edit->text();
    text.remove(QLatin1Char(' '));
    return text.toStdString();
}

} // namespace

PlanSweepPanel::PlanSweepPanel(Workspace* workspace, QUndoStack* undo, QWidget* parent)
    : QWidget(parent), m_workspace(workspace), m_undo(undo), m_poll(new QTimer(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(createFields());
    top->addWidget(createActions(), 1);
    layout->addLayout(top);
    m_view = new SweepView;
    m_view->setObjectName(QStringLiteral("planSweepView"));
    m_view->setVisible(false); // until the first sweep
    layout->addWidget(m_view, 1);
    layout->addStretch(0);

    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, &PlanSweepPanel::pollProgress);
    connect(m_run, &QPushButton::clicked, this, [this] { startSweep(); });
    connect(m_cancel, &QPushButton::clicked, this, &PlanSweepPanel::cancelSweep);
    connect(m_apply, &QPushButton::clicked, this, [this] { applyAnswer(); });
    connect(m_export, &QPushButton::clicked, this, [this] {
        if (auto spec = jobSpec()) {
            const QString message = askAndWriteJobFolder(this, *m_workspace->scenario(), *spec);
            if (!message.isEmpty())
                m_status->setText(message);
        }
    });
    // The load, metric and limit shown are read from the result: changing them re-shows, never re-runs.
    connect(m_shownLoad, &QComboBox::currentIndexChanged, this, [this] { showResult(); });
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this] { showResult(); });
    connect(m_limit, &QDoubleSpinBox::valueChanged, this, [this] { showResult(); });
    connect(m_workspace, &Workspace::scenarioChanged, this, &PlanSweepPanel::updateStale);
    connect(m_workspace->studies(), &Studies::restored, this, &PlanSweepPanel::showStudy);
}

void PlanSweepPanel::showStudy()
{
    cancelSweep(); // a sweep still running belongs to the previous document
    const auto& study = m_workspace->studies()->sweep();
    m_result = study.result;
    m_swept = study.scenario;
    m_status->clear();
    // A stored sweep is a finished one: its bar full, as after a sweep run here (not "0%").
    m_progress->setRange(0, 1);
    m_progress->setValue(m_result ? 1 : 0);
    if (m_result) {
        m_gpus->setText(gpuCountsText(m_result->gpuCounts));
        QStringList loads;
        for (const double l : m_result->loads)
            loads << QString::number(l, 'g', 15);
        m_loads->setText(loads.join(QLatin1Char(',')));
        const bool oneToN = !m_result->seeds.empty() && m_result->seeds.front() == 1 &&
                            m_result->seeds.back() == m_result->seeds.size();
        if (oneToN) // the tab sweeps seeds 1..N
            m_seeds->setValue(static_cast<int>(m_result->seeds.size()));
        fillShownLoads();
        showResult();
        updateStale();
    } else {
        const QSignalBlocker block(m_shownLoad);
        m_shownLoad->clear();
        m_shownLoad->setEnabled(false);
        m_view->clear();
        m_apply->setEnabled(false);
    }
}

PlanSweepPanel::~PlanSweepPanel()
{
    if (m_job)
        m_job->stopAndWait();
}

QWidget* PlanSweepPanel::createFields()
{
    auto* box = new QWidget;
    auto* form = new QFormLayout(box);
    form->setContentsMargins(0, 0, 0, 0);
    auto edit = [&](const char* name, const QString& text, const QString& tip) {
        auto* e = new QLineEdit(text);
        e->setObjectName(QLatin1String(name));
        e->setToolTip(tip);
        e->setMinimumWidth(180);
        return e;
    };
    m_gpus = edit("planSweepGpus", QStringLiteral("1-32"), tr("Fleet sizes: counts and ranges, e.g. 1-32 or 4,8,16"));
    form->addRow(tr("GPU counts:"), m_gpus);
    m_loads = edit("planSweepLoads", QStringLiteral("0.5,1,1.5,2,3"),
                   tr("Multipliers of the scenario's arrival rate, comma separated"));
    form->addRow(tr("Loads:"), m_loads);
    m_boards = edit("planSweepBoards", QString(), tr("Catalog boards, comma separated; empty: the scenario's board"));
    m_boards->setPlaceholderText(tr("the scenario's board"));
    form->addRow(tr("Boards:"), m_boards);
    m_seeds = new QSpinBox;
    m_seeds->setObjectName(QStringLiteral("planSweepSeeds"));
    m_seeds->setRange(1, 100);
    m_seeds->setValue(1);
    m_seeds->setMaximumWidth(90);
    m_seeds->setToolTip(tr("Days (seeds 1..N) every cell is simulated on; the chart shows their mean"));
    form->addRow(tr("Seeds:"), m_seeds);
    auto* target = new QHBoxLayout;
    m_metric = new QComboBox;
    m_metric->setObjectName(QStringLiteral("planSweepMetric"));
    m_metric->addItem(tr("average tardiness"), int(model::TardinessMetric::Average));
    m_metric->addItem(tr("p95 tardiness"), int(model::TardinessMetric::P95));
    m_limit = new QDoubleSpinBox;
    m_limit->setObjectName(QStringLiteral("planSweepLimit"));
    m_limit->setRange(0.0, 1440.0);
    m_limit->setDecimals(1);
    m_limit->setValue(5.0);
    m_limit->setSuffix(tr(" min"));
    m_limit->setToolTip(tr("The fewest GPUs whose mean tardiness over the seeds is at most this"));
    target->addWidget(m_metric);
    target->addWidget(new QLabel(QStringLiteral("≤")));
    target->addWidget(m_limit);
    form->addRow(tr("Target:"), target);
    return box;
}

QWidget* PlanSweepPanel::createActions()
{
    auto* box = new QWidget;
    auto* column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(tr("Run sweep"));
    m_run->setObjectName(QStringLiteral("planSweepRun"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("planSweepCancel"));
    m_cancel->setEnabled(false);
    m_shownLoad = new QComboBox;
    m_shownLoad->setObjectName(QStringLiteral("planSweepShownLoad"));
    m_shownLoad->setToolTip(tr("The load the chart and the answer are for (from the last sweep)"));
    m_shownLoad->setEnabled(false);
    m_shownLoad->setMinimumContentsLength(6);
    m_apply = new QPushButton(tr("Apply fleet size"));
    m_apply->setObjectName(QStringLiteral("planSweepApply"));
    m_apply->setToolTip(tr("Replace the scenario's fleet by the fewest GPUs that meet the target at the shown "
                           "load, as the sweep simulated them (Edit > Undo takes it back)"));
    m_apply->setEnabled(false);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addSpacing(12);
    buttons->addWidget(new QLabel(tr("Show load:")));
    buttons->addWidget(m_shownLoad);
    buttons->addStretch(1);
    column->addLayout(buttons);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    column->addWidget(m_progress);
    m_status = new QLabel(tr("Sweep the fleet's size to see how many GPUs meet the target and what each extra "
                             "GPU costs in energy (docs/planning.md, \"Sizing a fleet\")."));
    m_status->setObjectName(QStringLiteral("planSweepStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(m_status);
    // Its own row: the button names the answer ("Apply 10 × H100-80GB"), so its width varies.
    m_export = new QPushButton(tr("Export as cluster job folder…"));
    m_export->setObjectName(QStringLiteral("planSweepExport"));
    m_export->setToolTip(tr("Write this sweep as a Slurm job folder (scenario, commands, an array job of shards and "
                            "their merge) to run on a cluster; its session opens here with the sweep"));
    auto* applyRow = new QHBoxLayout;
    applyRow->addWidget(m_apply);
    applyRow->addStretch(1);
    applyRow->addWidget(m_export);
    column->addLayout(applyRow);
    column->addStretch(1);
    return box;
}

model::TardinessTarget PlanSweepPanel::target() const
{
    return {static_cast<model::TardinessMetric>(m_metric->currentData().toInt()), m_limit->value()};
}

std::optional<model::SweepOptions> PlanSweepPanel::readOptions()
{
    const auto scenario = m_workspace->scenario();
    model::SweepOptions o;
    // Each field is read on its own so that the message names the field it is about.
    auto read = [&](const QString& field, auto parse) {
        try {
            parse();
            return true;
        } catch (const std::invalid_argument& e) {
            m_status->setText(tr("%1: %2").arg(field, QString::fromStdString(e.what())));
            return false;
        }
    };
    const bool ok = read(tr("GPU counts"),
                         [&] {
                             o.gpuCounts = model::parseGpuCounts(compact(m_gpus));
                             if (model::hasDuplicates(o.gpuCounts))
                                 throw std::invalid_argument("a GPU count is given twice");
                         }) &&
                    read(tr("Loads"),
                         [&] {
                             o.loads = model::parseLoads(compact(m_loads));
                             if (model::hasDuplicates(o.loads))
                                 throw std::invalid_argument("a load is given twice");
                             checkSweepLoads(*scenario, o.loads);
                         }) &&
                    read(tr("Boards"), [&] { o.boards = parseSweepBoards(m_boards->text(), *scenario); });
    if (!ok)
        return std::nullopt;
    o.seeds.clear();
    for (int s = 1; s <= m_seeds->value(); ++s)
        o.seeds.push_back(static_cast<std::uint64_t>(s));
    return o;
}

std::optional<model::JobFolderSpec> PlanSweepPanel::jobSpec()
{
    if (!m_workspace->scenario())
        return std::nullopt;
    const auto o = readOptions(); // a bad field is named in the status line
    if (!o)
        return std::nullopt;
    const auto one = std::find(o->loads.begin(), o->loads.end(), 1.0);
    return sweepJobSpec(*o, target(), one != o->loads.end() ? 1.0 : o->loads.front());
}

bool PlanSweepPanel::exportJobFolder(const QString& dir, unsigned shards)
{
    auto spec = jobSpec();
    if (!spec)
        return false;
    spec->shards = shards;
    m_status->setText(writeJobFolderTo(dir, *m_workspace->scenario(), *spec));
    return QFileInfo(dir).isDir() && !m_status->text().startsWith(tr("No job folder"));
}

bool PlanSweepPanel::isSweeping() const
{
    return m_job != nullptr;
}

bool PlanSweepPanel::startSweep()
{
    const auto scenario = m_workspace->scenario();
    if (isSweeping() || !scenario)
        return false;
    auto options = readOptions();
    if (!options)
        return false;
    auto job = std::make_shared<SweepJob>();
    auto& o = *options;
    o.threads = planThreads();
    o.progress = [job = job.get()](size_t done, size_t total) { return job->keepGoing(done, total); };
    job->scenario = scenario;
    m_job = job;
    setSweeping(true);
    m_status->setText(tr("Preparing the fleets and days…"));
    job->start(
        this, [scenario, o](model::Problems& problems) { return model::runSweep(*scenario, o, problems); },
        &PlanSweepPanel::onFinished);
    return true;
}

void PlanSweepPanel::cancelSweep()
{
    if (m_job) {
        m_job->cancel = true;
        m_status->setText(tr("Cancelling…"));
    }
}

void PlanSweepPanel::setSweeping(bool sweeping)
{
    m_run->setEnabled(!sweeping);
    m_cancel->setEnabled(sweeping);
    m_apply->setEnabled(!sweeping && answer().has_value());
    for (QWidget* w : std::initializer_list<QWidget*>{m_gpus, m_loads, m_boards, m_seeds})
        w->setEnabled(!sweeping);
    if (sweeping) {
        m_progress->setRange(0, 0); // busy until the first count
        m_poll->start();
    } else {
        m_poll->stop();
    }
}

void PlanSweepPanel::pollProgress()
{
    if (!m_job || m_job->total == 0 || m_job->cancel)
        return;
    const size_t total = m_job->total;
    const size_t done = std::min<size_t>(m_job->done, total);
    const QLocale locale;
    m_progress->setRange(0, 1000);
    m_progress->setValue(static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total)));
    m_status->setText(tr("%1 of %2 runs simulated (GPU count × load × board × seed)")
                          .arg(locale.toString(qulonglong(done)), locale.toString(qulonglong(total))));
}

void PlanSweepPanel::onFinished()
{
    auto job = std::move(m_job);
    job->release();
    setSweeping(false);
    if (showStudyEnd(*job, m_progress, m_status, tr("Sweep cancelled; the previous results (if any) are kept."),
                     tr("The sweep failed: %1"))) {
        m_result = std::move(job->result);
        m_swept = job->scenario;
        m_workspace->studies()->setSweep({m_result, m_swept});
        m_workspace->setModified(true); // the session keeps the study
        fillShownLoads();
        showResult();
        m_status->setText(tr("%1 cells × %2 seed(s) simulated, %3 engine events.")
                              .arg(m_result->cells.size())
                              .arg(m_result->seeds.size())
                              .arg(QLocale().toString(qulonglong(m_result->events))));
    }
    updateStale();
    emit sweepEnded();
}

void PlanSweepPanel::fillShownLoads()
{
    // Keep the load the user looked at when the new sweep has it; else load 1 when swept, else
    // the first load (as `sweep --at-load` does, docs/planning.md "Frontier and knee").
    const QVariant before = m_shownLoad->currentData();
    QSignalBlocker block(m_shownLoad);
    m_shownLoad->clear();
    for (double load : m_result->loads)
        m_shownLoad->addItem(QString::number(load), load);
    int i = before.isValid() ? m_shownLoad->findData(before) : -1;
    if (i < 0)
        i = std::max(0, m_shownLoad->findData(1.0));
    m_shownLoad->setCurrentIndex(i);
    m_shownLoad->setEnabled(true);
}

void PlanSweepPanel::showResult()
{
    if (!m_result || m_shownLoad->currentIndex() < 0)
        return;
    const auto t = target();
    m_view->setResult(*m_result, static_cast<size_t>(m_shownLoad->currentIndex()), t.metric, t);
    m_view->setVisible(true);
    updateApply();
}

std::optional<model::SizingAnswer> PlanSweepPanel::answer() const
{
    if (!m_result || m_shownLoad->currentIndex() < 0)
        return std::nullopt;
    const auto load = static_cast<size_t>(m_shownLoad->currentIndex());
    std::optional<model::SizingAnswer> best;
    for (size_t b = 0; b < m_result->boards.size(); ++b) {
        const auto a = model::fewestGpus(*m_result, b, load, target());
        if (a.gpus <= 0)
            continue;
        // Fewest GPUs first; between boards with as few, the one that used less energy.
        const double energy = m_result->cells[a.cell].energyWmin.mean;
        if (!best || a.gpus < best->gpus ||
            (a.gpus == best->gpus && energy < m_result->cells[best->cell].energyWmin.mean))
            best = a;
    }
    return best;
}

void PlanSweepPanel::updateApply()
{
    const auto a = answer();
    m_apply->setEnabled(!isSweeping() && a.has_value());
    m_apply->setText(a ? tr("Apply %1 × %2").arg(a->gpus).arg(QString::fromStdString(m_result->boards[a->board]))
                       : tr("Apply fleet size"));
}

bool PlanSweepPanel::applyAnswer()
{
    const auto scenario = m_workspace->scenario();
    const auto a = answer();
    if (!a || !scenario || isSweeping())
        return false;
    const std::string& board = m_result->boards[a->board];
    model::Scenario sized;
    try {
        // The very fleet the sweep simulated for this answer (docs/planning.md, "Sizing a fleet").
        sized = model::resizedFleet(*m_swept, board, a->gpus);
    } catch (const std::exception& e) {
        m_status->setText(tr("Cannot apply: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
    const QString what = tr("Apply %1 × %2").arg(a->gpus).arg(QString::fromStdString(board));
    m_undo->push(new FleetEditCommand(m_workspace, scenario->fleet, sized.fleet, what));
    m_status->setText(tr("The fleet is now %1 × %2, as the sweep simulated it (Edit > Undo takes it back).")
                          .arg(a->gpus)
                          .arg(QString::fromStdString(board)));
    return true;
}

void PlanSweepPanel::updateStale()
{
    if (!m_result || isSweeping())
        return;
    const auto scenario = m_workspace->scenario();
    if (scenario && !sameStudyInputs(*scenario, *m_swept))
        m_status->setText(tr("The scenario changed since this sweep: run it again to size the new one."));
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "plandaypanel.h"

#include "dayplanchart.h"
#include "planjob.h"
#include "scenario_writer.h"
#include "simulation.h"
#include "units.h"
#include "workspace.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QThread>
#include <QTimer>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <atomic>

namespace ui {

/// The plan on its worker thread (ui/planjob.h): done counts the planner's keepGoing questions,
/// one per simulation batch, and total is an upper bound of them (a refinement may stop early).
struct DayPlanJob : PlanJob<model::DayPlanResult>
{
    std::shared_ptr<const model::Scenario> scenario; ///< the scenario planned
};

namespace {

enum Column { Policy, Et, Energy, AvgTardiness, P95Tardiness, Reconfigurations, Columns };

/// One undoable change of the scenario's repartitioner. Only the repartitioner is swapped, so
/// fleet or workload edits made elsewhere in between are kept on undo and redo.
class RepartitionerEditCommand : public QUndoCommand
{
public:
    RepartitionerEditCommand(Workspace* workspace, model::PolicyChoice before, model::PolicyChoice after,
                             const QString& text)
        : m_workspace(workspace), m_before(std::move(before)), m_after(std::move(after))
    {
        setText(text);
    }
    void undo() override { apply(m_before, QCoreApplication::translate("ui::PlanDayPanel", "Undo %1").arg(text())); }
    void redo() override { apply(m_after, text()); }

private:
    void apply(const model::PolicyChoice& choice, const QString& what)
    {
        const auto current = m_workspace->scenario();
        if (!current)
            return;
        model::Scenario edited = *current;
        edited.repartitioner = choice;
        m_workspace->editScenario(std::move(edited), what);
    }

    Workspace* m_workspace;
    model::PolicyChoice m_before;
    model::PolicyChoice m_after;
};

/// keepGoing questions of a whole planDay() (see model/day_plan.cpp): one per day, one per
/// policy run, and in a refinement one per simulated (plan, day); the descent may stop early.
int expectedQuestions(const model::DayPlanOptions& o)
{
    const int k = static_cast<int>(o.seeds.size());
    int n = k + 1 + (o.baselines ? 4 : 0);
    if (o.refine > 0) {
        const int starts = 2 + std::min(k, 10); // mean day, first days, the static layout
        n += starts * k + o.refine * k + 2 * k + 3;
    }
    return n;
}

QDoubleSpinBox* numberBox(const char* name, double low, double high, double value, double step, int decimals,
                          const QString& tip)
{
    auto* box = new QDoubleSpinBox;
    box->setObjectName(QLatin1String(name));
    box->setRange(low, high);
    box->setDecimals(decimals);
    box->setSingleStep(step);
    box->setValue(value);
    box->setMaximumWidth(110);
    box->setToolTip(tip);
    return box;
}

} // namespace

QString PlanDayPanel::intro()
{
    return tr("Plan the day to see whether repartitioning through the day pays, and with which configuration mix "
              "in each period.");
}

PlanDayPanel::PlanDayPanel(Workspace* workspace, QUndoStack* undo, QWidget* parent)
    : QWidget(parent), m_workspace(workspace), m_undo(undo), m_poll(new QTimer(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(createControls());
    m_summary = new QLabel(intro());
    m_summary->setObjectName(QStringLiteral("dayPlanSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    m_table = new QTableWidget(0, Columns);
    m_table->setObjectName(QStringLiteral("dayPlanTable"));
    m_table->setHorizontalHeaderLabels({tr("Policy"), tr("ET (± 95% CI)"), tr("Energy (kWh)"),
                                        tr("Avg tardiness (min)"), tr("p95 tardiness (min)"), tr("Reconfigurations")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(m_table, 1);
    fitTableHeight();
    auto* chartRow = new QHBoxLayout;
    m_chartPlan = new QComboBox;
    m_chartPlan->setObjectName(QStringLiteral("dayPlanChartPlan"));
    m_chartPlan->addItem(tr("LP plan of seed 1's day"));
    m_chartPlan->addItem(tr("Refined plan (what Apply sets)"));
    m_chartPlan->setEnabled(false);
    m_chartPlan->setToolTip(tr("The plan charted, with a run of seed 1's day under it"));
    chartRow->addWidget(new QLabel(tr("Chart:")));
    chartRow->addWidget(m_chartPlan);
    chartRow->addStretch(1);
    layout->addLayout(chartRow);
    m_chart = new DayPlanChart;
    m_chart->setObjectName(QStringLiteral("dayPlanChart"));
    layout->addWidget(m_chart, 1);
    auto* buttons = new QHBoxLayout;
    m_apply = new QPushButton(tr("Apply plan as repartitioner"));
    m_apply->setObjectName(QStringLiteral("dayPlanApply"));
    m_apply->setToolTip(tr("Set the scenario's repartitioner to fluid-plan with these settings (the refined "
                           "plan when refined); Edit > Undo takes it back"));
    m_apply->setEnabled(false);
    buttons->addStretch(1);
    buttons->addWidget(m_apply);
    layout->addLayout(buttons);

    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, &PlanDayPanel::pollProgress);
    connect(m_run, &QPushButton::clicked, this, [this] { startPlan(); });
    connect(m_controls.cancel, &QPushButton::clicked, this, &PlanDayPanel::cancelPlan);
    connect(m_apply, &QPushButton::clicked, this, [this] { applyPlan(); });
    connect(m_chartPlan, &QComboBox::currentIndexChanged, this, &PlanDayPanel::showChart);
    connect(m_workspace, &Workspace::scenarioChanged, this, &PlanDayPanel::updateStale);
    connect(m_workspace->studies(), &Studies::restored, this, &PlanDayPanel::showStudy);
}

void PlanDayPanel::showStudy()
{
    cancelPlan(); // a plan still being made belongs to the previous document
    const auto& study = m_workspace->studies()->dayPlan();
    m_result = study.result;
    m_planned = study.scenario;
    m_table->setRowCount(0);
    m_status->clear();
    if (m_result) {
        showResult();
        updateStale();
    } else {
        m_summary->setText(intro());
        m_chart->setPlan({}, {}, {}, 60.0);
    }
    m_apply->setEnabled(!isPlanning() && m_result != nullptr);
}

PlanDayPanel::~PlanDayPanel()
{
    if (m_job)
        m_job->stopAndWait();
}

QWidget* PlanDayPanel::createControls()
{
    auto* box = new QWidget;
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    auto* form = new QFormLayout;
    m_period = numberBox("dayPlanPeriod", 5.0, 1440.0, 60.0, 5.0, 0, tr("Length of a planning period"));
    m_period->setSuffix(tr(" min"));
    form->addRow(tr("Period:"), m_period);
    m_horizon = numberBox("dayPlanHorizon", 1.0, 168.0, 24.0, 1.0, 0,
                          tr("Hours planned; after them the last "
                             "period's mix stays"));
    m_horizon->setSuffix(tr(" h"));
    form->addRow(tr("Horizon:"), m_horizon);
    m_weight = numberBox("dayPlanWeight", 0.0, 1.0, 0.5, 0.05, 2,
                         tr("The planner's energy weight a: 0 plans for tardiness only, 1 for energy only"));
    form->addRow(tr("Energy weight a:"), m_weight);
    auto* second = new QFormLayout;
    m_seeds = new QSpinBox;
    m_seeds->setObjectName(QStringLiteral("dayPlanSeeds"));
    m_seeds->setRange(1, 100);
    m_seeds->setValue(3);
    m_seeds->setMaximumWidth(90);
    m_seeds->setToolTip(tr("Days (seeds 1..N) every policy is scored over; more seeds give an interval"));
    second->addRow(tr("Seeds:"), m_seeds);
    m_refine = new QSpinBox;
    m_refine->setObjectName(QStringLiteral("dayPlanRefine"));
    m_refine->setRange(0, 100000);
    m_refine->setValue(0);
    m_refine->setSpecialValueText(tr("none"));
    m_refine->setMaximumWidth(90);
    m_refine->setToolTip(tr("Candidate plans the refinement by simulation may try (0: no refinement); the "
                            "refined plan is checked on as many unseen seeds"));
    second->addRow(tr("Refine budget:"), m_refine);
    row->addLayout(form);
    row->addLayout(second);
    m_controls = StudyControls::addTo(row, tr("Plan the day"), QStringLiteral("dayPlan"), QStringLiteral("Run"));
    m_run = m_controls.run;
    m_progress = m_controls.progress;
    m_status = m_controls.status;
    return box;
}

bool PlanDayPanel::isPlanning() const
{
    return m_job != nullptr;
}

bool PlanDayPanel::startPlan()
{
    const auto scenario = m_workspace->scenario();
    if (isPlanning() || !scenario)
        return false;
    auto job = std::make_shared<DayPlanJob>();
    model::DayPlanOptions o;
    o.periodMin = m_period->value();
    o.horizonH = m_horizon->value();
    o.a = m_weight->value();
    o.seeds.clear();
    for (int s = 1; s <= m_seeds->value(); ++s)
        o.seeds.push_back(static_cast<std::uint64_t>(s));
    o.refine = m_refine->value();
    o.threads = planThreads();
    o.keepGoing = [job = job.get()] {
        ++job->done;
        return !job->cancel.load();
    };
    job->total = static_cast<size_t>(expectedQuestions(o));
    m_job = job;
    job->scenario = scenario;
    setPlanning(true);
    m_status->setText(tr("Solving the LP of the first seed's day…"));
    job->start(
        this, [scenario, o](model::Problems& problems) { return model::planDay(*scenario, o, problems); },
        &PlanDayPanel::onFinished);
    return true;
}

void PlanDayPanel::cancelPlan()
{
    if (m_job)
        m_controls.requestCancel(m_job->cancel);
}

void PlanDayPanel::setPlanning(bool planning)
{
    for (QWidget* w : std::initializer_list<QWidget*>{m_run, m_period, m_horizon, m_weight, m_seeds, m_refine})
        w->setEnabled(!planning);
    m_apply->setEnabled(!planning && m_result != nullptr);
    m_controls.setRunning(planning, m_poll);
}

void PlanDayPanel::pollProgress()
{
    if (!m_job || m_job->done == 0 || m_job->cancel)
        return;
    const auto expected = static_cast<int>(m_job->total.load());
    const int asked = std::min(static_cast<int>(m_job->done.load()), expected);
    m_progress->setRange(0, expected);
    m_progress->setValue(asked);
    m_status->setText(tr("%1 simulation batches run (at most %2; a refinement usually stops well before "
                         "its budget)")
                          .arg(asked)
                          .arg(expected));
}

void PlanDayPanel::onFinished()
{
    auto job = std::move(m_job);
    job->release();
    if (showStudyEnd(*job, m_progress, m_status, tr("Planning cancelled; the previous results (if any) are kept."),
                     tr("Planning failed: %1"))) {
        m_result = std::move(job->result);
        m_planned = job->scenario;
        m_workspace->studies()->setDayPlan({m_result, m_planned});
        m_workspace->setModified(true); // the session keeps the study
        showResult();
    }
    setPlanning(false);
    updateStale();
    emit planEnded();
}

void PlanDayPanel::fillRow(int row, const model::DayPlanScore& score)
{
    const QLocale locale;
    auto set = [&](int column, const QString& text) {
        auto* item = new QTableWidgetItem(text);
        if (column != Policy)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, column, item);
    };
    set(Policy, QString::fromStdString(score.label));
    if (!score.error.empty()) {
        set(Et, tr("not run"));
        m_table->item(row, Et)->setToolTip(QString::fromStdString(score.error));
        m_table->item(row, Policy)->setToolTip(QString::fromStdString(score.error));
        return;
    }
    QString et = locale.toString(score.et.mean, 'f', 4);
    if (score.etBySeed.size() > 1)
        et += QStringLiteral(" ± ") + locale.toString(score.et.halfWidth, 'f', 4);
    set(Et, et);
    set(Energy, locale.toString(score.energyWmin / simcore::kWminPerKwh, 'f', 2));
    set(AvgTardiness, locale.toString(score.avgTardinessMin, 'f', 3));
    set(P95Tardiness, locale.toString(score.p95TardinessMin, 'f', 2));
    set(Reconfigurations, locale.toString(score.reconfigurations, 'f', 1));
}

void PlanDayPanel::fitTableHeight()
{
    // Every policy's row (at most seven) when the window is tall enough, else a scroll bar: the
    // table never grows past its rows, and the chart takes the height left.
    const int rows = std::max(m_table->rowCount(), 5);
    const int rowHeight = m_table->verticalHeader()->defaultSectionSize();
    const int chrome = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    m_table->setMinimumHeight(chrome + 2 * rowHeight);
    const int body = std::max(m_table->verticalHeader()->length(), rows * rowHeight);
    m_table->setMaximumHeight(chrome + body + 4); // 4: the header's and the view's margins
}

void PlanDayPanel::showResult()
{
    const auto& r = *m_result;
    const QLocale locale;
    m_table->setRowCount(static_cast<int>(r.scores.size()));
    for (size_t i = 0; i < r.scores.size(); ++i)
        fillRow(static_cast<int>(i), r.scores[i]);
    fitTableHeight();
    QString summary = tr("List %1, scheduler %2: %3 periods of %4 min on %5 GPUs.")
                          .arg(QString::fromStdString(r.list), QString::fromStdString(r.scheduler))
                          .arg(r.periods)
                          .arg(locale.toString(r.periodMin, 'f', 0))
                          .arg(r.gpus);
    const auto& f = r.refinement;
    if (f.ran) {
        summary += QLatin1Char(' ');
        summary += tr("Refinement: %1 of %2 candidate plans simulated, %3 accepted; mean ET %4 → %5 (held-out "
                      "seeds %6 → %7). Apply uses the refined plan.")
                       .arg(f.evaluated)
                       .arg(f.budget)
                       .arg(f.accepted)
                       .arg(locale.toString(f.etStart, 'f', 4), locale.toString(f.etRefined, 'f', 4),
                            locale.toString(f.holdoutStart, 'f', 4), locale.toString(f.holdoutRefined, 'f', 4));
    }
    m_summary->setText(summary);
    const QSignalBlocker quiet(m_chartPlan);
    m_chartPlan->setEnabled(f.ran);
    m_chartPlan->setCurrentIndex(f.ran ? 1 : 0);
    showChart();
    m_status->setText(
        tr("LP solved in %1 s. %2").arg(locale.toString(r.lpSeconds, 'f', 2), QString::fromStdString(r.lp.note)));
}

void PlanDayPanel::showChart()
{
    if (!m_result)
        return;
    const auto& r = *m_result;
    if (r.refinement.ran && m_chartPlan->currentIndex() == 1) {
        m_chart->setPlan(r.configLabels, r.refinement.counts, r.refinement.simulated, r.periodMin);
        m_chart->setTitle(tr("Refined plan: GPUs per configuration planned (bars) and simulated (markers)"));
    } else {
        m_chart->setPlan(r.configLabels, r.planned, r.simulated, r.periodMin);
        m_chart->setTitle(tr("LP plan of seed 1's day: GPUs per configuration planned (bars) and simulated "
                             "(markers)"));
    }
}

void PlanDayPanel::updateStale()
{
    if (!m_result || isPlanning())
        return;
    const auto scenario = m_workspace->scenario();
    if (scenario && scenario != m_planned && !sameStudyInputs(*scenario, *m_planned))
        m_status->setText(tr("The scenario changed since this plan: the rows above describe the old one. Plan "
                             "again to see the new one."));
}

std::optional<model::PolicyChoice> PlanDayPanel::plannedPolicy() const
{
    if (!m_result)
        return std::nullopt;
    model::PolicyChoice choice = m_result->fluidPolicy;
    if (m_result->refinement.ran)
        choice.params["counts"] = policies::fluidCountsText(m_result->refinement.counts);
    return choice;
}

bool PlanDayPanel::applyPlan()
{
    const auto scenario = m_workspace->scenario();
    const auto choice = plannedPolicy();
    if (!choice || isPlanning() || !scenario)
        return false;
    if (!sameGpuBoards(*scenario, *m_planned)) {
        m_status->setText(tr("The fleet changed since this plan: plan again before applying."));
        return false;
    }
    const QString what = m_result->refinement.ran ? tr("Apply the refined day plan (fluid-plan)")
                                                  : tr("Apply the day plan (fluid-plan)");
    m_undo->push(new RepartitionerEditCommand(m_workspace, scenario->repartitioner, *choice, what));
    m_status->setText(tr("The scenario's repartitioner is now fluid-plan (Edit > Undo takes it back)."));
    return true;
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "runspage.h"

#include "autoscalerbox.h"
#include "cost.h"
#include "policyform.h"
#include "runcommands.h"
#include "runoccupancy.h"
#include "runsmodel.h"
#include "tableexport.h"
#include "verdictbar.h"
#include "workspace.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace ui {

RunsPage::RunsPage(Workspace* workspace, QWidget* parent) : QWidget(parent), m_workspace(workspace)
{
    setObjectName(QStringLiteral("runsPage"));
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(createForms());
    splitter->addWidget(createResults());
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({340, 900});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);
    connectSignals();
    updateScenarioControls();
    updateProgress();
}

QWidget* RunsPage::createForms()
{
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 6, 0);

    auto* scenarioBox = new QGroupBox(tr("Scenario"));
    auto* scenarioForm = new QFormLayout(scenarioBox);
    m_multiplier = new QDoubleSpinBox;
    m_multiplier->setObjectName(QStringLiteral("multiplierBox"));
    m_multiplier->setRange(0.1, 200.0);
    m_multiplier->setDecimals(1);
    m_multiplier->setSingleStep(1.0);
    m_multiplier->setSuffix(QStringLiteral(" ×"));
    m_multiplier->setToolTip(tr("Load multiplier of the diurnal workload: every run re-runs when it changes"));
    scenarioForm->addRow(tr("Load multiplier"), m_multiplier);
    layout->addWidget(scenarioBox);

    auto* policyBox = new QGroupBox(tr("Policies"));
    auto* policyLayout = new QVBoxLayout(policyBox);
    m_editing = new QLabel;
    m_editing->setObjectName(QStringLiteral("editingLabel"));
    m_editing->setWordWrap(true);
    m_variant = new QComboBox;
    m_variant->setObjectName(QStringLiteral("runVariantBox"));
    m_variant->setToolTip(tr("The scenario the run simulates: the base, or a variant (Layouts page, Add variant)"));
    m_scheduler = new PolicyForm(PolicyForm::Kind::Scheduler);
    m_repartitioner = new PolicyForm(PolicyForm::Kind::Repartitioner);
    m_autoscaler = new AutoscalerBox;
    m_add = new QPushButton(tr("Add run"));
    m_add->setObjectName(QStringLiteral("addRunButton"));
    m_add->setToolTip(tr("Simulate the open scenario with these policies as a new row"));
    policyLayout->addWidget(m_editing);
    auto* variantRow = new QFormLayout;
    variantRow->addRow(tr("Variant"), m_variant);
    policyLayout->addLayout(variantRow);
    policyLayout->addWidget(m_scheduler);
    policyLayout->addWidget(m_repartitioner);
    policyLayout->addWidget(m_autoscaler);
    policyLayout->addWidget(m_add);
    layout->addWidget(policyBox);
    layout->addStretch(1);
    box->setMinimumWidth(300);
    return box;
}

QWidget* RunsPage::createResults()
{
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(6, 0, 0, 0);

    auto* progressRow = new QHBoxLayout;
    m_progressText = new QLabel;
    m_progressText->setObjectName(QStringLiteral("progressText"));
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("runProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(260);
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_cancel->setToolTip(tr("Stop every queued and running run (earlier results stay, marked stale)"));
    progressRow->addWidget(m_progressText, 1);
    progressRow->addWidget(m_progress);
    progressRow->addWidget(m_cancel);
    layout->addLayout(progressRow);
    m_verdict = new VerdictBar;
    layout->addWidget(m_verdict);

    m_model = new RunsModel(m_workspace, this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RunsModel::SortRole);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("runsTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // insertion order until the user sorts
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    // Numbers share the width (no horizontal scrolling); the run label keeps its full text up to a
    // width that leaves the figures readable, then is cut in the middle (its tooltip has it whole).
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(RunsModel::RunColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(RunsModel::StatusColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setMaximumSectionSize(m_table->fontMetrics().averageCharWidth() * 48);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setAlternatingRowColors(true);
    // The ranking reads next to the run's name.
    m_table->horizontalHeader()->moveSection(RunsModel::RankColumn, 1);
    m_table->horizontalHeader()->moveSection(RunsModel::VsBaselineColumn, 2);
    // The table above, the occupancy of the selected run below (docs/tenants.md, "In the studio").
    m_occupancy = new RunOccupancy;
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(m_occupancy);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    auto* buttons = new QHBoxLayout;
    m_compare = new QPushButton(tr("Compare selected"));
    m_compare->setObjectName(QStringLiteral("compareButton"));
    m_compare->setToolTip(tr("Show two to four selected runs side by side on the Compare page"));
    m_remove = new QPushButton(tr("Remove"));
    m_remove->setObjectName(QStringLiteral("removeButton"));
    m_remove->setToolTip(tr("Remove the selected runs"));
    m_remove->setEnabled(false); // until a run is selected
    auto* csv = new QPushButton(tr("Export CSV…"));
    csv->setObjectName(QStringLiteral("exportCsvButton"));
    buttons->addWidget(m_compare);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);
    buttons->addWidget(csv);
    layout->addLayout(buttons);
    connect(m_remove, &QPushButton::clicked, this, &RunsPage::removeSelected);
    connect(csv, &QPushButton::clicked, this, &RunsPage::exportCsvDialog);
    return box;
}

void RunsPage::connectSignals()
{
    connect(m_add, &QPushButton::clicked, this, [this] { addRunFromForms(); });
    connect(m_cancel, &QPushButton::clicked, this, &RunsPage::cancelRunning);
    connect(m_compare, &QPushButton::clicked, this, [this] {
        const QList<int> keys = selectedKeys();
        emit compareRequested(keys.mid(0, 4));
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsPage::onSelectionChanged);
    connect(m_scheduler, &PolicyForm::changed, this, &RunsPage::onFormChanged);
    connect(m_repartitioner, &PolicyForm::changed, this, &RunsPage::onFormChanged);
    connect(m_autoscaler, &AutoscalerBox::changed, this, &RunsPage::onFormChanged);
    connect(m_multiplier, &QDoubleSpinBox::valueChanged, this, &RunsPage::onMultiplierChanged);
    connect(m_variant, &QComboBox::currentIndexChanged, this, &RunsPage::onVariantChosen);
    connect(m_workspace, &Workspace::variantsChanged, this, &RunsPage::refreshVariants);
    connect(m_workspace, &Workspace::variantsChanged, this, &RunsPage::refreshVerdict);
    connect(m_workspace, &Workspace::runSpecChanged, this, &RunsPage::updateProgress);
    connect(m_workspace, &Workspace::runSpecChanged, this, &RunsPage::onRunSpecChanged);
    connect(m_workspace, &Workspace::runsChanged, this, &RunsPage::updateProgress);
    // Removed rows leave the selection without always saying so: the buttons follow the runs too.
    connect(m_workspace, &Workspace::runsChanged, this, &RunsPage::updateSelectionButtons);
    connect(m_workspace, &Workspace::busyChanged, this, &RunsPage::updateProgress);
    connect(m_workspace, &Workspace::scenarioChanged, this, &RunsPage::updateScenarioControls);
    connect(m_workspace, &Workspace::runSpecChanged, this, &RunsPage::refreshVerdict);
    connect(m_workspace, &Workspace::runsChanged, this, &RunsPage::refreshVerdict);
    connect(m_verdict, &VerdictBar::verdictChanged, this, &RunsPage::applyRanking);
    connect(m_workspace, &Workspace::runSpecChanged, this, &RunsPage::refreshOccupancy);
    connect(m_workspace, &Workspace::runsChanged, this, &RunsPage::refreshOccupancy);
    refreshVariants();
    onSelectionChanged();
    refreshVerdict();
}

void RunsPage::refreshVariants()
{
    const QString current = m_variant->currentData().toString();
    const QSignalBlocker block(m_variant);
    m_variant->clear();
    m_variant->addItem(tr("Base scenario"), QString());
    for (const model::Variant& v : m_workspace->variants())
        m_variant->addItem(QString::fromStdString(v.name), QString::fromStdString(v.name));
    m_variant->setCurrentIndex(std::max(0, m_variant->findData(current)));
}

void RunsPage::onVariantChosen()
{
    if (m_loadingForms || m_editingKey == 0)
        return;
    m_workspace->setRunVariant(m_editingKey, m_variant->currentData().toString());
    if (const RunSpec* spec = m_workspace->runSpec(m_editingKey))
        m_editing->setText(editingText(*spec));
}

QString RunsPage::editingText(const RunSpec& spec) const
{
    return m_undo ? tr("Editing <b>%1</b>: changes re-run it at once (Edit › Undo takes them back; "
                       "<b>Add run</b> keeps it and adds the changed one).")
                        .arg(spec.label().toHtmlEscaped())
                  : tr("Editing <b>%1</b>: changes re-run it at once.").arg(spec.label().toHtmlEscaped());
}

void RunsPage::refreshVerdict()
{
    std::vector<VerdictBar::Entry> entries;
    const bool withVariants = std::any_of(m_workspace->runs().begin(), m_workspace->runs().end(),
                                          [](const RunSpec& spec) { return !spec.variant.isEmpty(); });
    for (const RunSpec& spec : m_workspace->runs()) {
        if (!spec.latest || spec.state != RunState::Current)
            continue;
        const std::string label = spec.verdictLabel(withVariants);
        const auto cost = model::scenarioRunCost(*spec.latest->scenario, *spec.latest->result);
        entries.push_back({spec.key, label, spec.latest->result->metrics,
                           cost ? std::optional<double>(cost->totalPerDay) : std::nullopt});
    }
    m_verdict->setEntries(std::move(entries));
}

void RunsPage::applyRanking()
{
    std::map<int, model::RankedRun> byKey;
    for (const RunSpec& spec : m_workspace->runs())
        if (const model::RankedRun* r = m_verdict->ranked(spec.key))
            byKey.emplace(spec.key, *r);
    m_model->setRanking(std::move(byKey));
}

void RunsPage::refreshOccupancy()
{
    const RunSpec* shown = m_workspace->runSpec(m_editingKey);
    for (const RunSpec& spec : m_workspace->runs()) {
        if (!shown && spec.latest)
            shown = &spec;
    }
    m_occupancy->showRun(shown);
}

QList<int> RunsPage::selectedKeys() const
{
    QList<int> keys;
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    for (const QModelIndex& row : rows)
        keys << row.data(RunsModel::KeyRole).toInt();
    return keys;
}

int RunsPage::addRunFromForms()
{
    if (!m_scheduler->isValid() || !m_repartitioner->isValid())
        return 0;
    const auto scenario = m_workspace->scenario();
    const bool services = scenario && scenario->services; // no autoscaler without services
    const int key =
        m_workspace->addRun(m_scheduler->choice(), m_repartitioner->choice(), m_variant->currentData().toString(),
                            services ? m_autoscaler->choice() : std::nullopt);
    return key;
}

void RunsPage::updateSelectionButtons()
{
    const auto selected = selectedKeys().size();
    m_compare->setEnabled(selected >= 2);
    m_remove->setEnabled(selected > 0);
}

void RunsPage::onSelectionChanged()
{
    const QList<int> keys = selectedKeys();
    m_editingKey = keys.size() == 1 ? keys.front() : 0;
    updateSelectionButtons();
    refreshOccupancy();
    const RunSpec* spec = m_workspace->runSpec(m_editingKey);
    if (!spec) {
        m_editingKey = 0;
        m_editing->setText(tr("Choose policies, then <b>Add run</b>. Select one row to edit its run live."));
        return;
    }
    loadForms(*spec);
}

void RunsPage::loadForms(const RunSpec& spec)
{
    m_editing->setText(editingText(spec));
    m_loadingForms = true;
    m_variant->setCurrentIndex(std::max(0, m_variant->findData(spec.variant)));
    m_scheduler->setChoice(spec.scheduler);
    m_repartitioner->setChoice(spec.repartitioner);
    m_autoscaler->setChoice(spec.autoscaler);
    m_loadingForms = false;
}

void RunsPage::onRunSpecChanged(int key)
{
    // Undo or redo changed the edited run: the forms follow it.
    const RunSpec* spec = m_workspace->runSpec(key);
    if (key != m_editingKey || !spec || m_loadingForms)
        return;
    if (spec->scheduler != m_scheduler->choice() || spec->repartitioner != m_repartitioner->choice() ||
        spec->autoscaler != m_autoscaler->choice(spec->autoscaler))
        loadForms(*spec);
}

void RunsPage::onFormChanged()
{
    m_add->setEnabled(m_scheduler->isValid() && m_repartitioner->isValid());
    if (m_loadingForms || m_editingKey == 0 || !m_add->isEnabled())
        return;
    const RunSpec* spec = m_workspace->runSpec(m_editingKey);
    if (!spec)
        return;
    RunPoliciesCommand::Policies before{spec->scheduler, spec->repartitioner, spec->autoscaler};
    RunPoliciesCommand::Policies after{m_scheduler->choice(), m_repartitioner->choice(),
                                       m_autoscaler->choice(spec->autoscaler)};
    if (before.scheduler == after.scheduler && before.repartitioner == after.repartitioner &&
        before.autoscaler == after.autoscaler)
        return;
    const QString label = spec->label();
    if (m_undo) // undoable: the previous policies come back with Edit › Undo
        m_undo->push(new RunPoliciesCommand(m_workspace, m_editingKey, std::move(before), std::move(after), label));
    else
        m_workspace->updateRun(m_editingKey, after.scheduler, after.repartitioner, after.autoscaler);
    if (const RunSpec* edited = m_workspace->runSpec(m_editingKey))
        m_editing->setText(editingText(*edited));
}

void RunsPage::onMultiplierChanged(double value)
{
    const auto scenario = m_workspace->scenario();
    if (!scenario || scenario->workload.kind != model::WorkloadSpec::Kind::Diurnal ||
        qFuzzyCompare(scenario->workload.diurnal.multiplier, value))
        return;
    model::Scenario edited = *scenario;
    edited.workload.diurnal.multiplier = value;
    m_workspace->editScenario(std::move(edited), tr("Load multiplier %1×").arg(value));
}

void RunsPage::updateScenarioControls()
{
    const auto scenario = m_workspace->scenario();
    const bool diurnal = scenario && scenario->workload.kind == model::WorkloadSpec::Kind::Diurnal;
    m_multiplier->setEnabled(diurnal);
    m_autoscaler->setScenario(scenario.get()); // shown for a scenario with services only
    if (diurnal && !qFuzzyCompare(m_multiplier->value(), scenario->workload.diurnal.multiplier)) {
        const QSignalBlocker block(m_multiplier);
        m_multiplier->setValue(scenario->workload.diurnal.multiplier);
    }
    // Cost columns only for a scenario with prices (docs/planning.md, Cost and carbon).
    const bool priced = scenario && scenario->cost;
    m_table->setColumnHidden(RunsModel::CostColumn, !priced);
    m_table->setColumnHidden(RunsModel::CarbonColumn, !priced);
    m_model->headerDataChanged(Qt::Horizontal, RunsModel::CostColumn, RunsModel::CostColumn);
}

void RunsPage::updateProgress()
{
    int running = 0;
    int stopped = 0;
    const RunSpec* current = nullptr;
    for (const RunSpec& spec : m_workspace->runs()) {
        stopped += spec.stopped() ? 1 : 0;
        if (spec.running()) {
            ++running;
            if (!current || spec.progress > current->progress)
                current = &spec;
        }
    }
    m_cancel->setEnabled(running > 0 || m_workspace->isRunning());
    m_progress->setVisible(running > 0);
    m_progress->setValue(current ? qRound(current->progress * 1000) : 0);
    const int total = static_cast<int>(m_workspace->runs().size());
    if (current)
        m_progressText->setText(running == 1
                                    ? tr("Simulating %1…").arg(current->label())
                                    : tr("Simulating %1 (%2 runs waiting)…").arg(current->label()).arg(running - 1));
    else if (stopped > 0)
        m_progressText->setText(tr("%1 of %n run(s) not current (cancelled or failed): Simulation › Run (F5) "
                                   "re-runs them.",
                                   nullptr, total)
                                    .arg(stopped));
    else
        m_progressText->setText(total == 0 ? tr("No runs yet.") : tr("%n run(s), all finished.", nullptr, total));
}

void RunsPage::cancelRunning()
{
    m_workspace->cancelAll();
}

void RunsPage::removeSelected()
{
    for (int key : selectedKeys())
        m_workspace->removeRun(key);
}

bool RunsPage::exportCsv(const QString& path)
{
    return saveModelCsv(path, *m_proxy);
}

void RunsPage::exportCsvDialog()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export runs table"), QStringLiteral("runs.csv"), tr("CSV (*.csv)"));
    QString error;
    if (!path.isEmpty() && !saveModelCsv(path, *m_proxy, &error))
        QMessageBox::warning(this, tr("Export failed"), tr("Cannot write %1: %2").arg(path, error));
}

} // namespace ui

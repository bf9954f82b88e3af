// SPDX-License-Identifier: GPL-3.0-or-later
#include "overviewpage.h"

#include "costdialog.h"
#include "fleetpanel.h"
#include "fleetview.h"
#include "metricsmodel.h"
#include "scenariosettings.h"
#include "timelinechart.h"
#include "workspace.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace ui {

namespace {

QGroupBox* groupAround(const QString& title, QWidget* content)
{
    auto* box = new QGroupBox(title);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(8, 6, 8, 8);
    layout->addWidget(content);
    return box;
}

} // namespace

OverviewPage::OverviewPage(Workspace* workspace, QWidget* parent) : QWidget(parent), m_workspace(workspace)
{
    setupWidgets();
    connectSignals();
    showScenario();
}

void OverviewPage::setupWidgets()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 6);
    layout->addWidget(createHeader());
    m_banner = new QLabel;
    m_banner->setObjectName(QStringLiteral("overviewBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->hide();
    layout->addWidget(m_banner);

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(createLeftColumn());
    splitter->addWidget(createRightColumn());
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({380, 880});
    layout->addWidget(splitter, 1);
}

QWidget* OverviewPage::createHeader()
{
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("scenarioTitle"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_description = new QLabel;
    m_description->setObjectName(QStringLiteral("scenarioDescription"));
    m_description->setWordWrap(true);
    m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_description->setForegroundRole(QPalette::PlaceholderText);

    m_runButton = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"));
    m_runButton->setObjectName(QStringLiteral("runButton"));
    m_runButton->setToolTip(tr("Simulate the scenario's day again (F5)"));
    m_runButton->setMinimumWidth(96);

    auto* rename = new QToolButton;
    rename->setObjectName(QStringLiteral("renameScenarioButton"));
    rename->setText(tr("Rename…"));
    rename->setToolTip(tr("Give the scenario another title (kept with the session and shown in reports)"));
    rename->setAutoRaise(true);
    connect(rename, &QToolButton::clicked, this, &OverviewPage::askTitle);
    auto* titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title);
    titleRow->addWidget(rename, 0, Qt::AlignVCenter);
    titleRow->addStretch(1);
    auto* text = new QVBoxLayout;
    text->setSpacing(2);
    text->addLayout(titleRow);
    text->addWidget(m_description);
    auto* header = new QWidget;
    auto* layout = new QHBoxLayout(header);
    layout->setContentsMargins(0, 0, 0, 4);
    layout->addLayout(text, 1);
    layout->addWidget(m_runButton, 0, Qt::AlignTop);
    return header;
}

QWidget* OverviewPage::createLeftColumn()
{
    m_settings = new ScenarioSettingsView;
    m_metrics = new MetricsModel(this);
    m_metricsTable = new QTableView;
    m_metricsTable->setObjectName(QStringLiteral("metricsTable"));
    m_metricsTable->setModel(m_metrics);
    m_metricsTable->verticalHeader()->hide();
    m_metricsTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_metricsTable->horizontalHeader()->setSectionResizeMode(MetricsModel::NameColumn, QHeaderView::Stretch);
    m_metricsTable->horizontalHeader()->setSectionResizeMode(MetricsModel::ValueColumn, QHeaderView::ResizeToContents);
    m_metricsTable->horizontalHeader()->setSectionResizeMode(MetricsModel::UnitColumn, QHeaderView::ResizeToContents);
    m_metricsTable->setAlternatingRowColors(true);
    m_metricsTable->setShowGrid(false);
    m_metricsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_metricsTable->setWordWrap(false);

    auto* column = new QWidget;
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 4, 0);
    layout->addWidget(groupAround(tr("Settings"), m_settings));
    layout->addWidget(groupAround(tr("Metrics of the latest run"), m_metricsTable), 1);
    return column;
}

QWidget* OverviewPage::createRightColumn()
{
    auto* fleetPanel = new FleetPanel;
    m_fleet = fleetPanel->view();
    m_chart = new TimelineChart;
    m_chart->setObjectName(QStringLiteral("timelineChart"));

    auto* column = new QWidget;
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(4, 0, 0, 0);
    layout->addWidget(groupAround(tr("Fleet: MIG layouts by memory slice"), fleetPanel));
    layout->addWidget(groupAround(tr("Fleet power and queue over the day"), m_chart), 1);
    return column;
}

void OverviewPage::connectSignals()
{
    // As Simulation › Run (F5): the scenario and every run whose result is not current.
    connect(m_runButton, &QPushButton::clicked, m_workspace, [this] { m_workspace->rerunStale(); });
    connect(m_settings, &ScenarioSettingsView::costEditRequested, this, [this] {
        if (auto* dialog = editCostDialog())
            dialog->open();
    });
    connect(m_workspace, &Workspace::scenarioChanged, this, &OverviewPage::showScenario);
    connect(m_workspace, &Workspace::runFinished, this, &OverviewPage::showRun);
    connect(m_workspace, &Workspace::runFailed, this, [this](int, const QString& message) { showFailure(message); });
    connect(m_workspace, &Workspace::runStarted, this, [this] { m_banner->hide(); });
}

CostDialog* OverviewPage::editCostDialog()
{
    const auto scenario = m_workspace->scenario();
    if (!scenario)
        return nullptr;
    auto* dialog = new CostDialog(scenario->cost, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const auto current = m_workspace->scenario();
        const auto settings = dialog->settings();
        if (!current || settings == current->cost)
            return;
        model::Scenario edited = *current;
        edited.cost = settings;
        m_workspace->editScenario(std::move(edited), tr("Cost and carbon settings"));
    });
    return dialog;
}

QString OverviewPage::renameScenario(const QString& title)
{
    const auto current = m_workspace->scenario();
    const QString trimmed = title.trimmed();
    if (!current)
        return tr("No scenario is open.");
    if (trimmed.isEmpty())
        return tr("The title is empty.");
    if (trimmed.size() > kMaxTitle)
        return tr("The title has %1 characters; at most %2 are allowed.").arg(trimmed.size()).arg(kMaxTitle);
    if (trimmed.toStdString() == current->name)
        return {};
    model::Scenario edited = *current;
    edited.name = trimmed.toStdString();
    m_workspace->editScenario(std::move(edited), tr("Title"));
    return {};
}

void OverviewPage::askTitle()
{
    const auto current = m_workspace->scenario();
    if (!current)
        return;
    bool ok = false;
    const QString title = QInputDialog::getText(this, tr("Rename scenario"), tr("Title:"), QLineEdit::Normal,
                                                QString::fromStdString(current->name), &ok);
    if (!ok)
        return;
    if (const QString why = renameScenario(title); !why.isEmpty())
        QMessageBox::warning(this, tr("Rename scenario"), why);
}

void OverviewPage::showScenario()
{
    const auto scenario = m_workspace->scenario();
    m_title->setText(scenario ? QString::fromStdString(scenario->name) : tr("No scenario open"));
    m_title->setToolTip(m_workspace->scenarioPath());
    m_description->setText(scenario ? QString::fromStdString(scenario->description)
                                    : tr("Open a scenario with File › Open scenario… (Ctrl+O)."));
    m_runButton->setEnabled(scenario != nullptr);
    m_settings->setScenario(scenario);
    m_fleet->setCards(scenario ? fleetCards(*scenario) : std::vector<FleetCard>{});
    m_metrics->clear();
    m_chart->clear();
    m_banner->hide();
}

void OverviewPage::showRun(const RunSnapshot& snapshot)
{
    m_metrics->setMetrics(snapshot.result->metrics, model::scenarioRunCost(*snapshot.scenario, *snapshot.result));
    m_chart->setSeries(snapshot.result->series);
    const auto& illegal = snapshot.result->illegalDecisions;
    if (illegal.empty())
        m_banner->hide();
    else
        showBanner(tr("The policies made %1 illegal decision%2; the simulator refused %3. First: %4")
                       .arg(illegal.size())
                       .arg(illegal.size() == 1 ? QString() : QStringLiteral("s"),
                            illegal.size() == 1 ? tr("it") : tr("them"), QString::fromStdString(illegal.front())),
                   false);
}

void OverviewPage::showFailure(const QString& message)
{
    m_metrics->clear();
    m_chart->clear();
    showBanner(tr("The simulation failed: %1").arg(message.trimmed()), true);
}

void OverviewPage::showBanner(const QString& text, bool error)
{
    m_banner->setText(text);
    m_banner->setStyleSheet(error ? QStringLiteral("QLabel { background: #fdecea; color: #8a1c1c; "
                                                   "border: 1px solid #f1b0ab; border-radius: 4px; padding: 6px; }")
                                  : QStringLiteral("QLabel { background: #fff6e0; color: #6b4a00; "
                                                   "border: 1px solid #f0d58c; border-radius: 4px; padding: 6px; }"));
    m_banner->show();
}

QString OverviewPage::bannerText() const
{
    return m_banner->isHidden() ? QString() : m_banner->text();
}

} // namespace ui

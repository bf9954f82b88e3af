// SPDX-License-Identifier: GPL-3.0-or-later
#include "servicespage.h"

#include "problems.h"
#include "serieschart.h"
#include "seriescolours.h"
#include "service_build.h"
#include "simulation.h"
#include "workspace.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QShowEvent>
#include <QSplitter>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <future>

namespace ui {

namespace {

/// Every autoscaler on the scenario's jobs and services (worker thread). The scenario's own
/// autoscaler keeps its parameters; the others run with their documented defaults.
std::vector<model::ServiceRunResult> compareAutoscalers(const model::Scenario& sc, QString& error)
{
    model::Problems problems;
    const auto jobs = model::scenarioJobs(sc, std::nullopt, problems);
    const auto services = model::buildServices(sc, problems);
    if (!problems.empty()) {
        error = QString::fromStdString(problems.text());
        return {};
    }
    // One thread per autoscaler: the runs share nothing but their (read-only) inputs, so the
    // results are those of running them one after the other.
    const auto& ids = ServicesPage::autoscalers();
    std::vector<std::future<model::ServiceRunResult>> runs;
    for (const std::string& a : ids) {
        runs.push_back(std::async(std::launch::async, [&sc, &jobs, &services, a] {
            const policies::AutoscalerParams params =
                a == sc.services->autoscaler ? sc.services->autoscalerParams : policies::AutoscalerParams{};
            model::RunOptions options;
            options.timeSeries = false;
            return model::simulateWithServices(sc, jobs, services, a, params, options);
        }));
    }
    std::vector<model::ServiceRunResult> results;
    for (auto& r : runs)
        results.push_back(r.get()); // rethrows a run's exception here
    return results;
}

/// Sum over the services of @p value(point) at each point of the services' common time grid.
template <typename Fn>
SeriesLine sumOverServices(const model::ServiceRunResult& r, const QString& name, const QColor& colour, Fn value)
{
    SeriesLine line{name, colour, 2.0, {}, {}};
    if (r.services.empty())
        return line;
    const size_t n = r.services.front().series.size();
    for (size_t i = 0; i < n; ++i) {
        line.hours.push_back(r.services.front().series[i].timeS / 3600.0);
        line.values.push_back(value(r, i));
    }
    return line;
}

double totalReplicas(const model::ServiceRunResult& r, size_t i)
{
    double sum = 0.0;
    for (const auto& s : r.services) {
        if (i < s.series.size()) {
            for (int v : s.series[i].replicasByVariant)
                sum += v;
        }
    }
    return sum;
}

/// Share of the interval's requests answered within the SLO, in %, over all services (100 when
/// nothing was answered or failed in it).
double attainmentPercent(const model::ServiceRunResult& r, size_t i)
{
    long long within = 0;
    long long total = 0;
    for (const auto& s : r.services) {
        if (i < s.series.size()) {
            within += s.series[i].withinSlo;
            total += s.series[i].served + s.series[i].failed;
        }
    }
    return total > 0 ? 100.0 * static_cast<double>(within) / static_cast<double>(total) : 100.0;
}

QString percentChange(double value, double base)
{
    if (base == 0.0)
        return QStringLiteral("n/a");
    return QStringLiteral("%1%2%")
        .arg(value >= base ? QStringLiteral("+") : QString())
        .arg(100.0 * (value / base - 1.0), 0, 'f', 1);
}

} // namespace

const std::vector<std::string>& ServicesPage::autoscalers()
{
    static const std::vector<std::string> ids{"wva", "hpa", "static-replicas"};
    return ids;
}

ServicesPage::ServicesPage(Workspace* workspace, QWidget* parent) : QWidget(parent), m_workspace(workspace)
{
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("servicesSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    layout->addWidget(m_summary);

    m_table = new QTableWidget(0, 11);
    m_table->setObjectName(QStringLiteral("servicesTable"));
    m_table->setHorizontalHeaderLabels({tr("Autoscaler"), tr("Requests"), tr("Served"), tr("Failed"),
                                        tr("SLO attainment"), tr("Effective tok/s"), tr("p95 latency (s)"), tr("Cost"),
                                        tr("Energy (kWh)"), tr("Replica-hours"), tr("Peak replicas")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    layout->addWidget(m_table);

    auto* charts = new QSplitter(Qt::Vertical);
    auto* top = new QSplitter(Qt::Horizontal);
    m_replicas = new SeriesChart(tr("Replicas over the day (all services)"), tr("Replicas"));
    m_attainment = new SeriesChart(tr("Requests within the SLO per 15 minutes"), tr("%"));
    m_attainment->setValueCeiling(100.0);
    top->addWidget(m_replicas);
    top->addWidget(m_attainment);
    charts->addWidget(top);
    auto* bottom = new QWidget;
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    auto* pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Replicas per variant under")));
    m_variantOf = new QComboBox;
    m_variantOf->setObjectName(QStringLiteral("variantOf"));
    for (const auto& a : autoscalers())
        m_variantOf->addItem(QString::fromStdString(a));
    pick->addWidget(m_variantOf);
    pick->addStretch(1);
    bottomLayout->addLayout(pick);
    m_variants = new SeriesChart(tr("Replicas per service and variant"), tr("Replicas"));
    bottomLayout->addWidget(m_variants, 1);
    charts->addWidget(bottom);
    layout->addWidget(charts, 1);

    connect(m_variantOf, &QComboBox::currentIndexChanged, this, &ServicesPage::showVariants);
    connect(m_workspace, &Workspace::scenarioChanged, this, &ServicesPage::scenarioChanged);
    scenarioChanged();
}

ServicesPage::~ServicesPage()
{
    if (m_thread != nullptr) {
        m_thread->wait(); // its result has nowhere to go: the page is going away
        delete m_thread;
    }
}

void ServicesPage::scenarioChanged()
{
    const auto sc = m_workspace->scenario();
    if (!sc || !sc->services) {
        m_results.clear();
        showResults();
        m_summary->setText(tr("This scenario has no inference services. Open <b>samples/inference-services.json</b> "
                              "(or add a <code>services</code> section, docs/services.md) to compare the WVA, "
                              "HPA and static-replicas autoscalers here."));
        return;
    }
    if (!isVisible()) { // computed when the page is shown: no work for a page nobody looks at
        m_dirty = true;
        return;
    }
    start();
}

void ServicesPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_dirty) {
        m_dirty = false;
        start();
    }
}

void ServicesPage::start()
{
    if (m_thread != nullptr) {
        m_pending = true;
        return;
    }
    const std::shared_ptr<const model::Scenario> sc = m_workspace->scenario();
    if (!sc || !sc->services)
        return;
    for (SeriesChart* c : {m_replicas, m_attainment, m_variants})
        c->setStale(!m_results.empty());
    if (m_results.empty())
        m_summary->setText(tr("Simulating the services under %1 autoscalers…").arg(autoscalers().size()));
    auto outcome = std::make_shared<Outcome>();
    m_thread = QThread::create([sc, outcome] {
        QElapsedTimer clock;
        clock.start();
        try {
            outcome->results = compareAutoscalers(*sc, outcome->error);
        } catch (const std::exception& e) {
            outcome->error = QString::fromStdString(e.what());
        }
        outcome->ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    });
    connect(m_thread, &QThread::finished, this, [this, outcome] { finished(outcome); });
    m_thread->start();
}

void ServicesPage::finished(const std::shared_ptr<Outcome>& outcome)
{
    m_thread->deleteLater();
    m_thread = nullptr;
    if (m_pending) { // the scenario changed meanwhile: this result is already old
        m_pending = false;
        start();
        return;
    }
    for (SeriesChart* c : {m_replicas, m_attainment, m_variants})
        c->setStale(false);
    if (!outcome->error.isEmpty()) {
        m_results.clear();
        showResults();
        m_summary->setText(tr("The services could not be simulated: %1").arg(outcome->error.toHtmlEscaped()));
        emit updated();
        return;
    }
    m_results = outcome->results;
    m_lastMs = outcome->ms;
    showResults();
    m_summary->setText(summaryText());
    emit updated();
}

QString ServicesPage::summaryText() const
{
    const model::ServiceSummary* wva = nullptr;
    const model::ServiceSummary* hpa = nullptr;
    for (const auto& r : m_results) {
        if (r.summaries.empty())
            continue;
        if (r.autoscaler == "wva")
            wva = &r.summaries.back();
        else if (r.autoscaler == "hpa")
            hpa = &r.summaries.back();
    }
    if (wva == nullptr || hpa == nullptr)
        return {};
    const QLocale locale;
    QString failed;
    if (wva->failed > 0 && hpa->failed > wva->failed)
        failed = tr("%1x fewer").arg(static_cast<double>(hpa->failed) / static_cast<double>(wva->failed), 0, 'f', 1);
    else
        failed = tr("%1 vs %2").arg(locale.toString(wva->failed), locale.toString(hpa->failed));
    return tr("<b>WVA against HPA</b>: effective throughput %1, failed requests %2, SLO attainment %3% vs %4%, "
              "cost %5, energy %6. %7 autoscalers simulated in %8 ms (the batch day runs beside them on the same "
              "fleet).")
        .arg(percentChange(wva->effectiveTokensPerS, hpa->effectiveTokensPerS), failed)
        .arg(100.0 * wva->attainment, 0, 'f', 1)
        .arg(100.0 * hpa->attainment, 0, 'f', 1)
        .arg(percentChange(wva->cost, hpa->cost), percentChange(wva->energyKWh, hpa->energyKWh))
        .arg(m_results.size())
        .arg(m_lastMs, 0, 'f', 0);
}

void ServicesPage::showResults()
{
    const QLocale locale;
    m_table->setRowCount(static_cast<int>(m_results.size()));
    std::vector<SeriesLine> replicas;
    std::vector<SeriesLine> attainment;
    for (size_t k = 0; k < m_results.size(); ++k) {
        const auto& r = m_results[k];
        const auto row = static_cast<int>(k);
        const model::ServiceSummary s = r.summaries.empty() ? model::ServiceSummary{} : r.summaries.back();
        const QStringList cells{QString::fromStdString(r.autoscaler),
                                locale.toString(s.arrived),
                                locale.toString(s.served),
                                locale.toString(s.failed),
                                QStringLiteral("%1%").arg(100.0 * s.attainment, 0, 'f', 2),
                                locale.toString(s.effectiveTokensPerS, 'f', 1),
                                locale.toString(s.p95Ms / 1000.0, 'f', 2),
                                locale.toString(s.cost, 'f', 2),
                                locale.toString(s.energyKWh, 'f', 1),
                                locale.toString(s.replicaHours, 'f', 1),
                                locale.toString(s.peakReplicas)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, c, item);
        }
        const QString name = QString::fromStdString(r.autoscaler);
        replicas.push_back(sumOverServices(r, name, runColour(row), totalReplicas));
        attainment.push_back(sumOverServices(r, name, runColour(row), attainmentPercent));
    }
    m_replicas->setLines(replicas);
    m_attainment->setLines(attainment);
    showVariants();
}

void ServicesPage::showVariants()
{
    std::vector<SeriesLine> lines;
    const int pick = m_variantOf->currentIndex();
    if (pick >= 0 && pick < static_cast<int>(m_results.size())) {
        const auto& r = m_results[static_cast<size_t>(pick)];
        int colour = 0;
        for (const auto& s : r.services) {
            for (size_t v = 0; v < s.variantNames.size(); ++v) {
                SeriesLine line{
                    QString::fromStdString(s.name + " on " + s.variantNames[v]), jobTypeColour(colour++), 1.8, {}, {}};
                double peak = 0.0;
                for (const auto& p : s.series) {
                    const double n = v < p.replicasByVariant.size() ? p.replicasByVariant[v] : 0.0;
                    line.hours.push_back(p.timeS / 3600.0);
                    line.values.push_back(n);
                    peak = std::max(peak, n);
                }
                if (peak > 0.0) // a variant never used would only crowd the legend
                    lines.push_back(std::move(line));
            }
        }
    }
    m_variants->setLines(lines);
}

} // namespace ui

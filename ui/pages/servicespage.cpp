// SPDX-License-Identifier: GPL-3.0-or-later
#include "servicespage.h"

#include "palette.h"
#include "reportservices.h"
#include "serieschart.h"
#include "workspace.h"

#include <QComboBox>
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

namespace ui {

namespace {

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
    m_replicas->setObjectName(QStringLiteral("servicesReplicas"));
    m_attainment->setObjectName(QStringLiteral("servicesAttainment"));
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
    m_variants->setObjectName(QStringLiteral("servicesVariants"));
    bottomLayout->addWidget(m_variants, 1);
    charts->addWidget(bottom);
    layout->addWidget(charts, 1);

    connect(m_variantOf, &QComboBox::currentIndexChanged, this, &ServicesPage::showVariants);
    connect(m_workspace, &Workspace::scenarioChanged, this, &ServicesPage::scenarioChanged);
    for (ChartWidget* chart : timeCharts())
        connect(chart, &ChartWidget::timeRangeChanged, this,
                [this, chart](double lower, double upper) { syncTime(chart, lower, upper); });
    scenarioChanged();
}

ServicesPage::~ServicesPage()
{
    if (m_thread != nullptr) {
        m_cancel->store(true); // its result has nowhere to go: the page is going away
        m_thread->wait();
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
    if (m_thread != nullptr) { // a newer scenario: stop the run in flight, then run this one
        m_cancel->store(true);
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
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    // The pair's figures as soon as they are in (ServicesComparison runs the others at a lower
    // priority); the page is alive meanwhile: its destructor waits for the thread.
    const auto partial = [this, cancel = m_cancel](const Outcome& sofar) {
        QMetaObject::invokeMethod(
            this,
            [this, cancel, shown = std::make_shared<Outcome>(sofar)] {
                if (!cancel->load() && !m_pending)
                    showPartial(*shown);
            },
            Qt::QueuedConnection);
    };
    m_thread = QThread::create([sc, outcome, comparison = m_comparison, cancel = m_cancel, partial] {
        try {
            *outcome = comparison->compare(sc, autoscalers(), *cancel, partial);
        } catch (const std::exception& e) {
            outcome->results.clear();
            outcome->error = QString::fromStdString(e.what());
        }
    });
    connect(m_thread, &QThread::finished, this, [this, outcome] { finished(outcome); });
    m_thread->start();
}

void ServicesPage::finished(const std::shared_ptr<Outcome>& outcome)
{
    m_thread->deleteLater();
    m_thread = nullptr;
    if (outcome->cancelled)
        ++m_cancelledRuns;
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
    m_results = std::move(outcome->results);
    m_lastMs = outcome->ms;
    m_lastSimulated = outcome->simulated;
    showResults();
    m_summary->setText(summaryText());
    emit updated();
}

QString ServicesPage::summaryText() const
{
    const int all = static_cast<int>(m_results.size());
    const QString ran = m_lastSimulated == all
                            ? tr("%1 autoscalers simulated in %2 ms").arg(all).arg(m_lastMs, 0, 'f', 0)
                            : tr("%1 of %2 autoscalers simulated in %3 ms, the others' figures unchanged by the edit")
                                  .arg(m_lastSimulated)
                                  .arg(all)
                                  .arg(m_lastMs, 0, 'f', 0);
    return pairText(m_results, ran);
}

QString ServicesPage::pairText(const std::vector<model::ServiceRunResult>& results, const QString& ran)
{
    const model::ServiceSummary* wva = nullptr;
    const model::ServiceSummary* hpa = nullptr;
    for (const auto& r : results) {
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
              "cost %5, energy %6. %7 (the batch day runs beside them on the same fleet).")
        .arg(percentChange(wva->effectiveTokensPerS, hpa->effectiveTokensPerS), failed)
        .arg(100.0 * wva->attainment, 0, 'f', 1)
        .arg(100.0 * hpa->attainment, 0, 'f', 1)
        .arg(percentChange(wva->cost, hpa->cost), percentChange(wva->energyKWh, hpa->energyKWh))
        .arg(ran);
}

void ServicesPage::showResults()
{
    m_table->setRowCount(static_cast<int>(m_results.size()));
    std::vector<SeriesLine> replicas;
    std::vector<SeriesLine> attainment;
    for (size_t k = 0; k < m_results.size(); ++k) {
        const auto& r = m_results[k];
        const auto row = static_cast<int>(k);
        fillRow(row, r);
        const QString name = QString::fromStdString(r.autoscaler);
        for (auto [lines, measure] :
             {std::pair{&replicas, ServiceMeasure::Replicas}, std::pair{&attainment, ServiceMeasure::Attainment}}) {
            lines->push_back(serviceLine(r, {}, measure, name, runColour(row)));
            lines->back().width = 2.0;
        }
    }
    // New lines reset a chart's view; the range the user chose stays, on all three in step.
    m_syncing = true;
    m_replicas->setLines(replicas);
    m_attainment->setLines(attainment);
    showVariants();
    m_syncing = false;
    if (m_zoom)
        syncTime(nullptr, m_zoom->first, m_zoom->second);
}

void ServicesPage::fillRow(int row, const model::ServiceRunResult& r)
{
    const QLocale locale;
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
}

void ServicesPage::showPartial(const Outcome& partial)
{
    // The pair's rows and the summary line; the rows of the autoscalers still running say so and
    // the charts stay greyed as stale until the whole comparison is in (finished()).
    const auto& ids = autoscalers();
    m_table->setRowCount(static_cast<int>(ids.size()));
    for (size_t k = 0; k < ids.size(); ++k) {
        const auto row = static_cast<int>(k);
        const auto known = std::find_if(partial.results.begin(), partial.results.end(),
                                        [&](const model::ServiceRunResult& r) { return r.autoscaler == ids[k]; });
        if (known != partial.results.end()) {
            fillRow(row, *known);
            continue;
        }
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(ids[k])));
        for (int c = 1; c < m_table->columnCount(); ++c)
            m_table->setItem(row, c, new QTableWidgetItem(QStringLiteral("…")));
    }
    const QString text = pairText(partial.results, tr("The other autoscalers are still being simulated"));
    if (!text.isEmpty())
        m_summary->setText(text);
    emit pairShown();
}

void ServicesPage::showVariants()
{
    std::vector<SeriesLine> lines;
    const int pick = m_variantOf->currentIndex();
    if (pick >= 0 && pick < static_cast<int>(m_results.size())) {
        const auto& r = m_results[static_cast<size_t>(pick)];
        int colour = 0;
        for (size_t s = 0; s < r.services.size(); ++s) {
            const simcore::ServiceResult& service = r.services[s];
            for (size_t v = 0; v < service.variantNames.size(); ++v) {
                const model::ServiceCurve c = model::variantReplicasCurve(r, static_cast<int>(s), static_cast<int>(v));
                const QColor shade = jobTypeColour(colour++);
                if (std::none_of(c.values.begin(), c.values.end(), [](double n) { return n > 0.0; }))
                    continue; // a variant never used would only crowd the legend
                lines.push_back({QString::fromStdString(service.name + " on " + service.variantNames[v]), shade, 1.8,
                                 QVector<double>(c.hours.begin(), c.hours.end()),
                                 QVector<double>(c.values.begin(), c.values.end())});
            }
        }
    }
    const bool quiet = m_syncing;
    m_syncing = true;
    m_variants->setLines(lines);
    m_syncing = quiet;
    if (!quiet && m_zoom)
        m_variants->setTimeRange(m_zoom->first, m_zoom->second);
}

std::vector<ChartWidget*> ServicesPage::timeCharts() const
{
    return {m_replicas, m_attainment, m_variants};
}

void ServicesPage::syncTime(ChartWidget* source, double lower, double upper)
{
    if (m_syncing)
        return;
    if (source != nullptr) // the user zoomed or panned it
        m_zoom = std::pair{lower, upper};
    m_syncing = true;
    for (ChartWidget* chart : timeCharts())
        if (chart != source)
            chart->setTimeRange(lower, upper);
    m_syncing = false;
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
// ComparePage's inference services (docs/services.md): per service a table of the shown runs'
// figures, and replicas and SLO attainment over the day side by side, one line per run. The same
// cells and lines as the report's "Inference services" page.
#include "comparepage.h"
#include "comparepage_html.h"
#include "palette.h"
#include "reportservices.h"
#include "serieschart.h"
#include "service_run.h"
#include "workspace.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace ui {

namespace {

constexpr int kServiceChartsHeight = 300;
constexpr int kChartsHeight = 940; // the page's charts without services (createCharts)

struct ShownService
{
    int column = 0;
    QString name;
    const model::ServiceRunResult* run = nullptr;
};

} // namespace

QWidget* ComparePage::createServices()
{
    m_services = new QWidget;
    m_services->setObjectName(QStringLiteral("compareServices"));
    auto* layout = new QVBoxLayout(m_services);
    layout->setContentsMargins(0, 0, 0, 0);
    m_servicesTables = new QLabel;
    m_servicesTables->setObjectName(QStringLiteral("compareServicesTables"));
    m_servicesTables->setTextFormat(Qt::RichText);
    m_servicesTables->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_servicesTables);
    auto* pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Over the day, service:")));
    m_serviceOf = new QComboBox;
    m_serviceOf->setObjectName(QStringLiteral("compareServiceOf"));
    m_serviceOf->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    pick->addWidget(m_serviceOf);
    pick->addStretch(1);
    layout->addLayout(pick);
    auto* charts = new QHBoxLayout;
    m_serviceReplicas = new SeriesChart(tr("Replicas over the day"), tr("Replicas"));
    m_serviceReplicas->setObjectName(QStringLiteral("compareServiceReplicas"));
    m_serviceAttainment = new SeriesChart(tr("Requests within the SLO per 15 minutes"), tr("%"));
    m_serviceAttainment->setValueCeiling(100.0);
    m_serviceAttainment->setObjectName(QStringLiteral("compareServiceAttainment"));
    for (SeriesChart* c : {m_serviceReplicas, m_serviceAttainment}) {
        c->setMinimumHeight(kServiceChartsHeight);
        charts->addWidget(c, 1);
    }
    layout->addLayout(charts);
    m_services->setVisible(false);
    connect(m_serviceOf, &QComboBox::currentIndexChanged, this, &ComparePage::refreshServiceCharts);
    return m_services;
}

QString ComparePage::servicesText() const
{
    return m_servicesTables->text(); // cleared when no shown run has services
}

void ComparePage::refreshServices()
{
    const QList<int> keys = runs();
    std::vector<ShownService> shown;
    std::vector<const model::ServiceRunResult*> results;
    for (int i = 0; i < kMaxRuns; ++i) {
        const RunSpec* spec = m_workspace->runSpec(keys[i]);
        if (!spec || !spec->latest || !spec->latest->services)
            continue;
        const QString name = QStringLiteral("%1 %2")
                                 .arg(QChar(u'A' + i))
                                 .arg(spec->labelWithAutoscaler(spec->latest->services->autoscaler));
        shown.push_back({i, name, spec->latest->services.get()});
        results.push_back(spec->latest->services.get());
    }
    const bool any = !shown.empty();
    m_services->setVisible(any);
    m_services->parentWidget()->setMinimumHeight(kChartsHeight + (any ? kServiceChartsHeight + 60 : 0));
    const std::vector<std::string> names = serviceNames(results);
    QString html;
    for (const std::string& service : names) {
        html += QStringLiteral("<p><b>%1</b></p><table cellspacing='0' cellpadding='3'>")
                    .arg(QString::fromStdString(service).toHtmlEscaped()) +
                compareHeaderCells(tr("Run · autoscaler"), serviceHeaders());
        for (const ShownService& s : shown) {
            if (const model::ServiceSummary* summary = serviceSummary(*s.run, service)) {
                QStringList cells{s.name};
                cells << serviceCells(*summary);
                html += compareRowCells(
                    QStringLiteral("<span style='color:%1'>■</span> ").arg(runColour(s.column).name()), cells);
            }
        }
        html += QStringLiteral("</table>");
    }
    if (any)
        html.prepend(tr("<b>Inference services</b> <small>(docs/services.md)</small>"));
    m_servicesTables->setText(html);
    // The picker keeps its choice while the shown runs keep that service.
    const QString picked = m_serviceOf->currentData().toString();
    {
        const QSignalBlocker block(m_serviceOf);
        m_serviceOf->clear();
        m_serviceOf->addItem(tr("All services"), QString());
        for (const std::string& service : names)
            if (service != "overall")
                m_serviceOf->addItem(QString::fromStdString(service), QString::fromStdString(service));
        m_serviceOf->setCurrentIndex(std::max(0, m_serviceOf->findData(picked)));
    }
    refreshServiceCharts();
}

void ComparePage::refreshServiceCharts()
{
    const std::string service = m_serviceOf->currentData().toString().toStdString();
    const QList<int> keys = runs();
    std::vector<SeriesLine> replicas;
    std::vector<SeriesLine> attainment;
    for (int i = 0; i < kMaxRuns; ++i) {
        const RunSpec* spec = m_workspace->runSpec(keys[i]);
        if (!spec || !spec->latest || !spec->latest->services)
            continue;
        const model::ServiceRunResult& run = *spec->latest->services;
        const QString name =
            QStringLiteral("%1 %2").arg(QChar(u'A' + i)).arg(spec->labelWithAutoscaler(run.autoscaler));
        const QColor colour = spec->stale() && !spec->running() ? staleLineColour() : runColour(i);
        SeriesLine r = serviceLine(run, service, ServiceMeasure::Replicas, name, colour);
        SeriesLine a = serviceLine(run, service, ServiceMeasure::Attainment, name, colour);
        if (!r.hours.isEmpty()) {
            replicas.push_back(std::move(r));
            attainment.push_back(std::move(a));
        }
    }
    m_serviceReplicas->setLines(replicas);
    m_serviceAttainment->setLines(attainment);
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "costdialog.h"

#include "cost_reader.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace ui {

std::vector<double> parseCurveText(const QString& text)
{
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    const QStringList parts = text.split(separators, Qt::SkipEmptyParts);
    std::vector<double> out;
    for (const QString& part : parts) {
        bool ok = false;
        double v = QLocale::c().toDouble(part, &ok);
        if (!ok)
            v = QLocale().toDouble(part, &ok);
        if (!ok)
            return {};
        out.push_back(v);
    }
    return out;
}

QString curveText(const std::vector<double>& curve)
{
    QStringList parts;
    for (double v : curve)
        parts << QString::number(v, 'g', QLocale::FloatingPointShortest); // reads back to the same bits
    return parts.join(QStringLiteral(", "));
}

namespace {

void curveProblems(const QString& name, const std::vector<double>& curve, double max, QStringList& out)
{
    if (curve.empty()) {
        out << CostDialog::tr("%1: not a number or a list of numbers").arg(name);
        return;
    }
    if (curve.size() != 1 && curve.size() != 24)
        out << CostDialog::tr("%1: %2 values; give one value or 24 (one per hour)").arg(name).arg(curve.size());
    for (double v : curve) {
        if (!(v >= 0.0 && v <= max)) {
            out << CostDialog::tr("%1: every value must be between 0 and %2").arg(name, QLocale().toString(max));
            return;
        }
    }
}

/// A few wrapped lines: 24 hourly values stay readable without scrolling sideways.
QPlainTextEdit* curveEdit(const QString& text)
{
    auto* edit = new QPlainTextEdit(text);
    edit->setTabChangesFocus(true);
    edit->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    const int lines = 3;
    edit->setFixedHeight(edit->fontMetrics().lineSpacing() * lines + 2 * edit->frameWidth() + 12);
    return edit;
}

} // namespace

CostDialog::CostDialog(const std::optional<model::CostSettings>& settings, QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("costDialog"));
    setWindowTitle(tr("Cost and carbon"));
    setupWidgets(settings.value_or(model::CostSettings{}));
    m_enabled->setChecked(settings.has_value());
    connect(m_currency, &QLineEdit::textChanged, this, &CostDialog::validate);
    for (QPlainTextEdit* edit : {m_price, m_carbon})
        connect(edit, &QPlainTextEdit::textChanged, this, &CostDialog::validate);
    connect(m_enabled, &QCheckBox::toggled, this, &CostDialog::validate);
    connect(m_gpuHour, &QDoubleSpinBox::valueChanged, this, &CostDialog::validate);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    validate();
}

void CostDialog::setupWidgets(const model::CostSettings& s)
{
    m_enabled = new QCheckBox(tr("Count cost and carbon for this scenario"));
    m_enabled->setObjectName(QStringLiteral("costEnabled"));
    m_currency = new QLineEdit(QString::fromStdString(s.currency));
    m_currency->setObjectName(QStringLiteral("currency"));
    m_currency->setMaxLength(static_cast<int>(model::kMaxCurrencyLength));
    m_price = curveEdit(curveText(s.pricePerKwh));
    m_price->setObjectName(QStringLiteral("pricePerKwh"));
    m_price->setToolTip(tr("One price for the whole day, or 24 prices: 00:00-01:00, 01:00-02:00, …"));
    m_carbon = curveEdit(curveText(s.carbonGPerKwh));
    m_carbon->setObjectName(QStringLiteral("carbonGPerKwh"));
    m_carbon->setToolTip(tr("One intensity for the whole day, or 24 hourly values (gCO2 per kWh)"));
    m_gpuHour = new QDoubleSpinBox;
    m_gpuHour->setObjectName(QStringLiteral("gpuHourCost"));
    m_gpuHour->setRange(0.0, model::kMaxGpuHourCost);
    m_gpuHour->setDecimals(4);
    m_gpuHour->setValue(s.gpuHourCost);
    m_gpuHour->setToolTip(tr("Purchase and hosting spread over the GPU's life, per hour"));
    m_problems = new QLabel;
    m_problems->setObjectName(QStringLiteral("costProblems"));
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("QLabel { color: #8a1c1c; }"));
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);

    auto* form = new QFormLayout;
    form->addRow(tr("Currency:"), m_currency);
    form->addRow(tr("Energy price (per kWh):"), m_price);
    form->addRow(tr("Carbon intensity (gCO2/kWh):"), m_carbon);
    form->addRow(tr("GPU cost (per GPU-hour):"), m_gpuHour);
    auto* hint = new QLabel(tr("Prices and intensities: one value, or 24 values separated by commas, one per hour "
                               "of the simulated day (minute 0 is 00:00)."));
    hint->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_enabled);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addWidget(m_problems);
    layout->addWidget(m_buttons);
    setMinimumWidth(560);
}

std::optional<model::CostSettings> CostDialog::settings() const
{
    if (!m_enabled->isChecked())
        return std::nullopt;
    model::CostSettings s;
    s.currency = m_currency->text().trimmed().toStdString();
    s.pricePerKwh = parseCurveText(m_price->toPlainText());
    s.carbonGPerKwh = parseCurveText(m_carbon->toPlainText());
    s.gpuHourCost = m_gpuHour->value();
    return s;
}

QStringList CostDialog::problems() const
{
    const auto s = settings();
    QStringList out;
    if (!s)
        return out;
    if (s->currency.empty())
        out << tr("Currency: give a name, e.g. USD");
    curveProblems(tr("Energy price"), s->pricePerKwh, model::kMaxPricePerKwh, out);
    curveProblems(tr("Carbon intensity"), s->carbonGPerKwh, model::kMaxCarbonGPerKwh, out);
    // Whatever the fields above do not catch (e.g. control characters), as the file reader says it.
    if (out.isEmpty()) {
        for (const std::string& p : model::costSettingsProblems(*s))
            out << QString::fromStdString(p);
    }
    return out;
}

void CostDialog::validate()
{
    const bool on = m_enabled->isChecked();
    for (QWidget* w : std::initializer_list<QWidget*>{m_currency, m_price, m_carbon, m_gpuHour})
        w->setEnabled(on);
    const QStringList list = problems();
    m_problems->setText(list.join(QLatin1Char('\n')));
    m_problems->setVisible(!list.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(list.isEmpty());
}

} // namespace ui

// SPDX-License-Identifier: GPL-3.0-or-later
#include "theme.h"

#include "palette.h"

#include <QActionGroup>
#include <QApplication>
#include <QMenu>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <qcustomplot.h>

namespace ui {

namespace {

Theme g_theme = Theme::System;
QString g_systemStyle; ///< the style before the first applyTheme(), for System

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31);
    const QColor base(0x1f, 0x21, 0x24);
    const QColor text(0xe6, 0xe8, 0xeb);
    const QColor disabled(0x80, 0x85, 0x8c);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2c));
    p.setColor(QPalette::ToolTipBase, QColor(0x38, 0x3b, 0x40));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x38, 0x3d));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x45, 0x48, 0x4e));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x3d, 0x42));
    p.setColor(QPalette::Mid, QColor(0x50, 0x54, 0x5a));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Shadow, QColor(0x0c, 0x0c, 0x0d));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xd8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xf0));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x90, 0xe0));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

/// Restyles every chart before it replots; installed once, on the first applyTheme().
class PlotStyler : public QObject
{
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Show)
            if (auto* plot = qobject_cast<QCustomPlot*>(watched); plot && !plot->property("migsightStyled").toBool()) {
                plot->setProperty("migsightStyled", true);
                connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { stylePlot(plot); });
                stylePlot(plot);
            }
        return false;
    }
};

void styleAxis(QCPAxis* axis, const QColor& text, const QColor& line)
{
    const bool frame = axis->axisType() == QCPAxis::atTop || axis->axisType() == QCPAxis::atRight;
    const QColor pen = frame ? borderColour() : line;
    axis->setBasePen(QPen(pen, axis->basePen().widthF()));
    axis->setTickPen(QPen(pen, axis->tickPen().widthF()));
    axis->setSubTickPen(QPen(pen, axis->subTickPen().widthF()));
    axis->setLabelColor(text);
    axis->setTickLabelColor(text);
    QPen grid = axis->grid()->pen();
    grid.setColor(gridColour());
    axis->grid()->setPen(grid);
    QPen zero = axis->grid()->zeroLinePen();
    if (zero.style() != Qt::NoPen) {
        zero.setColor(borderColour());
        axis->grid()->setZeroLinePen(zero);
    }
}

/// Near-black "ink" (totals, lower-bound marks) would vanish on a dark chart: such pens take
/// the text colour there and get their own colour back in light.
template <typename T>
void followInk(T* object, const QColor& text)
{
    QPen pen = object->pen();
    if (!object->property("migsightInk").isValid())
        object->setProperty("migsightInk", pen.color().lightness() < 60 ? QVariant(pen.color()) : QVariant(QColor()));
    const QColor ink = object->property("migsightInk").template value<QColor>();
    if (!ink.isValid())
        return;
    pen.setColor(isDarkTheme() ? text : ink);
    object->setPen(pen);
}

} // namespace

void stylePlot(QCustomPlot* plot)
{
    const QPalette palette = QApplication::palette();
    const QColor text = palette.color(QPalette::WindowText);
    const QColor line = axisLineColour();
    plot->setBackground(palette.color(QPalette::Base));
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(Qt::NoBrush);
        for (QCPAxis* axis : rect->axes())
            styleAxis(axis, text, line);
    }
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i) {
        if (auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i)))
            title->setTextColor(text);
        else if (auto* scale = qobject_cast<QCPColorScale*>(plot->plotLayout()->elementAt(i)))
            styleAxis(scale->axis(), text, line); // its axis is not among the plot's axis rects
    }
    for (int i = 0; i < plot->plottableCount(); ++i)
        followInk(plot->plottable(i), text);
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto* segment = qobject_cast<QCPItemLine*>(plot->item(i)))
            followInk(segment, text);
        else if (auto* straight = qobject_cast<QCPItemStraightLine*>(plot->item(i)))
            followInk(straight, text);
    }
    if (plot->legend) {
        plot->legend->setBrush(palette.color(QPalette::Base));
        plot->legend->setBorderPen(QPen(borderColour()));
        plot->legend->setTextColor(text);
    }
}

Theme savedTheme()
{
    Theme theme = Theme::System;
    (void)parseTheme(QSettings().value(QStringLiteral("view/theme")).toString(), theme);
    return theme;
}

Theme currentTheme()
{
    return g_theme;
}

QString themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

bool parseTheme(const QString& name, Theme& theme)
{
    for (Theme t : {Theme::System, Theme::Light, Theme::Dark})
        if (name == themeName(t)) {
            theme = t;
            return true;
        }
    return false;
}

void applyTheme(Theme theme, bool remember)
{
    static PlotStyler* styler = nullptr;
    if (styler == nullptr) {
        g_systemStyle = QApplication::style()->name();
        styler = new PlotStyler(qApp);
        qApp->installEventFilter(styler);
    }
    g_theme = theme;
    if (remember)
        QSettings().setValue(QStringLiteral("view/theme"), themeName(theme));
    if (theme == Theme::System) {
        QApplication::setStyle(QStyleFactory::create(g_systemStyle));
        QApplication::setPalette(QApplication::style()->standardPalette());
    } else {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(theme == Theme::Dark ? darkPalette() : QApplication::style()->standardPalette());
    }
    for (QWidget* widget : QApplication::allWidgets()) {
        if (auto* plot = qobject_cast<QCustomPlot*>(widget)) {
            stylePlot(plot);
            plot->replot(QCustomPlot::rpQueuedReplot);
        } else {
            widget->update();
        }
    }
}

void addThemeMenu(QMenu* view)
{
    QMenu* menu = view->addMenu(QObject::tr("&Theme"));
    menu->setObjectName(QStringLiteral("themeMenu"));
    auto* group = new QActionGroup(menu);
    const std::pair<Theme, QString> items[] = {{Theme::System, QObject::tr("&System")},
                                               {Theme::Light, QObject::tr("&Light")},
                                               {Theme::Dark, QObject::tr("&Dark")}};
    for (const auto& [theme, label] : items) {
        QAction* action = menu->addAction(label);
        action->setCheckable(true);
        action->setChecked(theme == g_theme);
        action->setObjectName(QStringLiteral("theme-") + themeName(theme));
        action->setStatusTip(QObject::tr("Use the %1 colour scheme in every window and chart").arg(themeName(theme)));
        group->addAction(action);
        QObject::connect(action, &QAction::triggered, menu, [theme = theme] { applyTheme(theme); });
    }
}

} // namespace ui

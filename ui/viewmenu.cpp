// SPDX-License-Identifier: GPL-3.0-or-later
#include "viewmenu.h"

#include "theme.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>

namespace ui {

void setupViewMenu(QMenuBar* bar, QTabWidget* pages)
{
    QMenu* view = bar->addMenu(QObject::tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    for (int i = 0; i < pages->count() && i < 9; ++i) {
        QAction* action = view->addAction(pages->tabText(i));
        action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
        action->setStatusTip(QObject::tr("Show the %1 page").arg(pages->tabText(i).remove(QLatin1Char('&'))));
        QWidget* page = pages->widget(i);
        QObject::connect(action, &QAction::triggered, pages, [pages, page] { pages->setCurrentWidget(page); });
    }
    view->addSeparator();
    addThemeMenu(view);
}

namespace {

/// A splitter's settings key: its object name, else its place among the window's splitters
/// (the pages build them in a fixed order).
QString splitterKey(const QSplitter* splitter, qsizetype index)
{
    return QStringLiteral("splitters/") +
           (splitter->objectName().isEmpty() ? QString::number(index) : splitter->objectName());
}

} // namespace

void saveWindowState(QMainWindow* window)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), window->saveGeometry());
    settings.setValue(QStringLiteral("window/state"), window->saveState());
    if (auto* pages = window->findChild<QTabWidget*>(QStringLiteral("pages")))
        settings.setValue(QStringLiteral("window/page"), pages->currentIndex());
    const QList<QSplitter*> splitters = window->findChildren<QSplitter*>();
    for (qsizetype i = 0; i < splitters.size(); ++i)
        settings.setValue(splitterKey(splitters[i], i), splitters[i]->saveState());
}

void restoreWindowState(QMainWindow* window)
{
    const QSettings settings;
    window->restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    window->restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    if (auto* pages = window->findChild<QTabWidget*>(QStringLiteral("pages")))
        pages->setCurrentIndex(settings.value(QStringLiteral("window/page"), 0).toInt());
    const QList<QSplitter*> splitters = window->findChildren<QSplitter*>();
    for (qsizetype i = 0; i < splitters.size(); ++i)
        splitters[i]->restoreState(settings.value(splitterKey(splitters[i], i)).toByteArray());
}

} // namespace ui

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

#include <algorithm>

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
    QAction* reset = view->addAction(QObject::tr("&Reset layout"));
    reset->setObjectName(QStringLiteral("resetLayoutAction"));
    reset->setStatusTip(QObject::tr("Give every page's panels their first sizes again"));
    QObject::connect(reset, &QAction::triggered, pages, [pages] {
        if (auto* window = qobject_cast<QMainWindow*>(pages->window()))
            resetWindowLayout(window);
    });
}

namespace {

const char* const kDefaultState = "migsightDefaultState";

/// A splitter's settings key: its object name, else its place among the window's splitters
/// (the pages build them in a fixed order).
QString splitterKey(const QSplitter* splitter, qsizetype index)
{
    return QStringLiteral("splitters/") +
           (splitter->objectName().isEmpty() ? QString::number(index) : splitter->objectName());
}

/// Restores a saved splitter state unless it would stack the panels (a state saved for another
/// splitter at that place turns a row into a column) or collapse one of them (a page saved before it
/// was ever laid out); the first state is kept for View › Reset layout.
void restoreSplitter(QSplitter* splitter, const QByteArray& saved)
{
    if (!splitter->property(kDefaultState).isValid())
        splitter->setProperty(kDefaultState, splitter->saveState());
    if (saved.isEmpty())
        return;
    const Qt::Orientation orientation = splitter->orientation();
    const QList<int> sizes = splitter->sizes();
    if (!splitter->restoreState(saved))
        return;
    const QList<int> now = splitter->sizes();
    bool collapsed = false; // a panel that had room and has none now
    for (qsizetype i = 0; i < std::min(now.size(), sizes.size()); ++i)
        collapsed = collapsed || (now[i] <= 0 && sizes[i] > 0);
    if (splitter->orientation() != orientation || now.size() != sizes.size() || collapsed) {
        splitter->setOrientation(orientation);
        splitter->setSizes(sizes);
    }
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
        restoreSplitter(splitters[i], settings.value(splitterKey(splitters[i], i)).toByteArray());
}

void resetWindowLayout(QMainWindow* window)
{
    QSettings settings;
    const QList<QSplitter*> splitters = window->findChildren<QSplitter*>();
    for (qsizetype i = 0; i < splitters.size(); ++i) {
        settings.remove(splitterKey(splitters[i], i));
        const QVariant first = splitters[i]->property(kDefaultState);
        if (first.isValid())
            splitters[i]->restoreState(first.toByteArray());
    }
}

} // namespace ui

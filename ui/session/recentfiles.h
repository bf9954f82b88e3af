// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace ui {

/// The File › Open Recent list, kept in QSettings ("recentFiles"), newest first, at most
/// maxCount() entries. The menu is rebuilt whenever it is about to show, so a file deleted
/// meanwhile is still listed until it is chosen (then it is removed, with a message).
class RecentFiles : public QObject
{
    Q_OBJECT

public:
    explicit RecentFiles(QObject* parent = nullptr);

    [[nodiscard]] static int maxCount() { return 10; }
    [[nodiscard]] QStringList files() const;
    /// Moves @p path to the top (adds it if new).
    void add(const QString& path);
    void remove(const QString& path);
    void clear();
    /// Fills @p menu with the files (Ctrl-less mnemonics 1..9) and "Clear Menu".
    void populate(QMenu* menu);

signals:
    /// The user chose a file of the menu.
    void openRequested(const QString& path);

private:
    void store(const QStringList& files);
};

} // namespace ui

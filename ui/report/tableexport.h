// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QAbstractItemModel;
class QTextStream;

namespace ui {

/// Writes a table model as CSV (RFC 4180 quoting): the horizontal header, then every row's
/// display text. Sorting and filtering of a proxy are kept, so the file matches the view.
void writeModelCsv(QTextStream& out, const QAbstractItemModel& model);
/// The same into a file; false (with @p error) when it cannot be written.
bool saveModelCsv(const QString& path, const QAbstractItemModel& model, QString* error = nullptr);

} // namespace ui

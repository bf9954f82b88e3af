// SPDX-License-Identifier: GPL-3.0-or-later
#include "tableexport.h"

#include "savefile.h"

#include <QAbstractItemModel>
#include <QStringList>
#include <QTextStream>

namespace ui {

namespace {

QString csvField(QString text)
{
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n'))) {
        text.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + text + QLatin1Char('"');
    }
    return text;
}

} // namespace

void writeModelCsv(QTextStream& out, const QAbstractItemModel& model)
{
    QStringList fields;
    for (int c = 0; c < model.columnCount(); ++c)
        fields << csvField(model.headerData(c, Qt::Horizontal).toString().simplified()); // one-line names
    out << fields.join(QLatin1Char(',')) << '\n';
    for (int r = 0; r < model.rowCount(); ++r) {
        fields.clear();
        for (int c = 0; c < model.columnCount(); ++c)
            fields << csvField(model.index(r, c).data().toString());
        out << fields.join(QLatin1Char(',')) << '\n';
    }
}

bool saveModelCsv(const QString& path, const QAbstractItemModel& model, QString* error)
{
    QString text;
    QTextStream out(&text);
    writeModelCsv(out, model);
    out.flush();
    return saveFileAtomically(path, text.toUtf8(), error);
}

} // namespace ui

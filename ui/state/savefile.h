// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "atomic_file.h"

#include <QByteArray>
#include <QString>

#include <exception>

namespace ui {

/// @brief Writes @p bytes to @p path as every output of migsight-cli is written
/// (model::writeFileAtomically: a temporary file renamed over the target, which must be a regular
/// file; docs/limits.md, "Output files"), so a failed save leaves the old file as it was.
/// @return false with the reason in @p error (when given) instead of an exception.
inline bool saveFileAtomically(const QString& path, const QByteArray& bytes, QString* error)
{
    try {
        model::writeFileAtomically(path.toStdString(), bytes.toStdString());
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

} // namespace ui

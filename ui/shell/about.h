// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace ui {

/// The program version ("0.1.0").
[[nodiscard]] QString versionString();

/// The About box text (HTML): version, licence, and the licences of the libraries inside.
[[nodiscard]] QString aboutHtml();

} // namespace ui

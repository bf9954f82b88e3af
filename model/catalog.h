// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "geometry.h"
#include "problems.h"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace model {

/// @brief The GPU boards MIGsight knows, loaded from resources/catalogs/*.json.
class Catalog
{
public:
    /// Loads every *.json of @p dir (sorted by name); problems are collected, bad files skipped.
    static Catalog loadDir(const std::filesystem::path& dir, Problems& problems);
    /// The catalog of the resource folder, loaded once. Throws std::runtime_error if it is broken.
    static const Catalog& builtin();

    [[nodiscard]] const simcore::GpuModel* find(std::string_view name) const;
    [[nodiscard]] const std::vector<std::shared_ptr<const simcore::GpuModel>>& models() const { return m_models; }
    [[nodiscard]] std::string names() const; ///< "A100-40GB, A100-80GB, ..."

private:
    std::vector<std::shared_ptr<const simcore::GpuModel>> m_models;
};

/// @brief Parses one catalog file's text. Problems carry @p file and JSON paths.
[[nodiscard]] std::shared_ptr<simcore::GpuModel> parseCatalog(const std::string& text, const std::string& file,
                                                              Problems& problems);

/// @brief Parses "3g.20gb@4" (or a bare "3g.20gb", start -1) against a board's profiles.
/// Returns false with a message when the profile is unknown or the start is not a number.
bool parsePlacement(const simcore::GpuModel& gpu, std::string_view text, simcore::Placement& out, std::string& error);

/// @brief Resolves a list of "profile[@start]" texts to a layout: given starts are kept; when no
/// start is given at all, a valid placement is searched in the listed order.
bool resolveLayout(const simcore::GpuModel& gpu, const std::vector<std::string>& items, simcore::Layout& out,
                   std::string& error);

} // namespace model

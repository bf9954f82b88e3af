// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace policies {
class Registry;
} // namespace policies

namespace model {

/// @brief The registry every run, scenario check and policy list of this process looks policies up
/// in: the built-in one, unless the host installed another with usePolicyRegistry() (the built-in
/// policies plus a plugin's: docs/python.md, "Plugins").
[[nodiscard]] const policies::Registry& policyRegistry();

/// @brief Makes @p registry the one policyRegistry() returns. Call it before runs start (the CLI
/// after loading its --plugin files, the studio at start, the Python module when imported);
/// @p registry must live until the process ends.
void usePolicyRegistry(const policies::Registry& registry);

} // namespace model

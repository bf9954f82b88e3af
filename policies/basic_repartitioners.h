// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"

namespace policies {

/// @brief Static: every GPU keeps the scenario's layout all day.
class StaticRepartitioner : public simcore::Repartitioner
{
public:
    [[nodiscard]] bool readsQueueOrder() const override { return false; }
};

/// @brief No partitioning: every GPU is one whole-GPU instance (7g) all day.
class NoPartitioning : public simcore::Repartitioner
{
public:
    std::vector<simcore::Layout> initialLayouts(const simcore::RunSetup& setup) override;
    [[nodiscard]] bool readsQueueOrder() const override { return false; }
};

} // namespace policies

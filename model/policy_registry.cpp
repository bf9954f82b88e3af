// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy_registry.h"

#include "registry.h"

#include <atomic>

namespace model {

namespace {
std::atomic<const policies::Registry*> g_registry{nullptr};
} // namespace

const policies::Registry& policyRegistry()
{
    const policies::Registry* r = g_registry.load(std::memory_order_acquire);
    return r != nullptr ? *r : policies::builtinRegistry();
}

void usePolicyRegistry(const policies::Registry& registry)
{
    g_registry.store(&registry, std::memory_order_release);
}

} // namespace model

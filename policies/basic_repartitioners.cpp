// SPDX-License-Identifier: GPL-3.0-or-later
#include "basic_repartitioners.h"

namespace policies {

std::vector<simcore::Layout> NoPartitioning::initialLayouts(const simcore::RunSetup& setup)
{
    std::vector<simcore::Layout> layouts;
    for (const auto* model : setup.gpus)
        layouts.push_back({{model->wholeGpuProfile(), 0}});
    return layouts;
}

} // namespace policies

// SPDX-License-Identifier: GPL-3.0-or-later
#include "distribution.h"

#include <cstdlib>

namespace model {

namespace {

unsigned wholeNumber(const std::string& text, const std::string& what, const std::string& all)
{
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument("--shard '" + all + "': the " + what + " is not a whole number");
    return static_cast<unsigned>(std::strtoul(text.c_str(), nullptr, 10));
}

} // namespace

Shard parseShard(const std::string& text)
{
    const auto slash = text.find('/');
    if (slash == std::string::npos)
        throw std::invalid_argument("--shard needs INDEX/COUNT, e.g. 0/8 (indices from 0), got '" + text + "'");
    Shard s;
    s.index = wholeNumber(text.substr(0, slash), "index", text);
    s.count = wholeNumber(text.substr(slash + 1), "count", text);
    if (s.count < 1 || s.count > kMaxShards)
        throw std::invalid_argument("--shard '" + text + "': the count must be from 1 to " +
                                    std::to_string(kMaxShards));
    if (s.index >= s.count)
        throw std::invalid_argument("--shard '" + text + "': the index must be below the count (indices from 0; " +
                                    "Slurm: --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT with --array=0-N)");
    return s;
}

std::vector<size_t> shardCases(const std::vector<size_t>& order, const Shard& shard)
{
    std::vector<size_t> out;
    for (size_t p = shard.index; p < order.size(); p += shard.count)
        out.push_back(order[p]);
    return out;
}

} // namespace model

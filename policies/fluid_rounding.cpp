// SPDX-License-Identifier: GPL-3.0-or-later
#include "fluid_rounding.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace policies {

std::vector<int> roundMix(const std::vector<double>& mix, int gpus, const std::vector<int>& previous)
{
    const size_t n = mix.size();
    std::vector<int> counts(n, 0);
    std::vector<double> remainder(n, 0.0);
    int given = 0;
    for (size_t c = 0; c < n; ++c) {
        const double share = std::max(0.0, mix[c]);
        // LP values a hair under a whole number are that whole number.
        counts[c] = static_cast<int>(std::floor(share + 1e-9));
        remainder[c] = std::max(0.0, share - counts[c]);
        given += counts[c];
    }
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t{0});
    auto prev = [&](size_t c) { return c < previous.size() ? previous[c] : 0; };
    std::stable_sort(order.begin(), order.end(), [&](size_t l, size_t r) {
        if (std::abs(remainder[l] - remainder[r]) > 1e-9)
            return remainder[l] > remainder[r];
        if (prev(l) != prev(r))
            return prev(l) > prev(r);
        return l < r;
    });
    for (size_t i = 0; given < gpus && n > 0; i = (i + 1) % n) {
        ++counts[order[i]];
        ++given;
    }
    // A mix that sums above the fleet (never from the LP) loses GPUs from the smallest remainders.
    for (size_t i = n; given > gpus && i-- > 0;) {
        const int take = std::min(counts[order[i]], given - gpus);
        counts[order[i]] -= take;
        given -= take;
    }
    return counts;
}

std::vector<int> assignGpus(const std::vector<int>& current, const std::vector<int>& counts)
{
    const int total = std::accumulate(counts.begin(), counts.end(), 0);
    if (total != static_cast<int>(current.size()))
        throw std::invalid_argument("assignGpus: the counts must add up to the GPUs");
    std::vector<int> want = counts;
    std::vector<int> out(current.size(), -1);
    for (size_t g = 0; g < current.size(); ++g) {
        const int c = current[g];
        if (c >= 0 && c < static_cast<int>(want.size()) && want[static_cast<size_t>(c)] > 0) {
            out[g] = c;
            --want[static_cast<size_t>(c)];
        }
    }
    size_t next = 0;
    for (auto& o : out) {
        if (o >= 0)
            continue;
        while (want[next] == 0)
            ++next;
        o = static_cast<int>(next);
        --want[next];
    }
    return out;
}

} // namespace policies

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace model {

/// @brief Runs @p task(t) once for every t in [0, tasks) on up to @p threads threads (0: every
/// core), the calling thread included. Each task writes only its own results, so the outcome does
/// not depend on the thread count. A task's exception does not stop the others; afterwards the one
/// of the lowest index is thrown again as std::runtime_error with its message.
/// @param keepGoing asked before each task; once it returns false no task starts and the result
///        is false.
template <typename Task>
bool parallelFor(size_t tasks, unsigned threads, Task task, const std::function<bool()>& keepGoing = {})
{
    std::vector<std::string> errors(tasks);
    std::atomic<size_t> next{0};
    std::atomic<bool> stopped{false};
    auto worker = [&] {
        for (size_t t = next++; t < tasks && !stopped; t = next++) {
            if (keepGoing && !keepGoing()) {
                stopped = true;
                break;
            }
            try {
                task(t);
            } catch (const std::exception& e) {
                errors[t] = e.what();
            }
        }
    };
    const unsigned n = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < std::min<size_t>(n, tasks); ++i)
        pool.emplace_back(worker);
    worker();
    for (auto& th : pool)
        th.join();
    if (stopped)
        return false;
    for (const auto& e : errors) {
        if (!e.empty())
            throw std::runtime_error(e);
    }
    return true;
}

} // namespace model

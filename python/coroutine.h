// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <exception>
#include <functional>
#include <ucontext.h>

namespace pymig {

/// @brief A stackful coroutine: runs a body on its own stack and lets the body hand control back
/// to the host in the middle of a call chain (docs/python.md, "How the environment steps").
///
/// The environment uses it to pause the engine inside Repartitioner::decide() and return the
/// observation to Python; Engine::step() itself cannot stop half-way. Only the thread that created
/// it may resume it. An exception that leaves the body is kept and rethrown by resume().
class Coroutine
{
public:
    explicit Coroutine(std::function<void()> body, size_t stackBytes = size_t{8} << 20);
    ~Coroutine();
    Coroutine(const Coroutine&) = delete;
    Coroutine& operator=(const Coroutine&) = delete;

    /// Runs the body until it yields or returns. @throws what the body threw.
    void resume();
    /// From inside the body: back to the host's resume().
    void yield();
    [[nodiscard]] bool done() const { return m_done; }
    [[nodiscard]] bool running() const { return m_inside; }

private:
    static void entry(unsigned lo, unsigned hi);

    std::function<void()> m_body;
    void* m_stack = nullptr;
    size_t m_stackBytes = 0;
    ucontext_t m_host{};
    ucontext_t m_self{};
    std::exception_ptr m_error;
    bool m_started = false;
    bool m_done = false;
    bool m_inside = false;
};

} // namespace pymig

// SPDX-License-Identifier: GPL-3.0-or-later
#include "coroutine.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace pymig {

Coroutine::Coroutine(std::function<void()> body, size_t stackBytes) : m_body(std::move(body)), m_stackBytes(stackBytes)
{
    // Reserved, not committed: pages are touched only as deep as the engine's calls go. The lowest
    // page is a guard, so an overflow is a crash rather than a silent overwrite.
    m_stack = mmap(nullptr, m_stackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m_stack == MAP_FAILED)
        throw std::system_error(errno, std::generic_category(), "migsight: no memory for the environment's stack");
    mprotect(m_stack, static_cast<size_t>(sysconf(_SC_PAGESIZE)), PROT_NONE);
}

Coroutine::~Coroutine()
{
    munmap(m_stack, m_stackBytes);
}

void Coroutine::entry(unsigned lo, unsigned hi)
{
    auto* self = reinterpret_cast<Coroutine*>((static_cast<std::uintptr_t>(hi) << 32) | lo);
    try {
        self->m_body();
    } catch (...) {
        self->m_error = std::current_exception();
    }
    self->m_done = true;
    self->m_inside = false;
    swapcontext(&self->m_self, &self->m_host);
}

void Coroutine::resume()
{
    if (m_done)
        throw std::logic_error("migsight: the coroutine has finished");
    if (!m_started) {
        m_started = true;
        getcontext(&m_self);
        m_self.uc_stack.ss_sp = m_stack;
        m_self.uc_stack.ss_size = m_stackBytes;
        m_self.uc_link = nullptr;
        const auto p = reinterpret_cast<std::uintptr_t>(this);
        // makecontext passes int arguments: the pointer goes in two halves.
        makecontext(&m_self, reinterpret_cast<void (*)()>(&Coroutine::entry), 2, static_cast<unsigned>(p),
                    static_cast<unsigned>(p >> 32));
    }
    m_inside = true;
    swapcontext(&m_host, &m_self);
    if (m_error) {
        std::exception_ptr e = std::exchange(m_error, nullptr);
        std::rethrow_exception(e);
    }
}

void Coroutine::yield()
{
    m_inside = false;
    swapcontext(&m_self, &m_host);
    m_inside = true;
}

} // namespace pymig

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Plain values to bytes and back, for results sent between the processes of one job (a sweep's or
// a comparison's runs, training days: docs/cluster.md). One build of MIGsight runs on every
// process (same machine type), so values are copied as they are in memory, bit for bit.

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace simcore {

class Bytes
{
public:
    template <typename T>
    void put(const T& v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        m_data.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    void putString(const std::string& s)
    {
        put<std::uint64_t>(s.size());
        m_data += s;
    }
    template <typename T>
    void putVector(const std::vector<T>& v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        put<std::uint64_t>(v.size());
        m_data.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
    }
    [[nodiscard]] const std::string& data() const { return m_data; }
    [[nodiscard]] std::string take() { return std::move(m_data); }

private:
    std::string m_data;
};

/// Reads what Bytes wrote, in the same order. @throws std::runtime_error when the data ends early.
class BytesReader
{
public:
    explicit BytesReader(const std::string& data) : m_data(data) {}
    template <typename T>
    T get()
    {
        static_assert(std::is_trivially_copyable_v<T>);
        T v{};
        need(sizeof v);
        std::memcpy(&v, m_data.data() + m_pos, sizeof v);
        m_pos += sizeof v;
        return v;
    }
    std::string getString()
    {
        const auto n = get<std::uint64_t>();
        need(n);
        std::string s = m_data.substr(m_pos, n);
        m_pos += n;
        return s;
    }
    template <typename T>
    std::vector<T> getVector()
    {
        static_assert(std::is_trivially_copyable_v<T>);
        const auto n = get<std::uint64_t>();
        if (n > (m_data.size() - m_pos) / sizeof(T))
            need(m_data.size() + 1); // more elements than bytes left
        std::vector<T> v(static_cast<std::size_t>(n));
        std::memcpy(v.data(), m_data.data() + m_pos, v.size() * sizeof(T));
        m_pos += v.size() * sizeof(T);
        return v;
    }

private:
    void need(std::uint64_t n) const
    {
        if (n > m_data.size() - m_pos)
            throw std::runtime_error("data received from another process is cut short");
    }
    const std::string& m_data;
    std::size_t m_pos = 0;
};

} // namespace simcore

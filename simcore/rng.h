// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace simcore {

/// @brief Reproducible random numbers: std::mt19937_64 (its sequence is fixed by the standard)
/// with our own transforms, since the standard distributions differ between library versions.
class Rng
{
public:
    explicit Rng(std::uint64_t seed) : m_engine(seed) {}

    /// Uniform in [0, 1), 53 random bits.
    double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }
    /// Uniform in [lo, hi).
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    /// Exponential with the given mean (inverse transform).
    double exponential(double mean) { return -mean * std::log1p(-uniform()); }
    /// Standard normal (Box-Muller, cosine branch only: one normal per two uniforms).
    double normal()
    {
        const double u1 = 1.0 - uniform(); // (0, 1]
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
    }
    /// Log-normal with the given median and log-space standard deviation.
    double logNormal(double median, double sigma) { return median * std::exp(sigma * normal()); }
    /// Uniform integer in [0, n).
    std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : m_engine() % n; }
    std::uint64_t bits() { return m_engine(); }

private:
    std::mt19937_64 m_engine;
};

} // namespace simcore

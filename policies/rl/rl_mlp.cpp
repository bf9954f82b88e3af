// SPDX-License-Identifier: GPL-3.0-or-later
#include "rl_mlp.h"

#include <cmath>
#include <stdexcept>

namespace policies::rl {

Mlp::Mlp(const std::vector<int>& sizes, simcore::Rng& rng, double lastScale) : m_sizes(sizes)
{
    for (size_t l = 0; l + 1 < sizes.size(); ++l) {
        const int in = sizes[l];
        const int out = sizes[l + 1];
        const double bound = std::sqrt(6.0 / (in + out)) * (l + 2 == sizes.size() ? lastScale : 1.0);
        Eigen::MatrixXd w(out, in);
        for (int r = 0; r < out; ++r)
            for (int c = 0; c < in; ++c)
                w(r, c) = rng.uniform(-bound, bound);
        m_w.push_back(w);
        m_b.push_back(Eigen::VectorXd::Zero(out));
    }
}

void Mlp::forward(const double* input, double* out) const
{
    m_scratch.resize(m_w.size() + 1);
    m_scratch[0] = Eigen::Map<const Eigen::VectorXd>(input, m_sizes.front());
    for (size_t l = 0; l < m_w.size(); ++l) {
        m_scratch[l + 1].noalias() = m_w[l] * m_scratch[l];
        m_scratch[l + 1] += m_b[l];
        if (l + 1 < m_w.size())
            m_scratch[l + 1] = m_scratch[l + 1].array().tanh();
    }
    Eigen::Map<Eigen::VectorXd>(out, m_sizes.back()) = m_scratch.back();
}

Eigen::MatrixXd Mlp::forwardBatch(const Eigen::MatrixXd& x)
{
    m_acts.assign(1, x);
    Eigen::MatrixXd h = x;
    for (size_t l = 0; l < m_w.size(); ++l) {
        Eigen::MatrixXd z = m_w[l] * h;
        z.colwise() += m_b[l];
        if (l + 1 < m_w.size()) {
            h = z.array().tanh();
            m_acts.push_back(h);
        } else {
            h = z;
        }
    }
    return h;
}

void Mlp::backward(const Eigen::MatrixXd& dOut, std::vector<double>& grad) const
{
    // Offsets of each layer's (w, b) in the flat vector.
    std::vector<size_t> offset(m_w.size());
    size_t at = 0;
    for (size_t l = 0; l < m_w.size(); ++l) {
        offset[l] = at;
        at += static_cast<size_t>(m_w[l].size() + m_b[l].size());
    }
    Eigen::MatrixXd d = dOut;
    for (size_t l = m_w.size(); l-- > 0;) {
        const Eigen::MatrixXd& input = m_acts[l];
        Eigen::Map<Eigen::MatrixXd> gw(grad.data() + offset[l], m_w[l].rows(), m_w[l].cols());
        gw.noalias() += d * input.transpose();
        Eigen::Map<Eigen::VectorXd> gb(grad.data() + offset[l] + m_w[l].size(), m_b[l].size());
        gb += d.rowwise().sum();
        if (l > 0) {
            Eigen::MatrixXd back = m_w[l].transpose() * d;
            d = back.array() * (1.0 - input.array().square());
        }
    }
}

size_t Mlp::parameterCount() const
{
    size_t n = 0;
    for (size_t l = 0; l < m_w.size(); ++l)
        n += static_cast<size_t>(m_w[l].size() + m_b[l].size());
    return n;
}

std::vector<double> Mlp::flat() const
{
    std::vector<double> out;
    out.reserve(parameterCount());
    for (size_t l = 0; l < m_w.size(); ++l) {
        out.insert(out.end(), m_w[l].data(), m_w[l].data() + m_w[l].size());
        out.insert(out.end(), m_b[l].data(), m_b[l].data() + m_b[l].size());
    }
    return out;
}

void Mlp::setFlat(const std::vector<double>& values)
{
    if (values.size() != parameterCount())
        throw std::invalid_argument("network needs " + std::to_string(parameterCount()) + " parameters, got " +
                                    std::to_string(values.size()));
    size_t at = 0;
    for (size_t l = 0; l < m_w.size(); ++l) {
        std::copy(values.begin() + static_cast<long>(at), values.begin() + static_cast<long>(at + m_w[l].size()),
                  m_w[l].data());
        at += static_cast<size_t>(m_w[l].size());
        std::copy(values.begin() + static_cast<long>(at), values.begin() + static_cast<long>(at + m_b[l].size()),
                  m_b[l].data());
        at += static_cast<size_t>(m_b[l].size());
    }
}

void Adam::step(std::vector<double>& params, std::vector<double> grad)
{
    if (m.size() != params.size()) {
        m.assign(params.size(), 0.0);
        v.assign(params.size(), 0.0);
    }
    double norm = 0.0;
    for (double g : grad)
        norm += g * g;
    norm = std::sqrt(norm);
    const double scale = norm > maxGradNorm ? maxGradNorm / norm : 1.0;
    ++t;
    const double c1 = 1.0 - std::pow(beta1, static_cast<double>(t));
    const double c2 = 1.0 - std::pow(beta2, static_cast<double>(t));
    for (size_t i = 0; i < params.size(); ++i) {
        const double g = grad[i] * scale;
        m[i] = beta1 * m[i] + (1.0 - beta1) * g;
        v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
        params[i] -= lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
    }
}

} // namespace policies::rl

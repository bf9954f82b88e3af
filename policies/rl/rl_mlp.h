// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to policies/rl: include only from .cpp files (Eigen is slow to compile).

#include "rng.h"

#include <Eigen/Dense>

#include <vector>

namespace policies::rl {

/// @brief A small fully connected network: tanh hidden layers, linear output, double precision
/// (training and inference take the same path, so results are bit-identical).
class Mlp
{
public:
    Mlp() = default;
    /// @param sizes input, hidden..., output widths. Weights ~ U(-1,1) * sqrt(6/(in+out)) (Glorot),
    /// the last layer scaled by @p lastScale; biases 0.
    Mlp(const std::vector<int>& sizes, simcore::Rng& rng, double lastScale);

    [[nodiscard]] const std::vector<int>& sizes() const { return m_sizes; }
    [[nodiscard]] int layers() const { return static_cast<int>(m_w.size()); }
    Eigen::MatrixXd& weight(int l) { return m_w[static_cast<size_t>(l)]; }
    Eigen::VectorXd& bias(int l) { return m_b[static_cast<size_t>(l)]; }
    [[nodiscard]] const Eigen::MatrixXd& weight(int l) const { return m_w[static_cast<size_t>(l)]; }
    [[nodiscard]] const Eigen::VectorXd& bias(int l) const { return m_b[static_cast<size_t>(l)]; }

    /// One input: writes the output into @p out (size = last width). Uses internal scratch.
    void forward(const double* input, double* out) const;

    /// A batch (one sample per column); keeps the activations for backward().
    Eigen::MatrixXd forwardBatch(const Eigen::MatrixXd& x);
    /// Gradients of the loss given dL/d(output) of the last forwardBatch(), added to @p grad
    /// (flattened like flat()).
    void backward(const Eigen::MatrixXd& dOut, std::vector<double>& grad) const;

    [[nodiscard]] size_t parameterCount() const;
    [[nodiscard]] std::vector<double> flat() const;
    void setFlat(const std::vector<double>& values);

private:
    std::vector<int> m_sizes;
    std::vector<Eigen::MatrixXd> m_w; ///< out x in
    std::vector<Eigen::VectorXd> m_b;
    std::vector<Eigen::MatrixXd> m_acts; ///< batch activations: input, hidden..., (output not kept)
    mutable std::vector<Eigen::VectorXd> m_scratch;
};

/// @brief Adam optimiser over a flat parameter vector.
struct Adam
{
    double lr = 3e-4;
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-8;
    double maxGradNorm = 0.5;
    long long t = 0;
    std::vector<double> m;
    std::vector<double> v;
    /// params -= step(grad) (gradient clipped to maxGradNorm first).
    void step(std::vector<double>& params, std::vector<double> grad);
};

} // namespace policies::rl

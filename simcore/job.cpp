// SPDX-License-Identifier: GPL-3.0-or-later
#include "job.h"

#include "slices.h"

namespace simcore {

std::array<double, 8> speedupTable(double s2, double s3, double s4, double s7)
{
    const double s5 = s4 + (s7 - s4) / 3.0;
    const double s6 = s4 + 2.0 * (s7 - s4) / 3.0;
    return {0.0, 1.0, s2, s3, s4, s5, s6, s7};
}

std::vector<JobType> defaultJobTypes()
{
    return {
        {"bert_train", "BERT training", speedupTable(1.864, 2.636, 3.227, 4.773), true},
        {"resnet_train", "ResNet training", speedupTable(1.765, 2.309, 2.471, 2.868), true},
        {"bert_infer", "BERT inference", speedupTable(2.0, 3.0, 4.0, 7.0), false},
        {"resnet_infer", "ResNet inference", speedupTable(2.0, 3.0, 3.906, 5.75), false},
    };
}

double sublinearityScore(const JobType& type)
{
    const auto& sizes = kInstanceSizes;
    double mx = 0.0;
    double my = 0.0;
    for (int k : sizes) {
        mx += k;
        my += type.speedup[static_cast<size_t>(k)];
    }
    mx /= static_cast<double>(sizes.size());
    my /= static_cast<double>(sizes.size());
    double sxy = 0.0;
    double sxx = 0.0;
    for (int k : sizes) {
        sxy += (k - mx) * (type.speedup[static_cast<size_t>(k)] - my);
        sxx += (k - mx) * (k - mx);
    }
    return (sxy / sxx) / type.speedup[1];
}

} // namespace simcore

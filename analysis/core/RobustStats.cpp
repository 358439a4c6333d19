#include "core/RobustStats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marey {
namespace {

double Median(std::vector<double>& values) {
    if (values.empty()) return 0;
    const size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<long>(middle), values.end());
    const double upper = values[middle];
    if (values.size() % 2) return upper;
    const double lower =
        *std::max_element(values.begin(), values.begin() + static_cast<long>(middle));
    return (lower + upper) / 2;
}

}  // namespace

RobustSpread MedianAndMad(std::vector<double>& values) {
    RobustSpread spread;
    spread.median = Median(values);
    for (double& value : values) value = std::fabs(value - spread.median);
    spread.mad = Median(values);
    return spread;
}

double RobustScore(double value, const RobustSpread& spread) {
    const double excess = value - spread.median;
    if (spread.mad <= 0) return excess > 0 ? std::numeric_limits<double>::infinity() : 0.0;
    return excess / (1.4826 * spread.mad);
}

double Quantile(std::vector<double>& values, double q) {
    if (values.empty()) return 0;
    const double clamped = std::clamp(q, 0.0, 1.0);
    const size_t at =
        static_cast<size_t>(std::lround(clamped * static_cast<double>(values.size() - 1)));
    std::nth_element(values.begin(), values.begin() + static_cast<long>(at), values.end());
    return values[at];
}

int64_t UpperMedian(std::vector<int64_t>& values) {
    if (values.empty()) return 0;
    std::nth_element(values.begin(), values.begin() + static_cast<long>(values.size() / 2),
                     values.end());
    return values[values.size() / 2];
}

}  // namespace marey

#include "core/RobustStats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marey {
namespace {

// The middle value of 'values', or for an even count the mean of the two middle ones, computed
// as lower + (upper − lower) / 2: no overflow for integers, which round it down.
template <typename T>
T MiddleOf(std::vector<T>& values) {
    if (values.empty()) return 0;
    const size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<long>(middle), values.end());
    const T upper = values[middle];
    if (values.size() % 2) return upper;
    const T lower = *std::max_element(values.begin(), values.begin() + static_cast<long>(middle));
    return lower + (upper - lower) / 2;
}

}  // namespace

double Median(std::vector<double>& values) {
    return MiddleOf(values);
}

int64_t Median(std::vector<int64_t>& values) {
    return MiddleOf(values);
}

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
    const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
    const size_t below = static_cast<size_t>(std::floor(position));
    std::nth_element(values.begin(), values.begin() + static_cast<long>(below), values.end());
    const double low = values[below];
    if (below + 1 >= values.size() || position == static_cast<double>(below)) return low;
    // The next value up is the smallest of those after 'below' (nth_element put them there).
    const double high =
        *std::min_element(values.begin() + static_cast<long>(below) + 1, values.end());
    return low + (high - low) * (position - static_cast<double>(below));
}

FiveNumbers SummarizeFive(std::vector<double>& values) {
    FiveNumbers five;
    five.count = values.size();
    if (values.empty()) return five;
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    five.min = *low, five.max = *high;
    five.q1 = Quantile(values, 0.25), five.q3 = Quantile(values, 0.75);
    five.median = Median(values);
    return five;
}

}  // namespace marey

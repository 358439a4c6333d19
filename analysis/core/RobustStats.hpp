#pragma once
// Median and median absolute deviation: statistics a few outliers cannot move, so that the one
// slow rank among a thousand stands out instead of dragging the yardstick with it.
#include <cstdint>
#include <vector>

namespace marey {

struct RobustSpread {
    double median = 0;
    double mad = 0;  // median of |x - median|
};

// O(n) on average (nth_element); 'values' is reordered.
RobustSpread MedianAndMad(std::vector<double>& values);

// How many MADs above the median 'value' lies, scaled so that it reads like a z-score for normal
// data (MAD × 1.4826 estimates the standard deviation). A MAD of 0 gives +inf for any value above
// the median, 0 otherwise.
double RobustScore(double value, const RobustSpread& spread);

// The upper median of durations or other integers: the element at index n / 2 of the values
// sorted (the higher of the two middle ones when n is even); 0 without values. O(n) on average;
// 'values' is reordered.
int64_t UpperMedian(std::vector<int64_t>& values);

// The value at quantile 'q' (0 to 1) by nearest rank: the element at index round(q × (n − 1)) of
// the values sorted; 0 without values. O(n) on average (nth_element); 'values' is reordered.
double Quantile(std::vector<double>& values, double q);

}  // namespace marey

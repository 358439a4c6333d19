#pragma once
// Median and median absolute deviation: statistics a few outliers cannot move, so that the one
// slow rank among a thousand stands out instead of dragging the yardstick with it.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace marey {

struct RobustSpread {
    double median = 0;
    double mad = 0;  // median of |x - median|
};

// The one median rule of every figure marey shows (docs/figures.md): the middle value of the
// values sorted, and for an even count the mean of the two middle ones; 0 without values.
// O(n) on average (nth_element); 'values' is reordered.
double Median(std::vector<double>& values);
// The same rule for durations and other integers: for an even count the mean of the two middle
// values, rounded down to a whole nanosecond (exact: no double in between).
int64_t Median(std::vector<int64_t>& values);

// Median and MAD by the rule above. O(n) on average; 'values' is reordered.
RobustSpread MedianAndMad(std::vector<double>& values);

// How many MADs above the median 'value' lies, scaled so that it reads like a z-score for normal
// data (MAD × 1.4826 estimates the standard deviation). A MAD of 0 gives +inf for any value above
// the median, 0 otherwise.
double RobustScore(double value, const RobustSpread& spread);

// The value at quantile 'q' (0 to 1), interpolated between the two closest ranks: position
// q × (n − 1) of the values sorted (numpy's default), so that Quantile(v, 0.5) is Median(v);
// 0 without values. O(n) on average (nth_element); 'values' is reordered.
double Quantile(std::vector<double>& values, double q);

// A box plot's five numbers: minimum, quartiles by Quantile, the median by Median, maximum.
struct FiveNumbers {
    size_t count = 0;
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
};
// O(n) on average; 'values' is reordered.
FiveNumbers SummarizeFive(std::vector<double>& values);

}  // namespace marey

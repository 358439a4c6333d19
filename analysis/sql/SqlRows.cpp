#include "sql/SqlRows.hpp"

#include <algorithm>
#include <limits>

namespace marey {

void IntersectBounds(const std::vector<SqlBound>& bounds, int column, int64_t& low, int64_t& high) {
    low = std::numeric_limits<int64_t>::min();
    high = std::numeric_limits<int64_t>::max();
    for (const SqlBound& bound : bounds) {
        if (bound.column != column) continue;
        const int64_t value = bound.value;
        switch (bound.compare) {
            case SqlCompare::kEqual:
                low = std::max(low, value);
                high = std::min(high, value);
                break;
            case SqlCompare::kLess:
                if (value == std::numeric_limits<int64_t>::min()) {
                    low = 1, high = 0;
                    return;
                }
                high = std::min(high, value - 1);
                break;
            case SqlCompare::kLessOrEqual:
                high = std::min(high, value);
                break;
            case SqlCompare::kGreater:
                if (value == std::numeric_limits<int64_t>::max()) {
                    low = 1, high = 0;
                    return;
                }
                low = std::max(low, value + 1);
                break;
            case SqlCompare::kGreaterOrEqual:
                low = std::max(low, value);
                break;
        }
    }
}

std::vector<IdSpan> SqlRows::Narrow(const std::vector<SqlBound>& bounds) const {
    int64_t low, high;
    IntersectBounds(bounds, 0, low, high);
    const int64_t first = std::max<int64_t>(low, 0);
    const int64_t end = high < 0 ? 0 : std::min(Count(), high == INT64_MAX ? Count() : high + 1);
    if (first >= end) return {};
    return {{first, end}};
}

std::vector<int64_t> SqlRows::GroupedIds(const std::vector<IdSpan>&, int) const {
    return {};
}

double SqlRows::EstimatedRows(const std::vector<SqlBound>& bounds) const {
    double rows = static_cast<double>(Count());
    for (const SqlBound& bound : bounds) {
        if (bound.column != 0) continue;
        rows = bound.compare == SqlCompare::kEqual ? 1.0 : rows / 4;
    }
    return rows;
}

}  // namespace marey

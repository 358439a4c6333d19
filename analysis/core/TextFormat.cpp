#include "core/TextFormat.hpp"

#include <cstdio>

namespace marey {

std::string FormatDuration(TimeNs ns) {
    char buffer[64];
    const double value = static_cast<double>(ns);
    const double magnitude = value < 0 ? -value : value;
    if (magnitude < 1e3) {
        std::snprintf(buffer, sizeof buffer, "%lld ns", static_cast<long long>(ns));
    } else if (magnitude < 1e6) {
        std::snprintf(buffer, sizeof buffer, "%.3f µs", value / 1e3);
    } else if (magnitude < 1e9) {
        std::snprintf(buffer, sizeof buffer, "%.3f ms", value / 1e6);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.3f s", value / 1e9);
    }
    return buffer;
}

std::string CountText(size_t count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

std::string LaterOrEarlier(TimeNs otherMinusThisNs) {
    if (otherMinusThisNs == 0) return "at the same time";
    if (otherMinusThisNs > 0) return FormatDuration(otherMinusThisNs) + " later";
    return FormatDuration(-otherMinusThisNs) + " earlier";
}

std::string FormatPercent(double share) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", share * 100.0);
    return text;
}

}  // namespace marey

#include "core/TextFormat.hpp"

#include <cstdint>
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

std::string FormatInstant(TimeNs sinceStartNs) {
    // Exact integer arithmetic: a double holds no ns beyond 2^53.
    const bool negative = sinceStartNs < 0;
    const uint64_t magnitude = negative ? uint64_t{0} - static_cast<uint64_t>(sinceStartNs)
                                        : static_cast<uint64_t>(sinceStartNs);
    char buffer[64];
    if (magnitude < 1'000'000)
        std::snprintf(buffer, sizeof buffer, "%s%llu.%03llu µs", negative ? "-" : "",
                      static_cast<unsigned long long>(magnitude / 1000),
                      static_cast<unsigned long long>(magnitude % 1000));
    else
        std::snprintf(buffer, sizeof buffer, "%s%llu.%06llu ms", negative ? "-" : "",
                      static_cast<unsigned long long>(magnitude / 1'000'000),
                      static_cast<unsigned long long>(magnitude % 1'000'000));
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

std::string QuoteForMessage(std::string_view text, size_t most) {
    std::string out = "\"";
    size_t i = 0;
    while (i < text.size() && i < most) {
        const auto byte = static_cast<unsigned char>(text[i]);
        size_t length = byte < 0x80           ? 1
                        : (byte >> 5) == 0x6  ? 2
                        : (byte >> 4) == 0xE  ? 3
                        : (byte >> 3) == 0x1E ? 4
                                              : 0;
        for (size_t k = 1; k < length; ++k)
            if (i + k >= text.size() || (static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
                length = 0;
        if (length == 0 || byte < 0x20 || byte == 0x7F) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02X", byte);
            out += escaped;
            ++i;
            continue;
        }
        out.append(text.substr(i, length));
        i += length;
    }
    return out + (i < text.size() ? "…\"" : "\"");
}

std::string FormatBytes(int64_t bytes) {
    if (bytes <= 0) return "0 B";
    const double kb = static_cast<double>(bytes) / 1024;
    char text[48];
    if (kb >= 1024.0 * 1024.0)
        std::snprintf(text, sizeof text, "%.2f GB", kb / (1024.0 * 1024.0));
    else if (kb >= 1024)
        std::snprintf(text, sizeof text, "%.2f MB", kb / 1024);
    else
        std::snprintf(text, sizeof text, "%.1f KB", kb);
    return text;
}

}  // namespace marey

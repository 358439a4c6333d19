#include "timeline/ValueFormat.hpp"

#include <cmath>
#include <cstdio>

namespace marey {
namespace {

// 'value' with three significant digits and the largest prefix that keeps it at least 1.
std::string WithPrefix(double value, const char* const* prefixes, int count, double base,
                       const char* unit) {
    int prefix = 0;
    double scaled = value;
    while (prefix + 1 < count && std::fabs(scaled) >= base) scaled /= base, ++prefix;
    char text[64];
    const double magnitude = std::fabs(scaled);
    const bool whole = magnitude >= 100 || (prefix == 0 && magnitude == std::floor(magnitude));
    const int decimals = whole ? 0 : magnitude >= 10 ? 1 : 2;
    std::snprintf(text, sizeof text, "%.*f %s%s", decimals, scaled, prefixes[prefix], unit);
    std::string out = text;
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

}  // namespace

std::string CounterValueText(double value, std::string_view unitKey) {
    double bytesPerUnit = 0;
    if (unitKey == "B" || unitKey == "bytes" || unitKey == "Bytes")
        bytesPerUnit = 1;
    else if (unitKey == "KB" || unitKey == "kB")
        bytesPerUnit = 1024;
    else if (unitKey == "MB")
        bytesPerUnit = 1024.0 * 1024;
    else if (unitKey == "GB")
        bytesPerUnit = 1024.0 * 1024 * 1024;
    // The profilers' KB and MB are 1024 bytes and 1024 KB (the database's NPU_MEM bytes are
    // divided by 1024 into the text export's KB), and the Memory view counts the same way: one
    // reading of "GB" across the program.
    static const char* const kBytePrefixes[] = {"", "K", "M", "G", "T", "P"};
    if (bytesPerUnit > 0) return WithPrefix(value * bytesPerUnit, kBytePrefixes, 6, 1024.0, "B");
    static const char* const kPrefixes[] = {"", "k", "M", "G", "T"};
    const bool shortUnit =
        !unitKey.empty() && unitKey.size() <= 6 && unitKey.find(' ') == std::string_view::npos;
    if (std::fabs(value) < 1e4) {
        char text[64];
        std::snprintf(text, sizeof text, "%.4g", value);
        return shortUnit ? std::string(text) + " " + std::string(unitKey) : text;
    }
    return WithPrefix(value, kPrefixes, 5, 1000.0, shortUnit ? std::string(unitKey).c_str() : "");
}

std::string CompactDuration(TimeNs ns) {
    static const char* const kUnits[] = {"ns", "µs", "ms", "s"};
    double value = static_cast<double>(ns);
    int unit = 0;
    while (unit < 3 && std::fabs(value) >= 1000.0) value /= 1000.0, ++unit;
    char text[32];
    const double magnitude = std::fabs(value);
    const int decimals = unit == 0 || magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
    std::snprintf(text, sizeof text, "%.*f %s", decimals, value, kUnits[unit]);
    return text;
}

}  // namespace marey

#include "trace/CopyBytes.hpp"

#include <charconv>
#include <string_view>

#include "load/JsonScan.hpp"

namespace marey {
namespace {

// The key whose opening quote is at 'p' (escapes left as written), and the byte after its ':',
// white space skipped; nullptr when 'p' does not start a key.
const char* ReadKey(const char* p, const char* end, std::string_view* key) {
    if (p >= end || *p != '"') return nullptr;
    const ScanResult string = SkipString(p, end);
    if (string.status != ScanStatus::kOk) return nullptr;
    *key = std::string_view(p + 1, static_cast<size_t>(string.end - p - 2));
    const char* colon = SkipWhitespace(string.end, end);
    if (colon >= end || *colon != ':') return nullptr;
    return SkipWhitespace(colon + 1, end);
}

// Calls visit(key, value) for each key of the object whose '{' is at 'p', until visit returns
// true (found) or the object ends. The values not looked at are skipped whole.
template <typename Visit>
bool FindInObject(const char* p, const char* end, Visit&& visit) {
    if (p >= end || *p != '{') return false;
    p = SkipWhitespace(p + 1, end);
    while (p < end && *p != '}') {
        std::string_view key;
        const char* value = ReadKey(p, end, &key);
        if (!value) return false;
        if (visit(key, value)) return true;
        const ScanResult skipped = SkipValue(value, end);
        if (skipped.status != ScanStatus::kOk) return false;
        p = SkipWhitespace(skipped.end, end);
        if (p < end && *p == ',') p = SkipWhitespace(p + 1, end);
    }
    return false;
}

std::optional<uint64_t> ReadCount(const char* p, const char* end) {
    const bool quoted = p < end && *p == '"';
    if (quoted) ++p;
    uint64_t count = 0;
    const auto [next, error] = std::from_chars(p, end, count);
    if (error != std::errc() || next == p || next >= end) return std::nullopt;
    // "1.5e6" or "12abc" is not a count of bytes.
    if (quoted ? *next != '"'
               : (*next != ',' && *next != '}' && *next != ' ' && *next != '\n' && *next != '\r' &&
                  *next != '\t'))
        return std::nullopt;
    return count;
}

}  // namespace

std::optional<uint64_t> ReadCopyBytes(const TraceText& text, uint64_t offset) {
    if (offset >= text.size()) return std::nullopt;
    const char* end = text.data() + text.size();
    std::optional<uint64_t> bytes;
    FindInObject(text.data() + offset, end, [&](std::string_view key, const char* value) {
        if (key != "args") return false;
        FindInObject(value, end, [&](std::string_view argKey, const char* argValue) {
            if (argKey != "bytes") return false;
            bytes = ReadCount(argValue, end);
            return true;
        });
        return true;  // one "args" per event
    });
    return bytes;
}

}  // namespace marey

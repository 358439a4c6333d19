#include "trace/EventFields.hpp"

#include <charconv>

#include "load/JsonScan.hpp"

namespace marey {
namespace {

// The contents of the string token at 'p' (its opening quote), or nullopt-like empty with ok
// false when it is not a string.
struct StringToken {
    std::string_view contents;
    const char* end = nullptr;
    bool ok = false;
};

StringToken ReadString(const char* p, const char* end) {
    if (p >= end || *p != '"') return {};
    ScanResult skipped = SkipString(p, end);
    if (skipped.status != ScanStatus::kOk) return {};
    return {std::string_view(p + 1, static_cast<size_t>(skipped.end - p - 2)), skipped.end, true};
}

bool ReadNonNegativeInteger(const char* p, const char* end, int64_t* out) {
    if (p < end && *p == '"') ++p;  // some writers quote ids
    auto [next, error] = std::from_chars(p, end, *out);
    if (error != std::errc() || *out < 0) return false;
    return next < end && (*next == ',' || *next == '}' || *next == '"' || *next == ' ' ||
                          *next == '\n' || *next == '\r' || *next == '\t');
}

// Calls visit(key, valueStart) for each member of the object whose '{' is at 'p'; visit
// returns false to stop. Returns the end of the object, or nullptr on damage.
template <typename Visit>
const char* ForEachMember(const char* p, const char* end, Visit&& visit) {
    if (p >= end || *p != '{') return nullptr;
    p = SkipWhitespace(p + 1, end);
    if (p < end && *p == '}') return p + 1;
    while (p < end) {
        StringToken key = ReadString(p, end);
        if (!key.ok) return nullptr;
        p = SkipWhitespace(key.end, end);
        if (p >= end || *p != ':') return nullptr;
        p = SkipWhitespace(p + 1, end);
        if (!visit(key.contents, p)) return p;
        ScanResult value = SkipValue(p, end);
        if (value.status != ScanStatus::kOk) return nullptr;
        p = SkipWhitespace(value.end, end);
        if (p < end && *p == ',') {
            p = SkipWhitespace(p + 1, end);
            continue;
        }
        return p < end && *p == '}' ? p + 1 : nullptr;
    }
    return nullptr;
}

}  // namespace

ActivityFields ReadActivityFields(const TraceText& text, uint64_t offset) {
    ActivityFields fields;
    if (offset >= text.size()) return fields;
    const char* end = text.data() + text.size();
    ForEachMember(text.data() + offset, end, [&](std::string_view key, const char* value) {
        if (key == "cat") {
            StringToken token = ReadString(value, end);
            if (token.ok) fields.category = token.contents;
        } else if (key == "args") {
            ForEachMember(value, end, [&](std::string_view argKey, const char* argValue) {
                if (argKey == "correlation" || argKey == "connection_id") {
                    int64_t id = 0;
                    if (ReadNonNegativeInteger(argValue, end, &id)) {
                        fields.correlation = id;
                        fields.hasCorrelation = true;
                    }
                } else if (argKey == "Task Type") {
                    StringToken token = ReadString(argValue, end);
                    if (token.ok) fields.taskType = token.contents;
                }
                return true;
            });
        }
        return true;
    });
    return fields;
}

std::string_view ReadEventCategory(const TraceText& text, uint64_t offset) {
    std::string_view category;
    if (offset >= text.size()) return category;
    const char* end = text.data() + text.size();
    ForEachMember(text.data() + offset, end, [&](std::string_view key, const char* value) {
        if (key != "cat") return true;
        StringToken token = ReadString(value, end);
        if (token.ok) category = token.contents;
        return false;
    });
    return category;
}

}  // namespace marey

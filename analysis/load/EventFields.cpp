#include "load/EventFields.hpp"

#include <algorithm>
#include <charconv>

#include "load/JsonScan.hpp"

namespace marey {
namespace {

bool IsSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// One pass over an event object from string to string (found 16 bytes at a time): the bytes
// between strings are few (numbers, ':', ',', brackets), so they are scanned one by one for the
// braces that tell the depth. Keys are the strings followed by ':'. Calls visit(key, depth,
// value) for each key, where depth 1 is the event and 2 an object inside it such as "args";
// visit returns false to stop. Stops at the event's closing brace, or at damage.
template <typename Visit>
void ForEachKey(const char* p, const char* end, Visit&& visit) {
    if (p >= end || *p != '{') return;
    int depth = 1;
    ++p;
    while (p < end) {
        const char* quote = FindQuoteOrBackslash(p, end);
        for (; p < quote; ++p) {
            if (*p == '{') ++depth;
            if (*p == '}' && --depth == 0) return;
        }
        if (quote >= end || *quote != '"') return;  // a backslash outside a string: damage
        const char* close = quote + 1;
        for (;;) {
            close = FindQuoteOrBackslash(close, end);
            if (close >= end) return;
            if (*close == '"') break;
            close += 2;  // an escape covers the next byte
        }
        p = close + 1;
        const char* colon = p;
        while (colon < end && IsSpace(*colon)) ++colon;
        if (colon >= end || *colon != ':') continue;  // a string value, not a key
        const char* value = colon + 1;
        while (value < end && IsSpace(*value)) ++value;
        if (!visit(std::string_view(quote + 1, static_cast<size_t>(close - quote - 1)), depth,
                   value, end))
            return;
        p = value;
    }
}

// The raw text of a scalar value (a number, or a string with its quotes), at most 40 bytes, for
// messages.
std::string_view ValueText(const char* p, const char* end) {
    const char* q = p;
    if (q < end && *q == '"') {
        for (++q; q < end && *q != '"'; ++q)
            if (*q == '\\' && q + 1 < end) ++q;
        if (q < end) ++q;
    } else {
        while (q < end && *q != ',' && *q != '}' && *q != ']' && !IsSpace(*q)) ++q;
    }
    return std::string_view(p, std::min<size_t>(static_cast<size_t>(q - p), 40));
}

std::string_view StringAt(const char* p, const char* end) {
    if (p >= end || *p != '"') return {};
    const char* close = p + 1;
    for (;;) {
        close = FindQuoteOrBackslash(close, end);
        if (close >= end) return {};
        if (*close == '"') break;
        close += 2;
    }
    return std::string_view(p + 1, static_cast<size_t>(close - p - 1));
}

bool ReadNonNegativeInteger(const char* p, const char* end, int64_t* out) {
    if (p < end && *p == '"') ++p;  // some writers quote ids
    auto [next, error] = std::from_chars(p, end, *out);
    if (error != std::errc() || *out < 0) return false;
    return next < end && (*next == ',' || *next == '}' || *next == '"' || IsSpace(*next));
}

// A count written as digits, quoted or not, ending where a JSON value ends.
std::optional<uint64_t> ReadCount(const char* p, const char* end) {
    const bool quoted = p < end && *p == '"';
    if (quoted) ++p;
    uint64_t count = 0;
    const auto [next, error] = std::from_chars(p, end, count);
    if (error != std::errc() || next == p || next >= end) return std::nullopt;
    if (quoted ? *next != '"' : (*next != ',' && *next != '}' && !IsSpace(*next)))
        return std::nullopt;
    return count;
}

// Calls onEvent(key, value, limit) for each key of the event at 'offset' and onArg(key, value,
// limit) for each key of its "args" object; either returns false to stop the walk.
template <typename OnEvent, typename OnArg>
void ForEachEventField(const TraceText& text, uint64_t offset, OnEvent&& onEvent, OnArg&& onArg) {
    if (offset >= text.size()) return;
    bool inArgs = false;
    ForEachKey(text.data() + offset, text.data() + text.size(),
               [&](std::string_view key, int depth, const char* value, const char* limit) {
                   if (depth == 1) {
                       inArgs = key == "args";
                       return onEvent(key, value, limit);
                   }
                   return depth != 2 || !inArgs || onArg(key, value, limit);
               });
}

}  // namespace

ActivityFields ReadActivityFields(const TraceText& text, uint64_t offset) {
    ActivityFields fields;
    // Kineto writes "cat" first and the correlation early among the args: once both are read,
    // the rest of a large kernel event is left unread.
    ForEachEventField(
        text, offset,
        [&](std::string_view key, const char* value, const char* limit) {
            if (key == "cat") fields.category = StringAt(value, limit);
            return true;
        },
        [&](std::string_view key, const char* value, const char* limit) {
            if (key == "correlation" || key == "connection_id") {
                int64_t id = 0;
                if (ReadNonNegativeInteger(value, limit, &id)) {
                    fields.correlation = id;
                    fields.hasCorrelation = true;
                }
            } else if (key == "Task Type") {
                fields.taskType = StringAt(value, limit);
            }
            return !(fields.hasCorrelation && !fields.category.empty());
        });
    return fields;
}

std::optional<int64_t> ReadCorrelationInArgs(std::string_view args, std::string_view* damaged) {
    std::optional<int64_t> correlation;
    std::string_view firstDamaged;
    ForEachKey(args.data(), args.data() + args.size(),
               [&](std::string_view key, int depth, const char* value, const char* limit) {
                   if (depth != 1 || (key != "correlation" && key != "connection_id")) return true;
                   int64_t id = 0;
                   if (!ReadNonNegativeInteger(value, limit, &id)) {
                       if (firstDamaged.empty()) firstDamaged = ValueText(value, limit);
                       return true;
                   }
                   correlation = id;
                   return false;
               });
    if (damaged) *damaged = correlation ? std::string_view() : firstDamaged;
    return correlation;
}

TaskArgs ReadTaskArgs(std::string_view args) {
    TaskArgs found;
    std::string_view firstDamaged, firstDamagedKey;
    ForEachKey(
        args.data(), args.data() + args.size(),
        [&](std::string_view key, int depth, const char* value, const char* limit) {
            if (depth != 1) return true;
            if (key == "Task Type") {
                found.taskType = StringAt(value, limit);  // the last, as ReadActivityFields
            } else if ((key == "correlation" || key == "connection_id") && !found.correlation) {
                int64_t id = 0;
                if (ReadNonNegativeInteger(value, limit, &id))
                    found.correlation = id;
                else if (ValueText(value, limit) == "-1")
                    return true;  // Ascend's own "no connection"
                else if (firstDamaged.empty())
                    firstDamaged = ValueText(value, limit), firstDamagedKey = key;
            }
            return true;
        });
    if (!found.correlation) found.damaged = firstDamaged, found.damagedKey = firstDamagedKey;
    return found;
}

std::optional<uint64_t> ReadCopyBytes(const TraceText& text, uint64_t offset) {
    std::optional<uint64_t> bytes;
    ForEachEventField(
        text, offset, [](std::string_view, const char*, const char*) { return true; },
        [&](std::string_view key, const char* value, const char* limit) {
            if (key != "bytes") return true;
            bytes = ReadCount(value, limit);
            return false;
        });
    return bytes;
}

CollectiveFields ReadCollectiveFields(const TraceText& text, uint64_t offset) {
    CollectiveFields fields;
    ForEachEventField(
        text, offset, [](std::string_view, const char*, const char*) { return true; },
        [&](std::string_view key, const char* value, const char* limit) {
            if (key == "Collective name")
                fields.collective = StringAt(value, limit);
            else if (key == "Process Group Name")
                fields.group = StringAt(value, limit);
            else if (key == "Process Group Ranks")
                fields.groupRanks = StringAt(value, limit);
            else if (key == "Seq" || key == "seq" || key == "seq_num")
                fields.sequence = ReadCount(value, limit);
            return true;
        });
    return fields;
}

namespace {

// A JSON value as Python's int() of it: an integer; a number cut to its integer part; a string of
// decimal digits (spaces and a sign allowed around them); else nullopt.
std::optional<int64_t> PythonInt(const char* p, const char* end) {
    if (p < end && *p == '"') {
        const std::string_view text = StringAt(p, end);
        size_t first = 0, last = text.size();
        while (first < last && IsSpace(text[first])) ++first;
        while (last > first && IsSpace(text[last - 1])) --last;
        if (first < last && text[first] == '+') ++first;
        int64_t value = 0;
        const auto [next, error] = std::from_chars(text.data() + first, text.data() + last, value);
        if (error != std::errc() || next != text.data() + last || first == last) return {};
        return value;
    }
    double real = 0;
    const auto [next, error] = std::from_chars(p, end, real);
    if (error != std::errc() || !(real > -9.2e18 && real < 9.2e18)) return {};
    return static_cast<int64_t>(real);
}

}  // namespace

HtaEventFields ReadHtaEventFields(const TraceText& text, uint64_t offset) {
    HtaEventFields fields;
    ForEachEventField(
        text, offset,
        [&](std::string_view key, const char* value, const char* limit) {
            if (key == "dur") fields.hasDuration = value < limit && *value != 'n';
            if (key == "cat") {
                fields.hasCategory = value < limit && *value == '"';
                fields.category = StringAt(value, limit);
            }
            return true;
        },
        [&](std::string_view key, const char* value, const char* limit) {
            if (key == "stream") fields.stream = PythonInt(value, limit).value_or(-1);
            if (key == "correlation") fields.correlation = PythonInt(value, limit).value_or(-1);
            return true;
        });
    return fields;
}

}  // namespace marey

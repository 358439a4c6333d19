#include "load/JsonScan.hpp"

#include <cstring>
#include <emmintrin.h>

namespace marey {
namespace {

bool IsSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// First byte in [p, end) that is one of " { } [ ] or a backslash (invalid outside a string,
// but simdjson takes it as escaping the next byte: see SkipValue).
const char* FindStructural(const char* p, const char* end) {
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i braceOpen = _mm_set1_epi8('{');
    const __m128i braceClose = _mm_set1_epi8('}');
    const __m128i bracketOpen = _mm_set1_epi8('[');
    const __m128i bracketClose = _mm_set1_epi8(']');
    while (p + 16 <= end) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, braceOpen));
        hit = _mm_or_si128(hit, _mm_cmpeq_epi8(bytes, braceClose));
        hit = _mm_or_si128(hit, _mm_cmpeq_epi8(bytes, bracketOpen));
        hit = _mm_or_si128(hit, _mm_cmpeq_epi8(bytes, bracketClose));
        hit = _mm_or_si128(hit, _mm_cmpeq_epi8(bytes, backslash));
        const int mask = _mm_movemask_epi8(hit);
        if (mask) return p + __builtin_ctz(mask);
        p += 16;
    }
    while (p < end && *p != '"' && *p != '{' && *p != '}' && *p != '[' && *p != ']' && *p != '\\')
        ++p;
    return p;
}

// The last byte before 'end' that is not white space, or nullptr.
const char* LastSignificant(const char* begin, const char* end) {
    while (end > begin && IsSpace(end[-1])) --end;
    return end > begin ? end - 1 : nullptr;
}

}  // namespace

const char* FindQuoteOrBackslash(const char* p, const char* end) {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    while (p + 16 <= end) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const int mask = _mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)));
        if (mask) return p + __builtin_ctz(mask);
        p += 16;
    }
    while (p < end && *p != '"' && *p != '\\') ++p;
    return p;
}

const char* SkipWhitespace(const char* p, const char* end) {
    while (p < end && IsSpace(*p)) ++p;
    return p;
}

const char* FindPlainArrayEnd(const char* begin, const char* end, const char** lastEvent) {
    const char* close = LastSignificant(begin, end);
    if (close && *close == '}') close = LastSignificant(begin, close);
    if (!close || *close != ']') return nullptr;
    const char* last = LastSignificant(begin, close);
    if (!last || *last != '}') return nullptr;
    *lastEvent = last;
    return close;
}

ScanResult SkipString(const char* p, const char* end) {
    ++p;  // opening quote
    for (;;) {
        p = FindQuoteOrBackslash(p, end);
        if (p >= end) return {ScanStatus::kTruncated, end};
        if (*p == '"') return {ScanStatus::kOk, p + 1};
        p += 2;  // an escape covers the next byte, whatever it is
        if (p > end) return {ScanStatus::kTruncated, end};
    }
}

ScanResult SkipValue(const char* p, const char* end) {
    p = SkipWhitespace(p, end);
    if (p >= end) return {ScanStatus::kTruncated, end};
    if (*p == '"') return SkipString(p, end);
    if (*p != '{' && *p != '[') {
        // A scalar: runs until a delimiter.
        const char* start = p;
        while (p < end && !IsSpace(*p) && *p != ',' && *p != '}' && *p != ']' && *p != ':') ++p;
        if (p == start) return {ScanStatus::kUnexpected, p};
        if (p >= end) return {ScanStatus::kTruncated, end};
        return {ScanStatus::kOk, p};
    }
    uint64_t depth = 0;
    for (;;) {
        p = FindStructural(p, end);
        if (p >= end) return {ScanStatus::kTruncated, end};
        switch (*p) {
            case '"': {
                const ScanResult string = SkipString(p, end);
                if (string.status != ScanStatus::kOk) return string;
                p = string.end;
                continue;
            }
            case '{':
            case '[':
                ++depth;
                break;
            case '\\':
                // Invalid JSON outside a string, but simdjson's first stage takes a backslash as
                // escaping the next byte wherever it is; reading it the same way keeps the
                // element-by-element path and simdjson's whole-chunk path on the same elements.
                p += 2;
                continue;
            default:
                if (--depth == 0) return {ScanStatus::kOk, p + 1};
                break;
        }
        ++p;
    }
}

const char* FindEventArray(const char* begin, const char* end, const char** problemAt) {
    const char* p = begin;
    if (end - p >= 3 && static_cast<unsigned char>(p[0]) == 0xEF &&
        static_cast<unsigned char>(p[1]) == 0xBB && static_cast<unsigned char>(p[2]) == 0xBF)
        p += 3;  // UTF-8 byte-order mark
    p = SkipWhitespace(p, end);
    *problemAt = p;
    if (p >= end) return nullptr;
    if (*p == '[') return p + 1;
    if (*p != '{') return nullptr;
    // Walk the top-level keys; skip every value that is not "traceEvents".
    ++p;
    for (;;) {
        p = SkipWhitespace(p, end);
        *problemAt = p;
        if (p >= end || *p != '"') return nullptr;
        const ScanResult key = SkipString(p, end);
        if (key.status != ScanStatus::kOk) return nullptr;
        const bool isEvents = key.end - p == 13 && std::memcmp(p, "\"traceEvents\"", 13) == 0;
        p = SkipWhitespace(key.end, end);
        if (p >= end || *p != ':') {
            *problemAt = p;
            return nullptr;
        }
        p = SkipWhitespace(p + 1, end);
        if (isEvents) {
            *problemAt = p;
            return p < end && *p == '[' ? p + 1 : nullptr;
        }
        const ScanResult value = SkipValue(p, end);
        if (value.status != ScanStatus::kOk) {
            *problemAt = value.end;
            return nullptr;
        }
        p = SkipWhitespace(value.end, end);
        if (p < end && *p == ',') {
            ++p;
            continue;
        }
        *problemAt = p;
        return nullptr;
    }
}

const char* FindRepeatedEventArray(const char* arrayEnd, const char* end) {
    const char* p = arrayEnd < end && *arrayEnd == ']' ? arrayEnd + 1 : arrayEnd;
    for (;;) {
        p = SkipWhitespace(p, end);
        if (p >= end || *p != ',') return nullptr;
        p = SkipWhitespace(p + 1, end);
        if (p >= end || *p != '"') return nullptr;
        const char* keyAt = p;
        const ScanResult key = SkipString(p, end);
        if (key.status != ScanStatus::kOk) return nullptr;
        const bool isEvents = key.end - p == 13 && std::memcmp(p, "\"traceEvents\"", 13) == 0;
        p = SkipWhitespace(key.end, end);
        if (p >= end || *p != ':') return nullptr;
        if (isEvents) return keyAt;
        const ScanResult value = SkipValue(SkipWhitespace(p + 1, end), end);
        if (value.status != ScanStatus::kOk) return nullptr;
        p = value.end;
    }
}

int64_t CountArrayAfterKey(const char* keyAt, const char* end) {
    const ScanResult key = SkipString(keyAt, end);
    if (key.status != ScanStatus::kOk) return -1;
    const char* p = SkipWhitespace(key.end, end);
    if (p >= end || *p != ':') return -1;
    p = SkipWhitespace(p + 1, end);
    if (p >= end || *p != '[') return -1;
    p = SkipWhitespace(p + 1, end);
    if (p < end && *p == ']') return 0;
    for (int64_t count = 1;; ++count) {
        const ScanResult value = SkipValue(p, end);
        if (value.status != ScanStatus::kOk) return -1;
        p = SkipWhitespace(value.end, end);
        if (p >= end) return -1;
        if (*p == ']') return count;
        if (*p != ',') return -1;
        p = SkipWhitespace(p + 1, end);
    }
}

const char* FindLikelyEventStart(const char* from, const char* limit, const char* textEnd) {
    const char* p = from;
    while (p < limit) {
        p = static_cast<const char*>(std::memchr(p, '}', limit - p));
        if (!p) return nullptr;
        const char* q = SkipWhitespace(p + 1, textEnd);
        if (q < textEnd && *q == ',') {
            q = SkipWhitespace(q + 1, textEnd);
            if (q < textEnd && *q == '{') {
                const char* brace = q;
                q = SkipWhitespace(q + 1, textEnd);
                // An opening quote is followed by key text; a closing quote by a delimiter.
                if (q + 1 < textEnd && *q == '"' && !IsSpace(q[1]) && q[1] != ',' && q[1] != ':' &&
                    q[1] != '}' && q[1] != ']' && q[1] != '"')
                    return brace;
            }
        }
        ++p;
    }
    return nullptr;
}

}  // namespace marey

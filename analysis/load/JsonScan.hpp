#pragma once
// Byte-level JSON scanning without building anything: skipping values, finding the event
// array and plausible event boundaries. Used to cut the file into chunks, to recover after a
// malformed event, and to find the extent of one event for on-demand parsing.
#include <cstdint>

namespace marey {

enum class ScanStatus : uint8_t { kOk, kTruncated, kUnexpected };

struct ScanResult {
    ScanStatus status = ScanStatus::kOk;
    const char* end = nullptr;  // one past the value (kOk) or where scanning stopped
};

const char* SkipWhitespace(const char* p, const char* end);

// The first '"' or '\\' in [p, end), or 'end'; 16 bytes at a time.
const char* FindQuoteOrBackslash(const char* p, const char* end);

// Skips one JSON value starting at 'p' (after white space). Strings are skipped with their
// escapes; objects and arrays by bracket depth, without recursion, so any nesting depth is
// fine. Does not validate what it skips. O(length of the value).
ScanResult SkipValue(const char* p, const char* end);

// Skips a string whose opening quote is at 'p'.
ScanResult SkipString(const char* p, const char* end);

// After the event array's closing ']' at 'arrayEnd': the key of another "traceEvents" among the
// object's keys that follow (a file that repeats the key), or null when there is none or the rest
// is not an object's keys. O(bytes after the array).
const char* FindRepeatedEventArray(const char* arrayEnd, const char* end);

// The number of values in the array after the key at 'keyAt' ("traceEvents": [ … ]), each
// skipped as SkipValue skips it; -1 when what follows is not a whole array. O(bytes of it).
int64_t CountArrayAfterKey(const char* keyAt, const char* end);

// Where the event array of a trace starts: the byte after its '['. Accepts a bare array or an
// object with a "traceEvents" key among others. Returns nullptr when neither is found;
// 'whatWasFound' then describes the first significant byte.
const char* FindEventArray(const char* begin, const char* end, const char** problemAt);

// The first position at or after 'from' (and before 'limit') that looks like the start of an
// event in the top-level array: '}' ws ',' ws '{' ws '"' key. Returns the '{' or nullptr.
// A guess: callers verify it by parsing from a known boundary.
const char* FindLikelyEventStart(const char* from, const char* limit, const char* textEnd);

// The closing ']' of the event array when the file ends as most traces do: with that ']' and
// white space (a bare array), or with ']' and the '}' of the object around it. '*lastEvent'
// is then the '}' of the event just before it. Returns nullptr when the tail looks different
// (more keys after the array, an empty array, a truncated file). A guess like the one above:
// callers verify it by parsing.
const char* FindPlainArrayEnd(const char* begin, const char* end, const char** lastEvent);

}  // namespace marey

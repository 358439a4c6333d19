#pragma once
// A small JSON object writer for the stats commands: keys in the order written, numbers as the
// schemas of docs/stats-json.md say (integers for ns, %.9g for reals, null for what is not finite).
#include <cmath>
#include <cstdint>
#include <charconv>
#include <cstdio>
#include <string>
#include <vector>
#include <string_view>

#include "load/JsonString.hpp"

namespace marey {

// "%.9g" of 'value', or "null" when it is not finite.
inline std::string JsonNumber(double value) {
    if (!std::isfinite(value)) return "null";
    char text[40];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
}

// The shortest text that reads back as exactly 'value' (std::to_chars), or "null" when it is not
// finite: for files marey reads again, where %.9g would lose the last digits.
inline std::string JsonExactNumber(double value) {
    if (!std::isfinite(value)) return "null";
    char text[40];
    const auto written = std::to_chars(text, text + sizeof text, value);
    return std::string(text, written.ptr);
}

// Writes '{' now and '}' when it goes out of scope; Key() returns the output to write a value.
class JsonObject {
public:
    explicit JsonObject(std::string& out) : m_out(out) { m_out += '{'; }
    ~JsonObject() { m_out += '}'; }
    JsonObject(const JsonObject&) = delete;
    JsonObject& operator=(const JsonObject&) = delete;

    std::string& Key(const char* key) {
        if (m_count++) m_out += ", ";
        AppendJsonString(m_out, key);
        m_out += ": ";
        return m_out;
    }
    void Int(const char* key, int64_t value) { Key(key) += std::to_string(value); }
    void Real(const char* key, double value) { Key(key) += JsonNumber(value); }
    void ExactReal(const char* key, double value) { Key(key) += JsonExactNumber(value); }
    void String(const char* key, std::string_view value) { AppendJsonString(Key(key), value); }
    void Null(const char* key) { Key(key) += "null"; }
    void Bool(const char* key, bool value) { Key(key) += value ? "true" : "false"; }
    // A figure that may be unknown, as the analyses keep it (-1, or any negative): null then.
    void IntOrNull(const char* key, int64_t value) {
        if (value < 0)
            Null(key);
        else
            Int(key, value);
    }
    void RealOrNull(const char* key, double value) {
        if (value < 0)
            Null(key);
        else
            Real(key, value);
    }

private:
    std::string& m_out;
    int m_count = 0;
};

// Writes '[', then each item of 'items' as append(out, item) writes it, comma-separated, then ']'.
template <typename Items, typename Append>
void JsonArray(std::string& out, const Items& items, const Append& append) {
    out += '[';
    bool first = true;
    for (const auto& item : items) {
        if (!first) out += ", ";
        first = false;
        append(out, item);
    }
    out += ']';
}

// Writes '[', then each item of 'items' as an object filled by write(object, item), then ']'.
template <typename Items, typename Write>
void JsonArrayOfObjects(std::string& out, const Items& items, const Write& write) {
    JsonArray(out, items, [&](std::string& text, const auto& item) {
        JsonObject object(text);
        write(object, item);
    });
}

// A list of rank ids as a JSON array of numbers: "[0, 1, 7]". The one writer of rank lists
// (groups, findings, clusters, the Marey view).
inline void WriteRankIds(std::string& out, const std::vector<int>& ranks) {
    JsonArray(out, ranks, [](std::string& s, int id) { s += std::to_string(id); });
}

}  // namespace marey

#include "load/EventDetails.hpp"

#include <algorithm>

#include <simdjson.h>

#include "load/CsvReader.hpp"
#include "load/JsonScan.hpp"
#include "load/JsonString.hpp"

namespace marey {
namespace ondemand = simdjson::ondemand;

namespace {

std::string ValueText(ondemand::value value, const char* textEnd, size_t maxBytes) {
    std::string scratch;
    ondemand::json_type type;
    if (value.type().get(type)) return "?";
    std::string_view text;
    if (type == ondemand::json_type::object || type == ondemand::json_type::array) {
        // Raw text of the nested value: found by scanning, as simdjson gives no extent here.
        const char* begin;
        if (value.current_location().get(begin)) return "?";
        const ScanResult scan = SkipValue(begin, textEnd);
        text = std::string_view(begin, scan.end - begin);
    } else {
        text = value.raw_json_token();
        if (type == ondemand::json_type::string) text = DecodeJsonString(text, scratch);
        while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' ||
                                 text.back() == '\t'))
            text.remove_suffix(1);
    }
    std::string result(text.substr(0, maxBytes));
    if (text.size() > maxBytes) result += "…";
    return result;
}

}  // namespace

EventDetails ReadEventDetails(const TraceText& text, uint64_t offset, size_t maxValueBytes) {
    EventDetails details;
    if (offset >= text.size()) {
        details.error = "offset past the end of the trace";
        return details;
    }
    const char* begin = text.data() + offset;
    const char* end = text.data() + text.size();
    const ScanResult scan = SkipValue(begin, end);
    if (scan.status != ScanStatus::kOk) {
        details.error = "the event is incomplete in the file";
        return details;
    }
    ondemand::parser parser;
    ondemand::document doc;
    ondemand::object object;
    const uint64_t readable = static_cast<uint64_t>(end + kTextPaddingBytes - begin);
    if (auto error = parser.iterate(begin, scan.end - begin, readable).get(doc)) {
        details.error = simdjson::error_message(error);
        return details;
    }
    if (auto error = doc.get_object().get(object)) {
        details.error = simdjson::error_message(error);
        return details;
    }
    for (auto fieldResult : object) {
        ondemand::field field;
        if (auto error = std::move(fieldResult).get(field)) {
            details.error = simdjson::error_message(error);
            break;
        }
        std::string_view key;
        if (field.unescaped_key().get(key)) break;
        std::string keyText(key);
        if (keyText == "args") {
            ondemand::object args;
            if (field.value().get_object().get(args) == simdjson::SUCCESS) {
                for (auto argResult : args) {
                    ondemand::field arg;
                    if (std::move(argResult).get(arg)) break;
                    std::string_view argKey;
                    if (arg.unescaped_key().get(argKey)) break;
                    std::string argKeyText(argKey);
                    details.args.emplace_back(std::move(argKeyText),
                                              ValueText(arg.value(), end, maxValueBytes));
                }
                continue;
            }
        }
        details.fields.emplace_back(std::move(keyText),
                                    ValueText(field.value(), end, maxValueBytes));
    }
    return details;
}

EventDetails ReadCsvRowDetails(const TraceText& text, uint64_t offset,
                               const std::vector<std::string>& header) {
    EventDetails details;
    if (offset >= text.size()) {
        details.error = "offset past the end of the file";
        return details;
    }
    CsvReader reader(std::string_view(text.data() + offset, text.size() - offset));
    std::vector<std::string_view> fields;
    if (!reader.Next(fields)) {
        details.error = "no row at this offset";
        return details;
    }
    for (size_t i = 0; i < std::max(header.size(), fields.size()); ++i) {
        std::string key = i < header.size() ? header[i] : "column " + std::to_string(i + 1);
        std::string value = i < fields.size() ? std::string(TrimField(fields[i])) : std::string();
        details.args.emplace_back(std::move(key), std::move(value));
    }
    return details;
}

}  // namespace marey

#pragma once
// Decoding JSON string tokens without simdjson's string buffer, so that views can outlive
// the document when they point into the trace text.
#include <string>
#include <string_view>

namespace marey {

// 'token' is the raw JSON text of a string value, from its opening quote, possibly followed by
// white space. Returns the decoded content: a view into 'token' when it has no escapes, else
// a view into 'scratch'. Invalid escapes are kept as written; bad \u code points become U+FFFD.
std::string_view DecodeJsonString(std::string_view token, std::string& scratch);

// Writes 'text' as a JSON string literal (with quotes), escaping what JSON requires; each byte
// of an invalid UTF-8 sequence becomes \ufffd, so the output is always valid JSON.
void AppendJsonString(std::string& out, std::string_view text);

// True when 'text' is valid UTF-8.
bool IsValidUtf8(std::string_view text);

// Replaces each byte of an invalid UTF-8 sequence with '?', keeping the length. Returns how many
// bytes were replaced.
size_t ReplaceInvalidUtf8(char* text, size_t size);

}  // namespace marey

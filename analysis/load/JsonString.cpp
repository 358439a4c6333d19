#include "load/JsonString.hpp"

#include <cstdint>
#include <cstdio>

namespace marey {
namespace {

int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool ReadHex4(std::string_view text, size_t at, uint32_t* out) {
    if (at + 4 > text.size()) return false;
    uint32_t value = 0;
    for (size_t i = 0; i < 4; ++i) {
        const int digit = HexValue(text[at + i]);
        if (digit < 0) return false;
        value = value * 16 + static_cast<uint32_t>(digit);
    }
    *out = value;
    return true;
}

void AppendUtf8(std::string& out, uint32_t codePoint) {
    if (codePoint < 0x80) {
        out += static_cast<char>(codePoint);
    } else if (codePoint < 0x800) {
        out += static_cast<char>(0xC0 | (codePoint >> 6));
        out += static_cast<char>(0x80 | (codePoint & 0x3F));
    } else if (codePoint < 0x10000) {
        out += static_cast<char>(0xE0 | (codePoint >> 12));
        out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (codePoint & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (codePoint >> 18));
        out += static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (codePoint & 0x3F));
    }
}

// Length of the valid UTF-8 sequence at text[i], or 0 when it is invalid.
size_t ValidSequenceLength(const unsigned char* text, size_t size, size_t i) {
    const unsigned char lead = text[i];
    if (lead < 0x80) return 1;
    size_t length;
    uint32_t minimum;
    uint32_t codePoint;
    if ((lead & 0xE0) == 0xC0) {
        length = 2, minimum = 0x80, codePoint = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3, minimum = 0x800, codePoint = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4, minimum = 0x10000, codePoint = lead & 0x07;
    } else {
        return 0;
    }
    if (i + length > size) return 0;
    for (size_t k = 1; k < length; ++k) {
        if ((text[i + k] & 0xC0) != 0x80) return 0;
        codePoint = (codePoint << 6) | (text[i + k] & 0x3F);
    }
    if (codePoint < minimum || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF))
        return 0;
    return length;
}

}  // namespace

std::string_view DecodeJsonString(std::string_view token, std::string& scratch) {
    while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' ||
                              token.back() == '\t'))
        token.remove_suffix(1);
    if (token.size() < 2 || token.front() != '"' || token.back() != '"') return token;
    std::string_view content = token.substr(1, token.size() - 2);
    if (content.find('\\') == std::string_view::npos) return content;
    scratch.clear();
    for (size_t i = 0; i < content.size(); ++i) {
        const char c = content[i];
        if (c != '\\' || i + 1 >= content.size()) {
            scratch += c;
            continue;
        }
        const char escaped = content[++i];
        switch (escaped) {
            case '"':
                scratch += '"';
                break;
            case '\\':
                scratch += '\\';
                break;
            case '/':
                scratch += '/';
                break;
            case 'b':
                scratch += '\b';
                break;
            case 'f':
                scratch += '\f';
                break;
            case 'n':
                scratch += '\n';
                break;
            case 'r':
                scratch += '\r';
                break;
            case 't':
                scratch += '\t';
                break;
            case 'u': {
                uint32_t unit = 0;
                if (!ReadHex4(content, i + 1, &unit)) {
                    scratch += "\\u";
                    break;
                }
                i += 4;
                if (unit >= 0xD800 && unit <= 0xDBFF) {
                    uint32_t low = 0;
                    if (i + 2 < content.size() && content[i + 1] == '\\' && content[i + 2] == 'u' &&
                        ReadHex4(content, i + 3, &low) && low >= 0xDC00 && low <= 0xDFFF) {
                        i += 6;
                        AppendUtf8(scratch, 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
                    } else {
                        AppendUtf8(scratch, 0xFFFD);
                    }
                } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
                    AppendUtf8(scratch, 0xFFFD);
                } else {
                    AppendUtf8(scratch, unit);
                }
                break;
            }
            default:
                scratch += '\\';
                scratch += escaped;
                break;
        }
    }
    return scratch;
}

void AppendJsonString(std::string& out, std::string_view text) {
    out += '"';
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (bytes[i] >= 0x80) {
            // JSON is UTF-8: a byte that starts no valid sequence (a folder name in another
            // encoding, a damaged step id) is written as U+FFFD, so the output always parses.
            const size_t length = ValidSequenceLength(bytes, text.size(), i);
            if (length == 0) {
                out += "\\ufffd";
            } else {
                out.append(text.data() + i, length);
                i += length - 1;
            }
            continue;
        }
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buffer[8];
                    std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
                    out += buffer;
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

bool IsValidUtf8(std::string_view text) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    for (size_t i = 0; i < text.size();) {
        const size_t length = ValidSequenceLength(bytes, text.size(), i);
        if (length == 0) return false;
        i += length;
    }
    return true;
}

size_t ReplaceInvalidUtf8(char* text, size_t size) {
    auto* bytes = reinterpret_cast<unsigned char*>(text);
    size_t replaced = 0;
    for (size_t i = 0; i < size;) {
        const size_t length = ValidSequenceLength(bytes, size, i);
        if (length == 0) {
            bytes[i++] = '?';
            ++replaced;
        } else {
            i += length;
        }
    }
    return replaced;
}

}  // namespace marey

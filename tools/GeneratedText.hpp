#pragma once
// Numbers as the Ascend profilers write them, for the generators: microseconds with three
// decimals ("1736408883688177.930") and milliseconds as a short decimal ("2.153383"); and a
// small file written whole.
#include <cstdint>
#include <cstdio>
#include <string>

namespace marey {

inline std::string Micros(int64_t ns) {
    char text[40];
    std::snprintf(text, sizeof text, "%lld.%03lld", static_cast<long long>(ns / 1000),
                  static_cast<long long>(ns % 1000));
    return text;
}

inline std::string Millis(int64_t ns) {
    char text[40];
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(ns) / 1e6);
    return text;
}

// Writes 'text' to 'path' whole; false with 'error' set when it cannot be written.
inline bool WriteTextFile(const std::string& path, const std::string& text, std::string* error) {
    std::FILE* file = std::fopen(path.c_str(), "wb");
    const bool written = file && std::fwrite(text.data(), 1, text.size(), file) == text.size();
    if (!file || std::fclose(file) != 0 || !written) {
        *error = path + ": cannot be written";
        return false;
    }
    return true;
}

}  // namespace marey

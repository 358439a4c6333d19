#include "import/chrome_json/ChromeJsonImporter.hpp"

#include <filesystem>

#include "import/ascend_text/AscendTextImporter.hpp"

namespace marey {
namespace {

bool EndsWith(const std::string& text, const char* suffix) {
    const size_t n = std::char_traits<char>::length(suffix);
    return text.size() >= n && text.compare(text.size() - n, n, suffix) == 0;
}

ProbeAnswer Probe(const std::string& path, RankSource preference) {
    std::error_code error;
    const bool folder = std::filesystem::is_directory(path, error);
    if (!folder && (EndsWith(path, ".json") || EndsWith(path, ".json.gz")))
        return {100, "a JSON trace file"};
    // A folder with --source: the rank importers answer for it.
    if (folder && preference != RankSource::kAuto) return {0, ""};
    return {1, "read as a trace, which names what is wrong with it"};
}

}  // namespace

Importer ChromeJsonImporter() {
    return TraceFileImporter(SourceKind::kChromeJson, "Chrome / Kineto JSON trace", Probe);
}

}  // namespace marey

#include "base/SettingsFolder.hpp"

#include <cstdlib>
#include <filesystem>

namespace marey {

std::string SettingsFilePath(const std::string& home, const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path folder = fs::path(home) / ".config";
    const fs::path path = folder / "marey" / name;
    const fs::path oldPath = folder / "tracelens" / name;
    std::error_code error;
    if (!fs::exists(path, error) && fs::is_regular_file(oldPath, error)) {
        fs::create_directories(path.parent_path(), error);
        if (!error) fs::copy_file(oldPath, path, error);
    }
    return path.string();
}

std::string SettingsFilePath(const std::string& name) {
    const char* home = std::getenv("HOME");
    return SettingsFilePath(home ? home : ".", name);
}

}  // namespace marey

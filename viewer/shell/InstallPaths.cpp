#include "shell/InstallPaths.hpp"

#include <unistd.h>

namespace marey {

std::string ExecutableDir() {
    char path[4096];
    const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    if (length <= 0) return ".";
    std::string text(path, static_cast<size_t>(length));
    return text.substr(0, text.rfind('/'));
}

std::string FirstReadable(const std::initializer_list<std::string>& candidates) {
    for (const std::string& candidate : candidates)
        if (access(candidate.c_str(), R_OK) == 0) return candidate;
    return "";
}

}  // namespace marey

#include "cache/CacheFolder.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>

#include "core/StringPool.hpp"

namespace marey {
namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int64_t ModifiedNs(const struct stat& info) {
    return int64_t{info.st_mtim.tv_sec} * 1'000'000'000 + info.st_mtim.tv_nsec;
}

struct CacheEntry {
    std::string path;
    uint64_t bytes;
    int64_t modifiedNs;
};

}  // namespace

std::string DefaultCacheFolder() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && xdg[0] == '/') return std::string(xdg) + "/marey";
    const char* home = std::getenv("HOME");
    if (home && home[0] == '/') return std::string(home) + "/.cache/marey";
    return "";
}

std::string CacheFilePath(const std::string& folder, const std::string& canonicalPath) {
    char name[32];
    std::snprintf(name, sizeof name, "%016llx",
                  static_cast<unsigned long long>(HashBytes(canonicalPath)));
    return folder + "/" + name + kCacheFileExtension;
}

std::string AnalysesCacheFilePath(const std::string& folder, const std::string& canonicalPath) {
    std::string path = CacheFilePath(folder, canonicalPath);
    path.insert(path.size() - std::strlen(kCacheFileExtension), ".analyses");
    return path;
}

std::string ClusterCacheFilePath(const std::string& folder, const std::string& canonicalPath) {
    // Its own hash input: an Nsight export is both a trace and a cluster of its processes.
    std::string path = CacheFilePath(folder, "cluster:" + canonicalPath);
    path.insert(path.size() - std::strlen(kCacheFileExtension), ".cluster");
    return path;
}

Status CreateCacheFolder(const std::string& folder) {
    if (folder.empty())
        return Status::Error("no cache folder: neither XDG_CACHE_HOME nor HOME is set");
    // Each missing folder on the way is made in turn, so that each gets mode 0700.
    for (size_t slash = folder.find('/', 1);; slash = folder.find('/', slash + 1)) {
        const std::string part = folder.substr(0, slash);
        if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST)
            return Status::Error("cannot create " + part + ": " + std::strerror(errno));
        if (slash == std::string::npos) break;
    }
    struct stat info {};
    if (::stat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        return Status::Error("cannot create " + folder + ": it is not a folder");
    return Status();
}

size_t EvictOldest(const std::string& folder, uint64_t limitBytes, const std::string& keep) {
    namespace fs = std::filesystem;
    std::vector<CacheEntry> entries;
    uint64_t totalBytes = 0;
    size_t removed = 0;
    const int64_t staleBeforeNs = int64_t{std::time(nullptr) - 3600} * 1'000'000'000;
    std::error_code error;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        const std::string path = it->path().string();
        const bool temporary =
            path.find(std::string(kCacheFileExtension) + ".tmp.") != std::string::npos;
        if (!temporary && !EndsWith(path, kCacheFileExtension)) continue;
        struct stat info {};
        if (::lstat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
        if (temporary) {
            // A writer renames its file within seconds; one this old belongs to a crashed process.
            if (ModifiedNs(info) < staleBeforeNs && ::unlink(path.c_str()) == 0) ++removed;
            continue;
        }
        entries.push_back({path, static_cast<uint64_t>(info.st_size), ModifiedNs(info)});
        totalBytes += static_cast<uint64_t>(info.st_size);
    }
    std::sort(entries.begin(), entries.end(),
              [](const CacheEntry& a, const CacheEntry& b) { return a.modifiedNs < b.modifiedNs; });
    for (const CacheEntry& entry : entries) {
        if (totalBytes <= limitBytes) break;
        if (entry.path == keep) continue;
        if (::unlink(entry.path.c_str()) == 0) ++removed;
        totalBytes -= entry.bytes;  // gone, or another process removed it first
    }
    return removed;
}

void TouchCacheFile(const std::string& path) {
    ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
}

}  // namespace marey

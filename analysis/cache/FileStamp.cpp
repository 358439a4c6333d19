#include "cache/FileStamp.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <ctime>

namespace marey {
namespace {

int64_t Ns(const struct timespec& time) {
    return int64_t{time.tv_sec} * 1'000'000'000 + time.tv_nsec;
}

}  // namespace

FileStamp StampOf(const std::string& path) {
    FileStamp stamp;
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return stamp;
    stamp.kind = S_ISREG(info.st_mode)   ? StampKind::kFile
                 : S_ISDIR(info.st_mode) ? StampKind::kFolder
                                         : StampKind::kOther;
    // A folder's size says nothing a reader needs, and some file systems change it lazily.
    stamp.sizeBytes = stamp.kind == StampKind::kFile ? static_cast<uint64_t>(info.st_size) : 0;
    stamp.modifiedNs = Ns(info.st_mtim);
    stamp.changedNs = Ns(info.st_ctim);
    stamp.inode = static_cast<uint64_t>(info.st_ino);
    stamp.device = static_cast<uint64_t>(info.st_dev);
    return stamp;
}

int64_t WallClockNs() {
    struct timespec now {};
    ::clock_gettime(CLOCK_REALTIME, &now);
    return Ns(now);
}

bool Settled(const FileStamp& stamp, int64_t sinceNs) {
    return std::max(stamp.modifiedNs, stamp.changedNs) < sinceNs - kStampSettleNs;
}

std::string StampChange(const FileStamp& before, const FileStamp& now) {
    if (before == now) return "";
    if (now.kind == StampKind::kMissing) return "removed";
    if (before.kind == StampKind::kMissing) return "added";
    if (before.kind != now.kind)
        return now.kind == StampKind::kFolder ? "now a folder"
               : now.kind == StampKind::kFile ? "now a file"
                                              : "now neither a file nor a folder";
    if (before.inode != now.inode || before.device != now.device) return "replaced";
    if (now.kind == StampKind::kFolder) return "its entries changed";
    if (before.sizeBytes != now.sizeBytes)
        return "its size changed from " + std::to_string(before.sizeBytes) + " to " +
               std::to_string(now.sizeBytes) + " bytes";
    return "written to";
}

}  // namespace marey

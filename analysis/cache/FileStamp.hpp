#pragma once
// What a file or folder looked like when something was made from it: enough of its status to
// tell, without reading it, that it was changed, replaced, grown or removed since. A file
// written in place changes its change time (ctime) even when its modification time is put back;
// a folder changes its times whenever an entry is added, removed or renamed in it.
#include <cstdint>
#include <string>

namespace marey {

enum class StampKind : uint32_t { kMissing = 0, kFile = 1, kFolder = 2, kOther = 3 };

// A plain record of fixed layout (no padding), written to cache files as it is.
struct FileStamp {
    StampKind kind = StampKind::kMissing;
    uint32_t reserved = 0;
    uint64_t sizeBytes = 0;
    int64_t modifiedNs = 0, changedNs = 0;
    uint64_t inode = 0, device = 0;

    bool operator==(const FileStamp&) const = default;
};
static_assert(sizeof(FileStamp) == 48);

// The stamp of 'path', links followed; kMissing when it cannot be read. One stat call.
FileStamp StampOf(const std::string& path);

// The wall clock now, in ns since the epoch: what stamps' times are compared with.
int64_t WallClockNs();

// How much older than the moment a reading began a stamp's times must be for the stamp to tell
// every later change: a file system's clock ticks coarsely (a jiffy, or a second on some), so a
// change in the same tick as the one before it leaves the same times.
inline constexpr int64_t kStampSettleNs = 1'000'000'000;

// Whether 'stamp' was last changed at least kStampSettleNs before 'sinceNs' (WallClockNs): a
// file still being written, or written just before it was read, is not.
bool Settled(const FileStamp& stamp, int64_t sinceNs);

// What differs between 'before' and 'now' of one path, for a person: "removed", "changed",
// "replaced", "now a folder"…; empty when they are equal.
std::string StampChange(const FileStamp& before, const FileStamp& now);

}  // namespace marey

#pragma once
// One file of the index cache: a header that names the trace it was made from, then a payload
// with a checksum over it. Written under a temporary name and renamed, so that a crash never
// leaves half a file under the real name; read with every length checked against what is left,
// so that a truncated, garbled or foreign file is refused with the reason, never trusted.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "cache/Checksum.hpp"
#include "core/PodArray.hpp"
#include "core/Status.hpp"

namespace marey {

// What a cache file was made from: the trace's canonical path, its size and modification time.
// A trace that changed has another size or time, and its cache is refused.
struct CacheKey {
    std::string path;
    uint64_t sizeBytes = 0;
    int64_t mtimeNs = 0;
};

// The payload's format: its version (bumped whenever its layout or its meaning changes), and a
// tag of the sizes of the raw records it holds, so that another build's layout is refused too.
struct CacheFormat {
    uint32_t version = 0;
    uint32_t layout = 0;
};

inline constexpr char kCacheMagic[8] = {'M', 'A', 'R', 'E', 'Y', 'I', 'D', 'X'};

// The fixed start of every cache file, in the machine's byte order; the key's path follows it.
struct CacheHeader {
    char magic[8];
    uint32_t version;
    uint32_t layout;
    uint64_t sourceBytes;
    int64_t sourceMtimeNs;
    uint64_t payloadBytes;
    uint64_t payloadChecksum;
    uint32_t pathBytes;
    // Of the header's other fields and the key's path: the payload's checksum does not cover
    // them, and a damaged length or path must not read as another trace's file.
    uint32_t headerChecksum;
};
static_assert(sizeof(CacheHeader) == 56);
// Whether a folder stands where the cache file 'path' goes: no file can be renamed over it, so
// nothing is cached there until a person removes it (said when it is read, not again when written).
bool CacheFileIsFolder(const std::string& path);

// What a reader that ignored the cache file 'path' says it does next: "; it is written again after
// this load" ('subject' is "it" or "they"), or nothing when a folder stands there.
std::string RewriteNote(const std::string& path, const char* subject = "it");

// Paths longer than this are not cached (PATH_MAX is 4096).
constexpr uint32_t kMaxCachedPathBytes = 4096;

// Arrays of at least this many bytes start and end on a page of the file (the writer pads before
// and after them), so that a reader can map them in place.
inline constexpr uint64_t kPageAlignedArrayBytes = 64 << 10;
inline constexpr uint64_t kCachePageBytes = 4096;
inline bool IsPageAligned(uint64_t arrayBytes) {
    return arrayBytes >= kPageAlignedArrayBytes;
}

// Writes one cache file: buffered, large arrays straight from their memory. The first failure
// is kept and reported by Commit; the calls after it do nothing.
class CacheFileWriter {
public:
    // Creates a temporary file in the folder of 'path' (mode 0600) that Commit renames to 'path'.
    static Result<std::unique_ptr<CacheFileWriter>> Create(const std::string& path,
                                                           const CacheKey& key,
                                                           const CacheFormat& format);
    CacheFileWriter(const CacheFileWriter&) = delete;
    CacheFileWriter& operator=(const CacheFileWriter&) = delete;
    ~CacheFileWriter();  // removes the temporary file unless committed

    void Write(const void* data, size_t bytes);
    template <typename T>
    void WriteValue(const T& value) {
        static_assert(std::is_trivially_copyable_v<T>);
        Write(&value, sizeof value);
    }
    // A count, then the elements' bytes; a large array padded to start and end on a page.
    template <typename T>
    void WriteArray(const T* data, size_t count) {
        static_assert(std::is_trivially_copyable_v<T>);
        WriteValue<uint64_t>(count);
        const bool aligned = IsPageAligned(count * sizeof(T));
        if (aligned) PadToPage();
        Write(data, count * sizeof(T));
        if (aligned) PadToPage();
    }
    // WriteArray's layout for records with padding, whose bytes in memory are whatever was there
    // before: each chunk of records is zeroed, then 'copyFields(first, count, out)' copies their
    // fields one by one, so that the file is the same run after run and holds no stray memory.
    template <typename T, typename CopyFields>
    void WriteArrayOfFields(size_t count, CopyFields copyFields) {
        static_assert(std::is_trivially_copyable_v<T>);
        WriteValue<uint64_t>(count);
        const bool aligned = IsPageAligned(count * sizeof(T));
        if (aligned) PadToPage();
        constexpr size_t kChunkRecords = 4096;
        std::vector<T> chunk(std::min(count, kChunkRecords));
        for (size_t first = 0; first < count; first += kChunkRecords) {
            const size_t records = std::min(kChunkRecords, count - first);
            std::memset(static_cast<void*>(chunk.data()), 0, records * sizeof(T));
            copyFields(first, records, chunk.data());
            Write(chunk.data(), records * sizeof(T));
        }
        if (aligned) PadToPage();
    }
    void WriteString(std::string_view text) { WriteArray(text.data(), text.size()); }
    // A bool as one byte, 0 or 1.
    void WriteFlag(bool value) { WriteValue<uint8_t>(value ? 1 : 0); }

    // Writes the header with the payload's length and checksum and renames the file to its
    // real name. Returns the file's size, or why it could not be written.
    Result<uint64_t> Commit();
    // The payload's checksum, once committed: what a file made from this one names it by.
    uint64_t PayloadChecksum() const { return m_header.payloadChecksum; }

private:
    CacheFileWriter() = default;
    void PadToPage();
    void Flush();
    void Fail(const std::string& what);

    int m_fd = -1;
    std::string m_path, m_tempPath;
    CacheHeader m_header{};
    uint64_t m_headerBytes = 0;  // the header and the key's path
    std::string m_keyPath;
    std::vector<char> m_buffer;
    Checksum m_checksum;
    uint64_t m_payloadBytes = 0;
    Status m_status;
    bool m_committed = false;
};

// Reads one cache file's payload from a private mapping of the file. Open checks the header and
// the checksum over the whole payload; every read after is checked against the payload's end, so
// that a damaged count fails instead of allocating or reading on. A large array is not copied: it
// takes over its pages of the mapping (the page cache's, with no copy), and the pages that no
// array took are unmapped when the reader goes. Cache files are only ever replaced by a rename,
// never truncated in place, so the mapping stays whole while arrays use it.
class CacheFileReader {
public:
    // Maps 'path' and checks its header against 'key' and 'format' and its payload against its
    // checksum. The error says why the file does not fit ("written in format 1, …"); a file that
    // is not there is an error whose message is empty. O(file): the checksum reads it all.
    static Result<std::unique_ptr<CacheFileReader>> Open(const std::string& path,
                                                         const CacheKey& key,
                                                         const CacheFormat& format);
    CacheFileReader(const CacheFileReader&) = delete;
    CacheFileReader& operator=(const CacheFileReader&) = delete;
    ~CacheFileReader();

    // Copies the next 'bytes' bytes to 'data'; false (with Finish saying why) past the end.
    bool Read(void* data, size_t bytes);
    template <typename T>
    bool ReadValue(T& value) {
        static_assert(std::is_trivially_copyable_v<T>);
        return Read(&value, sizeof value);
    }
    // A count that fits in what is left, as WriteArray wrote it; false when it does not.
    template <typename T>
    bool ReadCount(uint64_t& count) {
        return ReadValue(count) && CountFits(count, sizeof(T));
    }
    // An array as WriteArray wrote it: a large one takes over its pages of the mapping.
    template <typename T>
    bool ReadArray(PodArray<T>& array) {
        uint64_t count = 0;
        if (!ReadCount<T>(count)) return false;
        const uint64_t bytes = count * sizeof(T);
        if (IsPageAligned(bytes) && PodArray<T>::CanAdopt(count)) {
            uint64_t regionBytes = 0;
            char* data = TakePages(bytes, &regionBytes);
            if (!data) return false;
            array = PodArray<T>::AdoptFileMapping(reinterpret_cast<T*>(data), count, regionBytes);
            return true;
        }
        if (IsPageAligned(bytes) && !SkipToPage()) return false;
        array.resize(count);
        return Read(array.data(), bytes) && (!IsPageAligned(bytes) || SkipToPage());
    }
    template <typename T>
    bool ReadArray(std::vector<T>& array) {
        static_assert(std::is_trivially_copyable_v<T>);
        uint64_t count = 0;
        if (!ReadCount<T>(count)) return false;
        const uint64_t bytes = count * sizeof(T);
        if (IsPageAligned(bytes) && !SkipToPage()) return false;
        array.resize(count);
        return Read(array.data(), bytes) && (!IsPageAligned(bytes) || SkipToPage());
    }
    bool ReadString(std::string& text);
    // A bool as WriteFlag wrote it; any byte but 0 and 1 is damage.
    bool ReadFlag(bool& value);
    // The payload's checksum, from the header (checked against the payload by Open).
    uint64_t PayloadChecksum() const { return m_payloadChecksum; }
    // Bytes of the payload not read yet.
    uint64_t Remaining() const { return m_payloadEnd - m_at; }
    // Whether 'count' elements of 'elementBytes' fit in what is left (a guard before allocating).
    bool CountFits(uint64_t count, size_t elementBytes);

    // After the last read: the whole payload was read, or why not.
    Status Finish();
    // Marks the payload as damaged: what it says cannot be (an index out of range). The first
    // reason is kept.
    void Refuse(const std::string& reason);

private:
    CacheFileReader() = default;
    Status CheckHeader(const CacheKey& key, const CacheFormat& format, uint64_t fileBytes);
    // Moves to the next page of the file, over the writer's padding.
    bool SkipToPage();
    // The next 'bytes' bytes, from the next page on, as whole pages ('regionBytes') that the
    // caller's array takes over; null when they are not there.
    char* TakePages(uint64_t bytes, uint64_t* regionBytes);

    std::string m_path;
    char* m_base = nullptr;  // the mapping of the whole file
    uint64_t m_mappedBytes = 0;
    uint64_t m_at = 0, m_payloadEnd = 0;  // offsets in the file
    uint64_t m_payloadChecksum = 0;
    std::vector<std::pair<uint64_t, uint64_t>> m_taken;  // page ranges arrays took, in order
    std::string m_refused;
};

}  // namespace marey

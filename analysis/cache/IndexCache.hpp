#pragma once
// The index cache: a trace file opened once re-opens from what its first load derived (the
// model's arrays, strings and report), kept in the user's cache folder (CacheFolder.hpp) and
// keyed by the trace's canonical path, size and modification time and by the format's version
// (ModelSerializer.hpp). The trace itself is still mapped, since args are read from it on demand;
// a .json.gz is still inflated, and only the parse is saved. A cache file that does not fit its
// trace, or is truncated or damaged, is ignored with one line saying why, and written again after
// the load.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cache/CacheFile.hpp"
#include "core/Status.hpp"
#include "load/TraceText.hpp"
#include "model/TraceModel.hpp"

namespace marey {

// What the cache may hold in all, unless MAREY_CACHE_LIMIT says otherwise.
inline constexpr uint64_t kDefaultCacheLimitBytes = uint64_t{4} << 30;

struct IndexCacheOptions {
    // Off unless asked: the command line asks (marey, stats, compare, check) unless --no-cache.
    bool enabled = false;
    std::string folder;  // where its files go; empty: DefaultCacheFolder()
    uint64_t limitBytes = kDefaultCacheLimitBytes;
    // Hears one line when a cache file is ignored (and why) or cannot be written; called on the
    // loading thread or on the thread that writes the cache. May be empty.
    std::function<void(const std::string&)> say;
};

// "4G", "500M", "64K" (powers of 1024) or a count of bytes; nullopt for anything else.
std::optional<uint64_t> ParseCacheLimit(std::string_view text);

// The cache as the command line sets it up: on unless 'noCache'; its limit from the environment
// variable MAREY_CACHE_LIMIT when set (0 turns the cache off); lines said to stderr, after
// "marey: ". Fails with a message when MAREY_CACHE_LIMIT is not a size.
Result<IndexCacheOptions> IndexCacheFromEnvironment(bool noCache);

// Writes the cache file 'path' of 'key' in 'format' with what 'serialize' writes (making the
// folder when missing); a file over the options' limit is removed again and said; then the least
// recently used files over the limit go. Its size, or why it was not written; 'checksum' (may be
// null) gets its payload's. Every file of the cache is written by it.
Result<uint64_t> WriteCacheFile(const IndexCacheOptions& options, const std::string& path,
                                const CacheKey& key, const CacheFormat& format,
                                const std::function<void(CacheFileWriter&)>& serialize,
                                uint64_t* checksum = nullptr);

// The cache entry of one trace file.
class IndexCache {
public:
    // For the trace file 'path' (also the name its model's source and the messages give it): its
    // canonical path, size and modification time are read now, before the trace is, so that a
    // trace that changes while it loads is cached under a time that no longer fits it. Usable()
    // is false when they cannot be read.
    IndexCache(IndexCacheOptions options, const std::string& path);

    bool Usable() const { return m_keyRead; }
    // The cache file of this trace; empty when there is no cache folder.
    const std::string& FilePath() const { return m_filePath; }

    // The model from the cache file, with 'text' (the trace's, opened after this object was
    // made) moved into its source. Null, and 'text' left as it was, when there is no cache file
    // or it does not fit (the options' 'say' then hears why). O(model) for its checksum and
    // checks; its large arrays are the cache file's pages, mapped, not copied.
    std::unique_ptr<TraceModel> Read(TraceText& text) const;

    // Writes 'model' (loaded from this trace) to the cache file on model.cacheWrite, a thread of
    // its own that the model joins before it goes, then evicts the oldest files over the limit.
    // A failure is said, never returned: the load has succeeded.
    void WriteInBackground(TraceModel& model) const;
    // The same on this thread: the file's size, or why it was not written; 'checksum' (may be
    // null) gets its payload's. O(model).
    Result<uint64_t> Write(const TraceModel& model, uint64_t* checksum = nullptr) const;
    // The trace's key (canonical path, size, time) as read when this object was made.
    const CacheKey& Key() const { return m_key; }
    const IndexCacheOptions& Options() const { return m_options; }
    // The trace as the messages name it.
    const std::string& Name() const { return m_name; }

private:
    void Say(const std::string& line) const;

    IndexCacheOptions m_options;
    CacheKey m_key;
    std::string m_name;  // the trace as the messages name it
    std::string m_filePath;
    bool m_keyRead = false;  // the trace's canonical path, size and time are known
};

}  // namespace marey

#pragma once
// The folder the index cache lives in: where it is, what its files are called, and keeping it
// under its size limit. Nothing of the cache is ever written beside the user's files.
#include <cstdint>
#include <string>

#include "core/Status.hpp"

namespace marey {

// $XDG_CACHE_HOME/marey, else $HOME/.cache/marey (a relative XDG_CACHE_HOME is ignored, as the
// XDG specification says); empty when neither is set.
std::string DefaultCacheFolder();

// The cache file of the trace at 'canonicalPath' in 'folder': a hash of the path, so that one
// trace has one file wherever it is opened from. Two paths that share a hash share the file; its
// header says which one it holds.
std::string CacheFilePath(const std::string& folder, const std::string& canonicalPath);

// The file of the analyses cached beside that cache file: "<hash>.analyses.index" (it ends as
// the cache's files do, so that EvictOldest weighs it like them).
std::string AnalysesCacheFilePath(const std::string& folder, const std::string& canonicalPath);

// The file of the rank summaries of the cluster at 'canonicalPath': "<hash>.cluster.index".
std::string ClusterCacheFilePath(const std::string& folder, const std::string& canonicalPath);

// Creates 'folder' and the folders above it that are missing, each readable by its owner only
// (0700). Fails with the reason when it cannot.
Status CreateCacheFolder(const std::string& folder);

// Removes the least recently used cache files of 'folder' (by modification time: a file read is
// touched) until their sizes add up to at most 'limitBytes', never 'keep'. Temporary files that
// a crashed writer left an hour or more ago are removed too. Returns how many files went.
// O(files in the folder).
size_t EvictOldest(const std::string& folder, uint64_t limitBytes, const std::string& keep);

// Marks 'path' as just used, for EvictOldest.
void TouchCacheFile(const std::string& path);

// The extension of the cache's files.
inline constexpr const char* kCacheFileExtension = ".index";

}  // namespace marey

#pragma once
// What a cluster folder's first open found, kept in the index cache's folder (CacheFolder.hpp) so
// that opening it again reads neither its folders nor its ranks' files when they have not
// changed: the walk's result (which ranks, read from what) and each rank's summary as
// `marey summarize` writes it (ClusterRankFile.hpp), with the stamp (FileStamp.hpp) of every
// folder the walk listed, of every folder a rank was read from and of every file directly in
// those. A rank all of whose stamps still fit is taken from the cache, any other is read again;
// the walk is taken only when every folder and every rank still fits. Rank folders (text or
// database) and rank traces are cached; summary files and MindInsight's files are read as they
// are (they are summaries already).
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "cache/FileStamp.hpp"
#include "cache/IndexCache.hpp"
#include "cluster/ClusterFolder.hpp"
#include "cluster/ClusterRank.hpp"
#include "cluster/RankInput.hpp"

namespace marey {

// Bump when what a rank's summary or the walk holds or means changes (SummarizeRankFolder, the
// summary of a trace, the readers they call, FindClusterFolders): caches of the old meaning are
// then refused and written again.
inline constexpr uint32_t kClusterRankCacheVersion = 2;

// What walking a cluster folder found, as the loader uses it.
struct ClusterWalk {
    RankInputList ranks;
    std::vector<std::string> problems;       // rank folders that could not be read
    std::vector<SkippedFolder> skipped;      // folders not read although they may hold a rank
    std::string analysisOutput;              // a cluster_analysis_output folder, or empty
    std::vector<std::string> listedFolders;  // FindClusterFolders's
    bool repeatable = false;                 // FindClusterFolders's
    // Per input of rank folders, the files the walk found in it (what reading it starts from);
    // empty when the walk was taken from the cache.
    std::vector<RankFiles> rankFiles;
};

// FindClusterFolders and ListRankInputs of 'path'. O(entries walked).
ClusterWalk WalkClusterFolder(const std::string& path);

class ClusterRankCache {
public:
    // Reads the cache file of the cluster at 'clusterPath' (as the messages name it), whose ranks
    // are read with 'read' (its step range and source: a file written with others holds other
    // summaries); nothing when the options are not enabled. A file that does not fit is said
    // (options.say, "… ignored: why") and written again after the load. O(file).
    ClusterRankCache(IndexCacheOptions options, const std::string& clusterPath,
                     const RankReadOptions& read);
    ClusterRankCache(const ClusterRankCache&) = delete;
    ClusterRankCache& operator=(const ClusterRankCache&) = delete;

    // The walk as the cache holds it, when every folder it listed and every one of its ranks'
    // folders and files is as it was: the folder need not be walked again. O(stamps), checked
    // on 'threads' threads.
    std::optional<ClusterWalk> TakeWalk(unsigned threads);
    // The walk whose ranks are read next (taken or made afresh). Must come before Take.
    void SetWalk(const ClusterWalk& walk);

    // The cached summary of rank input 'index' when every folder and file it was read from is
    // as it was then; else none (why is kept for Finish's line). Safe on several threads at once
    // for distinct indexes. O(its stamps + its summary).
    std::optional<ClusterRank> Take(size_t index);
    // Before input 'index' is read afresh: the stamps of what it may read, taken now, so that a
    // file that changes while it is read makes the entry stale. Distinct indexes as Take.
    void StampBeforeRead(size_t index);
    // After: its summary, before anything across the ranks changes it (an unreadable rank, or one
    // whose text would not read back the same, is not kept). Distinct indexes as Take.
    void Keep(size_t index, const ClusterRank& rank);
    // Says in one line which ranks were read again because their files changed, and writes the
    // file again when anything was read afresh.
    void Finish();

    // How many ranks Take gave; whether TakeWalk gave the walk.
    uint32_t TakenCount() const { return m_taken.load(); }
    bool WalkTaken() const { return m_walkTaken; }

private:
    struct Entry {
        std::vector<std::string> paths;  // the folders and files stamped
        std::vector<FileStamp> stamps;   // per path
        std::string summary;             // WriteRankSummary's text, its path left out
        bool valid = false;              // read from the file, or kept by this load
        bool checked = false;            // its stamps were found to fit by TakeWalk
    };
    bool Cacheable(size_t index) const;
    void Say(const std::string& line) const;
    bool ReadFile();
    void WriteFile();

    IndexCacheOptions m_options;
    std::string m_clusterPath;  // as the messages name it
    CacheKey m_key;             // its canonical path
    std::string m_filePath;     // empty: nothing is read or written
    std::string m_readKey;      // the step range and source the summaries are read with
    int64_t m_walkStartNs = 0;  // made just before the walk: what its stamps must be older than
    // From the file: the walk (its header text, the listed folders' stamps) and the entries by
    // their input's key.
    std::string m_storedWalk;
    Entry m_storedFolders;
    std::unordered_map<std::string, Entry> m_stored;
    size_t m_storedCount = 0;
    // This load's: the walk, and per rank input what the file gets.
    ClusterWalk m_walk;
    bool m_walkTaken = false;
    std::vector<Entry> m_entries;
    std::vector<std::string> m_changes;  // per input: why its entry was stale
    std::vector<uint8_t> m_fromCache;    // per input: taken from the cache
    std::atomic<uint32_t> m_taken{0};
};

}  // namespace marey

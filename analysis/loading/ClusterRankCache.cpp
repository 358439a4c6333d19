#include "loading/ClusterRankCache.hpp"

#include <simdjson.h>

#include <filesystem>

#include "cache/CacheFolder.hpp"
#include "cluster/ClusterRankFile.hpp"
#include "cluster/ClusterSummaryFile.hpp"
#include "core/LoadTiming.hpp"
#include "core/ParallelFor.hpp"
#include "load/RankDirectory.hpp"

namespace marey {
namespace {

namespace fs = std::filesystem;

CacheFormat ClusterCacheFormat() {
    return {kClusterRankCacheVersion, static_cast<uint32_t>(sizeof(FileStamp))};
}

// What identifies an input across opens: its kind, its path as spelled (the summary's messages
// name it so) and its absolute path.
std::string EntryKey(const RankInput& input) {
    return std::string(RankInputKindName(input.kind)) + '\n' + input.path + '\n' + input.absolute;
}

// The folders a rank folder is read from and every file directly in them, or the trace file.
void StampInput(const RankInput& input, std::vector<std::string>& paths,
                std::vector<FileStamp>& stamps) {
    const auto add = [&](const std::string& path) {
        paths.push_back(path);
        stamps.push_back(StampOf(path));
    };
    if (input.kind != RankInputKind::kFolder) return add(input.path);
    for (const std::string& folder : RankFolderFolders(input.path)) {
        // The folder first: an entry added while it is listed changes the folder's stamp.
        add(folder);
        std::error_code error;
        for (fs::directory_iterator it(folder, error), end; !error && it != end;
             it.increment(error))
            if (!it->is_directory(error)) add(it->path().string());
    }
}

// The first path of 'entry' that is not as stamped, with how; empty when all fit.
std::string FirstChange(const std::vector<std::string>& paths,
                        const std::vector<FileStamp>& stamps) {
    for (size_t s = 0; s < paths.size(); ++s) {
        const std::string change = StampChange(stamps[s], StampOf(paths[s]));
        if (!change.empty()) return paths[s] + " " + change;
    }
    return "";
}

bool AllSettled(const std::vector<FileStamp>& stamps, int64_t sinceNs) {
    for (const FileStamp& stamp : stamps)
        if (!Settled(stamp, sinceNs)) return false;
    return true;
}

// The walk as a summary file's header writes it (the same inputs, problems and skipped folders).
ClusterSummaryHeader WalkHeader(const ClusterWalk& walk, const std::string& clusterPath) {
    ClusterSummaryHeader header;
    header.job = clusterPath;
    header.ranks = walk.ranks;
    header.problems = walk.problems;
    header.skipped = walk.skipped;
    return header;
}

bool SameWalk(const ClusterSummaryHeader& a, const ClusterSummaryHeader& b) {
    if (a.job != b.job || a.ranks.source != b.ranks.source || a.ranks.layout != b.ranks.layout ||
        a.problems != b.problems || a.ranks.inputs.size() != b.ranks.inputs.size() ||
        a.skipped.size() != b.skipped.size())
        return false;
    for (size_t i = 0; i < a.ranks.inputs.size(); ++i) {
        const RankInput &x = a.ranks.inputs[i], &y = b.ranks.inputs[i];
        if (x.kind != y.kind || x.path != y.path || x.absolute != y.absolute || x.bytes != y.bytes)
            return false;
    }
    for (size_t i = 0; i < a.skipped.size(); ++i)
        if (a.skipped[i].path != b.skipped[i].path || a.skipped[i].reason != b.skipped[i].reason ||
            a.skipped[i].rankId != b.skipped[i].rankId)
            return false;
    return true;
}

}  // namespace

ClusterWalk WalkClusterFolder(const std::string& path) {
    ClusterFolders folders = FindClusterFolders(path);
    ClusterWalk walk;
    walk.ranks = ListRankInputs(folders);
    if (walk.ranks.source == ClusterSource::kRankFolders)
        walk.rankFiles = std::move(folders.rankFolders);
    walk.problems = std::move(folders.problems);
    walk.skipped = std::move(folders.skipped);
    walk.analysisOutput = std::move(folders.analysisOutput);
    walk.listedFolders = std::move(folders.listedFolders);
    walk.repeatable = folders.repeatable;
    return walk;
}

// [SECTION] Reading the cache file

ClusterRankCache::ClusterRankCache(IndexCacheOptions options, const std::string& clusterPath,
                                   const RankReadOptions& read)
    : m_options(std::move(options)),
      m_clusterPath(clusterPath),
      m_readKey(read.stepRange + "\n--source " + std::to_string(static_cast<int>(read.source))),
      m_walkStartNs(WallClockNs()) {
    if (!m_options.enabled) return;
    if (m_options.folder.empty()) m_options.folder = DefaultCacheFolder();
    std::error_code error;
    const fs::path canonical = fs::canonical(clusterPath, error);
    if (error || m_options.folder.empty()) return;
    m_key.path = canonical.string();
    m_filePath = ClusterCacheFilePath(m_options.folder, m_key.path);
    const LoadTiming timing;
    if (ReadFile()) timing.Report("cluster: rank summaries cache read");
}

void ClusterRankCache::Say(const std::string& line) const {
    if (m_options.say) m_options.say(line);
}

bool ClusterRankCache::ReadFile() {
    auto opened = CacheFileReader::Open(m_filePath, m_key, ClusterCacheFormat());
    const auto ignored = [&](const std::string& why) {
        m_stored.clear();
        m_storedWalk.clear();
        m_storedCount = 0;
        Say(m_clusterPath + ": cluster cache " + m_filePath + " ignored: " + why +
            RewriteNote(m_filePath));
        return false;
    };
    if (!opened.ok()) return opened.message().empty() ? false : ignored(opened.message());
    CacheFileReader& in = *opened.value();
    const auto readStamps = [&](Entry& entry) {
        uint64_t count = 0;
        if (!in.ReadCount<FileStamp>(count)) return false;
        entry.paths.resize(count);
        entry.stamps.resize(count);
        for (uint64_t s = 0; s < count; ++s)
            if (!in.ReadString(entry.paths[s]) || !in.ReadValue(entry.stamps[s])) return false;
        return true;
    };
    std::string readKey;
    bool hasWalk = false;
    uint64_t count = 0;
    if (!in.ReadString(readKey) || !in.ReadFlag(hasWalk) ||
        (hasWalk && (!in.ReadString(m_storedWalk) || !readStamps(m_storedFolders))) ||
        !in.ReadCount<uint64_t>(count))
        return ignored(in.Finish().message());
    for (uint64_t i = 0; i < count; ++i) {
        std::string key;
        Entry entry;
        if (!in.ReadString(key) || !readStamps(entry) || !in.ReadString(entry.summary))
            return ignored(in.Finish().message());
        entry.valid = true;
        m_stored.emplace(std::move(key), std::move(entry));
    }
    if (Status finished = in.Finish(); !finished.ok()) return ignored(finished.message());
    m_storedCount = m_stored.size();
    // Read with another step range or source, the summaries are others: none is these ranks'.
    if (readKey != m_readKey) m_stored.clear(), m_storedWalk.clear();
    TouchCacheFile(m_filePath);
    return true;
}

// [SECTION] The walk

std::optional<ClusterWalk> ClusterRankCache::TakeWalk(unsigned threads) {
    if (m_storedWalk.empty()) return std::nullopt;
    auto header = ReadSummaryHeader(m_storedWalk, m_filePath);
    if (!header.ok() || header.value().job != m_clusterPath) return std::nullopt;
    if (!FirstChange(m_storedFolders.paths, m_storedFolders.stamps).empty()) return std::nullopt;
    const std::vector<RankInput>& inputs = header.value().ranks.inputs;
    std::vector<Entry*> entries(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
        const auto found = m_stored.find(EntryKey(inputs[i]));
        if (found == m_stored.end()) return std::nullopt;
        entries[i] = &found->second;
    }
    // Ten or so stamps a rank: a thousand ranks' stat calls side by side.
    std::atomic<bool> changed{false};
    ParallelFor(entries.size(), std::max(1u, threads), std::vector<uint64_t>(entries.size(), 1),
                [&](size_t i) {
                    if (changed) return;
                    if (FirstChange(entries[i]->paths, entries[i]->stamps).empty())
                        entries[i]->checked = true;
                    else
                        changed = true;
                });
    if (changed) return std::nullopt;
    ClusterWalk walk;
    walk.ranks = std::move(header.value().ranks);
    walk.problems = std::move(header.value().problems);
    walk.skipped = std::move(header.value().skipped);
    walk.listedFolders = m_storedFolders.paths;
    walk.repeatable = true;
    m_walkTaken = true;
    return walk;
}

void ClusterRankCache::SetWalk(const ClusterWalk& walk) {
    m_walk = walk;
    const size_t count = walk.ranks.inputs.size();
    m_entries.assign(count, Entry{});
    m_changes.assign(count, std::string());
    m_fromCache.assign(count, 0);
    if (m_walkTaken) return;
    // Stamped after the walk: kept only when no folder changed since just before it began.
    m_storedFolders = Entry{};
    for (const std::string& folder : walk.listedFolders) {
        m_storedFolders.paths.push_back(folder);
        m_storedFolders.stamps.push_back(StampOf(folder));
    }
}

// [SECTION] The ranks

bool ClusterRankCache::Cacheable(size_t index) const {
    const RankInputKind kind = m_walk.ranks.inputs[index].kind;
    return !m_filePath.empty() && (kind == RankInputKind::kFolder || kind == RankInputKind::kTrace);
}

std::optional<ClusterRank> ClusterRankCache::Take(size_t index) {
    if (!Cacheable(index)) return std::nullopt;
    const RankInput& input = m_walk.ranks.inputs[index];
    const auto found = m_stored.find(EntryKey(input));
    if (found == m_stored.end()) return std::nullopt;
    Entry& stored = found->second;
    if (!stored.checked) {
        m_changes[index] = FirstChange(stored.paths, stored.stamps);
        if (!m_changes[index].empty()) return std::nullopt;
    }
    std::string padded = stored.summary;
    padded.append(simdjson::SIMDJSON_PADDING, ' ');
    auto read = ReadRankSummary(std::string_view(padded.data(), stored.summary.size()), m_filePath);
    if (!read.ok()) {
        m_changes[index] = "its cached summary cannot be read (" + read.message() + ")";
        return std::nullopt;
    }
    read.value().path = input.path;
    m_entries[index] = std::move(stored);  // each input has a key of its own: no other thread's
    m_fromCache[index] = 1;
    ++m_taken;
    return std::move(read.value());
}

void ClusterRankCache::StampBeforeRead(size_t index) {
    if (!Cacheable(index)) return;
    Entry& entry = m_entries[index];
    entry = Entry{};
    StampInput(m_walk.ranks.inputs[index], entry.paths, entry.stamps);
    // A file written within a clock tick of its read could change again unseen: not kept. Its
    // read began with the walk, which read the rank's profiler_info and metadata files.
    if (!AllSettled(entry.stamps, m_walkStartNs)) entry.paths.clear();
}

void ClusterRankCache::Keep(size_t index, const ClusterRank& rank) {
    if (!Cacheable(index)) return;
    Entry& entry = m_entries[index];
    // Not kept: a rank whose path is not its input's would come back under another name.
    if (rank.unreadable || rank.path != m_walk.ranks.inputs[index].path || entry.paths.empty()) {
        entry = Entry{};
        return;
    }
    ClusterRank pathless = rank;
    pathless.path.clear();  // the input's path, put back when it is taken
    pathless.kernels.reset();
    entry.summary = WriteRankSummary(pathless);
    // Text that is not UTF-8 is written as U+FFFD: it would not read back as it was.
    if (entry.summary.find("\\ufffd") != std::string::npos) {
        entry = Entry{};
        return;
    }
    entry.valid = true;
}

// [SECTION] Writing the cache file

void ClusterRankCache::Finish() {
    if (m_filePath.empty()) return;
    size_t changed = 0, fresh = 0;
    const std::string* first = nullptr;
    for (size_t i = 0; i < m_entries.size(); ++i) {
        if (!m_changes[i].empty() && ++changed == 1) first = &m_changes[i];
        if (!m_fromCache[i] && Cacheable(i)) ++fresh;
    }
    if (changed > 0)
        Say(m_clusterPath + ": cluster cache: " + std::to_string(changed) + " of " +
            std::to_string(m_entries.size()) +
            " ranks read again, their files changed since it was written: " + *first +
            (changed > 1 ? " (the first of " + std::to_string(changed) + ")" : ""));
    if (m_walkTaken && fresh == 0 && m_storedCount == m_taken.load()) return;
    WriteFile();
}

void ClusterRankCache::WriteFile() {
    const LoadTiming timing;
    // The walk is kept when it can be told again from its stamps alone: every rank kept, no
    // link or depth limit looked past, nothing changed since just before the walk, and its text
    // reads back as it is.
    std::string walkText;
    bool keepWalk = m_walk.repeatable && !m_entries.empty() &&
                    AllSettled(m_storedFolders.stamps, m_walkStartNs);
    for (size_t i = 0; keepWalk && i < m_entries.size(); ++i)
        keepWalk = m_entries[i].valid && AllSettled(m_entries[i].stamps, m_walkStartNs);
    if (keepWalk) {
        const ClusterSummaryHeader header = WalkHeader(m_walk, m_clusterPath);
        walkText = WriteSummaryHeader(header);
        auto again = ReadSummaryHeader(walkText, m_filePath);
        keepWalk = again.ok() && SameWalk(again.value(), header);
    }
    size_t count = 0;
    for (const Entry& entry : m_entries) count += entry.valid;
    const Result<uint64_t> written = WriteCacheFile(
        m_options, m_filePath, m_key, ClusterCacheFormat(), [&](CacheFileWriter& out) {
            const auto writeStamps = [&](const Entry& entry) {
                out.WriteValue<uint64_t>(entry.paths.size());
                for (size_t s = 0; s < entry.paths.size(); ++s) {
                    out.WriteString(entry.paths[s]);
                    out.WriteValue(entry.stamps[s]);
                }
            };
            out.WriteString(m_readKey);
            out.WriteFlag(keepWalk);
            if (keepWalk) out.WriteString(walkText), writeStamps(m_storedFolders);
            out.WriteValue<uint64_t>(count);
            for (size_t i = 0; i < m_entries.size(); ++i) {
                if (!m_entries[i].valid) continue;
                out.WriteString(EntryKey(m_walk.ranks.inputs[i]));
                writeStamps(m_entries[i]);
                out.WriteString(m_entries[i].summary);
            }
        });
    if (!written.ok()) {
        if (!written.message().empty())
            Say(m_clusterPath + ": cluster cache not written: " + written.message());
        return;
    }
    timing.Report("cluster: rank summaries cache written");
}

}  // namespace marey

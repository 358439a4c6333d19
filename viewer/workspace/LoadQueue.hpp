#pragma once
// Loads documents on background threads, several at once, each with its own progress; a load can
// be cancelled. The window keeps drawing and shows the progress of each.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cluster/Cluster.hpp"
#include "loading/ClusterLoader.hpp"
#include "loading/RanksTimeline.hpp"
#include "import/chrome_json/TraceLoader.hpp"
#include "workspace/ClusterDocument.hpp"
#include "workspace/Document.hpp"

namespace marey {

struct LoadStatus {
    DocumentId id;
    std::string path;
    float fraction;     // 0..1
    const char* stage;  // "parsing events", …
    // False once the document's timeline is shown and its analyses are computed: they cannot be
    // stopped (closing the document drops them).
    bool cancellable = true;
};

class LoadQueue {
public:
    LoadQueue() = default;
    LoadQueue(const LoadQueue&) = delete;
    LoadQueue& operator=(const LoadQueue&) = delete;
    ~LoadQueue();  // cancels what still runs and waits for it

    // Starts loading 'path' as document 'id': a cluster folder becomes a ClusterDocument, anything
    // else a Document. 'share' loads started together split the cores
    // between them (two sides of a comparison: 2), so that they cost no more than one after the
    // other.
    void Start(DocumentId id, const std::string& path, unsigned share = 1);
    // Which export of a rank folder that holds both the loads that start later open.
    void SetRankSource(RankSource source) { m_source = source; }
    // Called on a loading thread whenever a load has something for TakeFinished (its timeline,
    // or its end), so that a window waiting for input draws it at once. Must be thread-safe.
    void SetWake(std::function<void()> wake) { m_wake = std::move(wake); }
    // An Nsight Systems export's step range (--step-range), for every load from now on.
    void SetStepRange(std::string name) { m_stepRange = std::move(name); }
    // A job recorded in one Nsight Systems export opens in the cluster views (a cluster view was
    // asked for), for every load from now on; else as ranks in one timeline.
    void SetExportJobsAsClusters(bool asClusters) { m_exportJobsAsClusters = asClusters; }
    // How the loads that start later use the index cache of traces.
    void SetIndexCache(const IndexCacheOptions& cache) { m_cache = cache; }
    // Starts loading several ranks into one timeline as document 'id', aligned on 'alignStep'
    // (see RanksTimelineOptions).
    void StartRanks(DocumentId id, const std::vector<std::string>& paths,
                    const std::string& alignStep);
    // Asks the load to stop; it then finishes with an error saying it was cancelled.
    void Cancel(DocumentId id);
    bool Busy() const { return !m_jobs.empty(); }
    bool IsLoading(DocumentId id) const;
    std::vector<LoadStatus> Running() const;

    struct Finished {
        DocumentId id;
        std::string path;
        std::unique_ptr<Document> document;        // a trace or rank folder; null otherwise
        std::unique_ptr<ClusterDocument> cluster;  // a cluster folder; null otherwise
        std::string error;                         // when both are null
        bool cancelled = false;                    // the load stopped because Cancel asked it
        // The document's timeline, before its analyses (Document::analysisPending): the load
        // goes on, and ends later with the whole document of the same id.
        bool timelineOnly = false;
        // The load ended after it had given its timeline: the document, if any, completes it.
        bool afterTimeline = false;
    };
    // The loads that ended since the last call, in the order they ended, and the timelines that
    // loads still computing their analyses have ready (each given once, before its load ends).
    std::vector<Finished> TakeFinished();

private:
    struct Job {
        DocumentId id;
        std::string path;
        LoadProgress progress;
        ClusterProgress clusterProgress;
        std::atomic<bool> isCluster{false};
        std::vector<std::string> rankPaths;  // several ranks in one timeline
        std::string alignStep;
        RankSource source = RankSource::kAuto;
        std::string stepRange;
        bool exportJobAsCluster = false;
        IndexCacheOptions cache;
        RanksProgress ranksProgress;
        std::thread thread;
        std::atomic<bool> done{false};
        std::function<void()> wake;  // LoadQueue::SetWake's, for the loading thread
        bool cancelled = false;      // Cancel was asked (UI thread only)
        std::unique_ptr<Document> document;
        std::unique_ptr<ClusterDocument> cluster;
        std::string error;
        // The timeline, made on the loading thread once the model is ready (guarded by
        // timelineMutex); taken by TakeFinished.
        std::mutex timelineMutex;
        std::unique_ptr<Document> timeline;
        // Its derived data (loading thread only): the whole document's adds the analyses' to it.
        std::shared_ptr<const TimelineData> timelineShown;
        bool timelineGiven = false;  // UI thread only
        // Its document was closed after its timeline was given: the analyses still run, but the
        // load is no longer shown or found (UI thread only).
        bool dropped = false;
    };
    static void Run(Job& job, unsigned threads);
    static void RunCluster(Job& job, unsigned threads);
    static void RunRanks(Job& job, unsigned threads);

    std::vector<std::unique_ptr<Job>> m_jobs;
    RankSource m_source = RankSource::kAuto;
    std::function<void()> m_wake;
    std::string m_stepRange;
    bool m_exportJobsAsClusters = false;
    IndexCacheOptions m_cache;
};

}  // namespace marey

#include "workspace/LoadQueue.hpp"

#include <algorithm>
#include <string_view>

#include "cluster/ClusterFolder.hpp"
#include "import/Importer.hpp"
#include "import/nsys/NsysLoader.hpp"
#include "loading/RankLoader.hpp"
#include "timeline/TimelineData.hpp"

namespace marey {
namespace {

// The stage of a load whose timeline is shown while the rank's analyses are computed.
constexpr int kStageAnalyses = 4;

float ClusterFraction(const ClusterProgress& progress) {
    const uint32_t total = progress.ranksTotal.load();
    return total ? 0.95f * static_cast<float>(progress.ranksDone.load()) / static_cast<float>(total)
                 : 0.0f;
}

float Fraction(const LoadProgress& progress) {
    // The timeline is on screen: what is left is the analyses, about a tenth of a first load.
    if (progress.stage.load() == kStageAnalyses) return 0.9f;
    const uint64_t total = progress.bytesTotal.load();
    if (total == 0) return 0.0f;
    const float parsed = static_cast<float>(progress.bytesDone.load()) / static_cast<float>(total);
    // Parsing is about three quarters of a load; indexing the rest.
    return progress.stage.load() >= 2 ? 0.8f : 0.75f * std::min(parsed, 1.0f);
}

const char* StageText(const LoadProgress& progress) {
    switch (progress.stage.load()) {
        case 0:
            return "reading";
        case 1:
            return "parsing events";
        case 2:
            return "building tracks and index";
        case 3:
            return "summarising";
        default: {
            const char* analysis = progress.analysis.load();
            return analysis ? analysis : "computing the analyses";
        }
    }
}

float RanksFraction(const RanksProgress& progress) {
    const uint32_t total = progress.ranksTotal.load();
    if (total == 0) return 0.0f;
    const uint32_t done = progress.ranksDone.load();
    const float current = done < total ? Fraction(progress.rank) : 0.0f;
    return 0.95f * (static_cast<float>(done) + current) / static_cast<float>(total);
}

// The document's derived data, built on the loading thread: never on the UI thread. 'shown' is
// the timeline's data of the same model when its timeline was given before the analyses.
void BuildDerivedData(Document& document, const TimelineData* shown = nullptr) {
    // A rank's summary feeds the comparison, which a timeline of several ranks is never part of.
    if (!document.ranks && !document.analysisPending)
        document.summary =
            SummarizeRank(document.analysis(), &document.model(), document.rank.path);
    const TraceAnalyses* analyses = document.analysis().trace.get();
    document.timelineData = std::make_shared<const TimelineData>(
        shown && analyses ? WithDeviceAnalyses(*shown, document.model(), *analyses)
                          : BuildTimelineData(document.model(), analyses));
    for (const Track& track : document.model().tracks)
        document.hasOverlapAnalysis |= track.role == TrackRole::kOverlapAnalysis;
}

}  // namespace

LoadQueue::~LoadQueue() {
    for (auto& job : m_jobs)
        job->progress.cancel = true, job->clusterProgress.cancel = true,
        job->ranksProgress.rank.cancel = true;
    for (auto& job : m_jobs)
        if (job->thread.joinable()) job->thread.join();
}

void LoadQueue::RunCluster(Job& job, unsigned threads) {
    RankReadOptions options;
    options.stepRange = job.stepRange;
    options.source = job.source;
    auto loaded = LoadCluster(job.path, threads, &job.clusterProgress, options, job.cache);
    if (!loaded.ok()) {
        job.error = loaded.message();
    } else {
        auto cluster = std::make_unique<ClusterDocument>();
        cluster->id = job.id;
        cluster->cluster = std::move(loaded.value());
        cluster->Derive();
        job.cluster = std::move(cluster);
    }
    job.done = true;
}

void LoadQueue::Run(Job& job, unsigned threads) {
    // The importer that reads the path decides what it opens as (import/Importer.hpp).
    const auto importer = ChooseImporter(job.path, job.source);
    const bool exportJob = job.exportJobAsCluster && importer.ok() &&
                           importer.value()->kind == SourceKind::kNsysExport && IsNsysJob(job.path);
    if (importer.ok() && (importer.value()->kind == SourceKind::kCluster || exportJob)) {
        job.isCluster = true;
        return RunCluster(job, threads);
    }
    LoadOptions options;
    options.threads = threads;
    options.source = job.source;
    options.stepRange = job.stepRange;
    options.cache = job.cache;
    // The timeline is shown while the analyses are computed: its document holds the model and
    // an empty analysis until the whole one replaces it.
    options.timelineReady = [&job](const std::shared_ptr<TraceModel>& model) {
        auto document = std::make_unique<Document>();
        document->id = job.id;
        document->rank.path = job.path;
        document->rank.model = model;
        document->rank.analysis = std::make_unique<RankAnalysis>();
        document->analysisPending = true;
        BuildDerivedData(*document);
        job.progress.stage = kStageAnalyses;
        job.timelineShown = document->timelineData;
        {
            const std::lock_guard<std::mutex> lock(job.timelineMutex);
            job.timeline = std::move(document);
        }
        if (job.wake) job.wake();
    };
    auto loaded = LoadRank(job.path, options, &job.progress);
    if (!loaded.ok()) {
        job.error = loaded.message();
    } else if (!loaded.value().model) {
        job.error = job.path +
                    ": error: the folder holds no timeline (trace_view.json or kernel_details.csv)";
    } else {
        auto document = std::make_unique<Document>();
        document->id = job.id;
        document->rank = std::move(loaded.value());
        BuildDerivedData(*document, job.timelineShown.get());
        job.document = std::move(document);
    }
    job.timelineShown.reset();
    job.done = true;
}

void LoadQueue::RunRanks(Job& job, unsigned threads) {
    RanksTimelineOptions options;
    options.alignStep = job.alignStep;
    options.load.threads = threads;
    options.load.cache = job.cache;
    auto loaded = LoadRanksTimeline(job.rankPaths, options, &job.ranksProgress);
    if (!loaded.ok()) {
        job.error = loaded.message();
    } else {
        RanksTimeline& timeline = loaded.value();
        const TimeNs stepStart = timeline.alignedStartNs, stepEnd = timeline.alignedEndNs;
        auto document = std::make_unique<Document>();
        document->id = job.id;
        document->rank.model = std::move(timeline.model);
        document->rank.analysis =
            std::make_unique<RankAnalysis>();  // one rank's views do not apply
        RanksInOneTimeline ranks;
        ranks.paths = std::move(timeline.paths);
        ranks.steps = std::move(timeline.steps);
        ranks.alignedStep = std::move(timeline.alignedStep);
        ranks.failures = std::move(timeline.failures);
        ranks.stepAsked = !job.alignStep.empty() && job.alignStep != kAlignOnClock;
        ranks.alignedStartNs = stepStart, ranks.alignedEndNs = stepEnd;
        document->ranks = std::move(ranks);
        BuildDerivedData(*document);
        job.document = std::move(document);
    }
    job.done = true;
}

void LoadQueue::StartRanks(DocumentId id, const std::vector<std::string>& paths,
                           const std::string& alignStep) {
    auto job = std::make_unique<Job>();
    job->id = id;
    job->rankPaths = paths;
    job->alignStep = alignStep;
    job->cache = m_cache;
    job->path =
        paths.size() == 1 ? paths.front() : std::to_string(paths.size()) + " ranks in one timeline";
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    Job& started = *job;
    m_jobs.push_back(std::move(job));
    started.wake = m_wake;
    started.thread = std::thread([&started, threads] {
        RunRanks(started, threads);
        if (started.wake) started.wake();
    });
}

void LoadQueue::Start(DocumentId id, const std::string& path, unsigned share) {
    auto job = std::make_unique<Job>();
    job->id = id;
    job->path = path;
    job->source = m_source;
    job->stepRange = m_stepRange;
    job->exportJobAsCluster = m_exportJobsAsClusters;
    job->cache = m_cache;
    const unsigned threads =
        std::max(1u, std::thread::hardware_concurrency() / std::max(1u, share));
    Job& started = *job;
    m_jobs.push_back(std::move(job));
    started.wake = m_wake;
    started.thread = std::thread([&started, threads] {
        Run(started, threads);
        if (started.wake) started.wake();
    });
}

void LoadQueue::Cancel(DocumentId id) {
    for (auto& job : m_jobs)
        if (job->id == id)
            job->dropped = job->timelineGiven, job->cancelled = true, job->progress.cancel = true,
            job->clusterProgress.cancel = true, job->ranksProgress.rank.cancel = true;
}

bool LoadQueue::IsLoading(DocumentId id) const {
    return std::any_of(m_jobs.begin(), m_jobs.end(),
                       [id](const auto& job) { return job->id == id && !job->dropped; });
}

std::vector<LoadStatus> LoadQueue::Running() const {
    std::vector<LoadStatus> running;
    for (const auto& job : m_jobs)
        if (!job->dropped)
            running.push_back(
                job->isCluster
                    ? LoadStatus{job->id, job->path, ClusterFraction(job->clusterProgress),
                                 "reading rank summaries"}
                : !job->rankPaths.empty()
                    ? LoadStatus{job->id, job->path, RanksFraction(job->ranksProgress),
                                 "reading the ranks"}
                    : LoadStatus{job->id, job->path, Fraction(job->progress),
                                 StageText(job->progress),
                                 job->progress.stage.load() != kStageAnalyses});
    return running;
}

std::vector<LoadQueue::Finished> LoadQueue::TakeFinished() {
    std::vector<Finished> finished;
    for (auto it = m_jobs.begin(); it != m_jobs.end();) {
        Job& job = **it;
        if (!job.timelineGiven) {
            std::unique_ptr<Document> timeline;
            {
                const std::lock_guard<std::mutex> lock(job.timelineMutex);
                timeline = std::move(job.timeline);
            }
            if (timeline) {
                job.timelineGiven = true;
                Finished early{job.id, job.path, std::move(timeline), nullptr, "", false};
                early.timelineOnly = true;
                finished.push_back(std::move(early));
            }
        }
        if (!job.done) {
            ++it;
            continue;
        }
        job.thread.join();
        // A load that ended before it saw the cancel is still a document, or its own error.
        const std::string_view said = ": cancelled";
        const bool cancelled =
            job.cancelled && !job.document && !job.cluster && job.error.size() >= said.size() &&
            job.error.compare(job.error.size() - said.size(), said.size(), said) == 0;
        Finished ended{job.id,    job.path, std::move(job.document), std::move(job.cluster),
                       job.error, cancelled};
        ended.afterTimeline = job.timelineGiven;
        finished.push_back(std::move(ended));
        it = m_jobs.erase(it);
    }
    return finished;
}

}  // namespace marey

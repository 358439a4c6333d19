#include "cache/AnalysesCache.hpp"

#include "cache/AnalysesSerializer.hpp"
#include "cache/CacheFolder.hpp"
#include "core/LoadTiming.hpp"

namespace marey {
namespace {

std::string AnalysesFile(const IndexCache& cache) {
    if (!cache.Usable() || cache.FilePath().empty()) return "";
    return AnalysesCacheFilePath(cache.Options().folder, cache.Key().path);
}

void Say(const IndexCache& cache, const std::string& line) {
    if (cache.Options().say) cache.Options().say(line);
}

bool SameFigures(const TraceAnalysisOptions& a, const TraceAnalysisOptions& b) {
    return a.kernelWaitBelowNs == b.kernelWaitBelowNs &&
           a.cutoffs.runtimeNs == b.cutoffs.runtimeNs &&
           a.cutoffs.launchDelayNs == b.cutoffs.launchDelayNs;
}

}  // namespace

std::shared_ptr<TraceAnalyses> ReadCachedAnalyses(const IndexCache& cache, const TraceModel& model,
                                                  const TraceAnalysisOptions& options) {
    const std::string path = AnalysesFile(cache);
    if (path.empty() || model.sources.size() != 1 || !model.sources.front().fromIndexCache)
        return nullptr;
    const LoadTiming timing;
    auto reader = CacheFileReader::Open(path, cache.Key(), AnalysesCacheFormat());
    const auto ignored = [&](const std::string& why) {
        Say(cache, cache.Name() + ": analyses cache " + path + " ignored: " + why +
                       RewriteNote(path, "they"));
        return nullptr;
    };
    if (!reader.ok()) return reader.message().empty() ? nullptr : ignored(reader.message());
    uint64_t madeFrom = 0;
    if (!reader.value()->ReadValue(madeFrom)) return ignored(reader.value()->Finish().message());
    if (madeFrom != model.sources.front().indexCacheChecksum)
        return ignored("they were made from another cached model of the trace");
    auto analyses = std::make_shared<TraceAnalyses>();
    if (Status read = DeserializeAnalyses(*reader.value(), model, *analyses); !read.ok())
        return ignored(read.message());
    // Figures counted with other cut-offs (--idle-threshold) are not these: computed again,
    // and the cache keeps the defaults' for the next open.
    if (!SameFigures(analyses->options, options)) return nullptr;
    analyses->options.threads = options.threads;
    analyses->fromIndexCache = true;
    TouchCacheFile(path);
    timing.Report("analyses: read from the index cache");
    return analyses;
}

void WriteAnalysesInBackground(const IndexCache& cache, TraceModel& model,
                               std::shared_ptr<const TraceAnalyses> analyses) {
    const std::string path = AnalysesFile(cache);
    if (path.empty() || model.sources.size() != 1 || !analyses) return;
    // After the model's own write (Start waits for it): its checksum is what these name.
    model.cacheWrite.Start([cache, path, analyses = std::move(analyses), &model] {
        const uint64_t madeFrom = model.sources.front().indexCacheChecksum;
        if (madeFrom == 0) return;  // the model has no cache file: nothing to stand beside
        const LoadTiming timing;
        const Result<uint64_t> written = WriteCacheFile(
            cache.Options(), path, cache.Key(), AnalysesCacheFormat(), [&](CacheFileWriter& out) {
                out.WriteValue(madeFrom);
                SerializeAnalyses(*analyses, out);
            });
        if (!written.ok())
            return written.message().empty()
                       ? void()
                       : Say(cache,
                             cache.Name() + ": analyses cache not written: " + written.message());
        timing.Report("analyses cache written");
    });
}

}  // namespace marey

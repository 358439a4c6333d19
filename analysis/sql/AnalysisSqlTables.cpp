#include "sql/AnalysisSqlTables.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <mutex>
#include <optional>
#include <thread>

#include "sql/FunctionRows.hpp"
#include "trace/LaunchStats.hpp"
#include "trace/TraceAnalyses.hpp"

namespace marey {
namespace {

// The analyses of a model, computed once, at the first query that needs them.
class LazyAnalyses {
public:
    explicit LazyAnalyses(const TraceModel& model) : m_model(model) {}
    const TraceAnalyses& Get() const {
        std::call_once(m_once, [this] {
            TraceAnalysisOptions options;  // stats --json's defaults
            options.threads = std::max(1u, std::thread::hardware_concurrency());
            m_analyses = AnalyzeTrace(m_model, options);
        });
        return *m_analyses;
    }

private:
    const TraceModel& m_model;
    mutable std::once_flag m_once;
    mutable std::optional<TraceAnalyses> m_analyses;
};

std::unique_ptr<SqlRows> ActivityTable(const TraceModel& model, const SliceRows& slices,
                                       std::shared_ptr<const LazyAnalyses> lazy) {
    return std::make_unique<FunctionRows>(
        "device_activity",
        std::vector<SqlColumn>{{"id", "INTEGER", true},
                               {"ts", "INTEGER"},
                               {"dur", "INTEGER"},
                               {"name", "TEXT"},
                               {"track_id", "INTEGER"},
                               {"class", "TEXT"},
                               {"memory_kind", "TEXT"},
                               {"step", "TEXT"},
                               {"slice_id", "INTEGER"},
                               {"launch_id", "INTEGER"},
                               {"cpu_ns", "INTEGER"},
                               {"launch_delay_ns", "INTEGER"}},
        [lazy] { return static_cast<int64_t>(lazy->Get().activities.activities.size()); },
        [&model, &slices, lazy](int64_t id, int column, sqlite3_context* out) {
            const TraceAnalyses& analyses = lazy->Get();
            const DeviceActivities& all = analyses.activities;
            const DeviceActivity& activity = all.activities[static_cast<size_t>(id)];
            const bool launched = activity.launch != kNoLaunch;
            switch (column) {
                case 0:
                    return sqlite3_result_int64(out, id);
                case 1:
                    return sqlite3_result_int64(out, activity.startNs);
                case 2:
                    return sqlite3_result_int64(out, activity.endNs - activity.startNs);
                case 3:
                    return SetSqlText(out, model.Name(activity.name));
                case 4:
                    return sqlite3_result_int64(out, all.streams[activity.stream].track);
                case 5:
                    return sqlite3_result_text(out, ActivityClassName(activity.kind.activityClass),
                                               -1, SQLITE_STATIC);
                case 6:
                    if (activity.kind.memory == MemoryKind::kNone) return sqlite3_result_null(out);
                    return sqlite3_result_text(out, MemoryKindName(activity.kind.memory), -1,
                                               SQLITE_STATIC);
                case 7:
                    if (activity.step == kNoStep) return sqlite3_result_null(out);
                    return SetSqlText(out, analyses.steps[activity.step].label);
                case 8:
                    return sqlite3_result_int64(
                        out, slices.IdOf(activity.slice.track, activity.slice.row,
                                         activity.slice.index));
                default:
                    break;
            }
            // The launch's figures, by the one rule (FiguresOfLaunch).
            if (!launched) return sqlite3_result_null(out);
            if (column == 9) return sqlite3_result_int64(out, activity.launch);
            const LaunchFigures figures = FiguresOfLaunch(all, activity);
            sqlite3_result_int64(out, column == 10 ? figures.cpuNs : figures.delayNs);
        });
}

std::unique_ptr<SqlRows> LaunchTable(const TraceModel& model, const SliceRows& slices,
                                     std::shared_ptr<const LazyAnalyses> lazy) {
    return std::make_unique<FunctionRows>(
        "launch",
        std::vector<SqlColumn>{{"id", "INTEGER", true},
                               {"ts", "INTEGER"},
                               {"dur", "INTEGER"},
                               {"name", "TEXT"},
                               {"slice_id", "INTEGER"}},
        [lazy] { return static_cast<int64_t>(lazy->Get().activities.launches.size()); },
        [&model, &slices, lazy](int64_t id, int column, sqlite3_context* out) {
            const HostLaunch& launch = lazy->Get().activities.launches[static_cast<size_t>(id)];
            switch (column) {
                case 0:
                    return sqlite3_result_int64(out, id);
                case 1:
                    return sqlite3_result_int64(out, launch.startNs);
                case 2:
                    return sqlite3_result_int64(out, launch.endNs - launch.startNs);
                case 3:
                    return SetSqlText(out, model.Name(launch.name));
                default:
                    return sqlite3_result_int64(
                        out, slices.IdOf(launch.slice.track, launch.slice.row, launch.slice.index));
            }
        });
}

std::unique_ptr<SqlRows> IdleGapTable(std::shared_ptr<const LazyAnalyses> lazy) {
    return std::make_unique<FunctionRows>(
        "idle_gap",
        std::vector<SqlColumn>{{"id", "INTEGER", true},
                               {"ts", "INTEGER"},
                               {"dur", "INTEGER"},
                               {"track_id", "INTEGER"},
                               {"cause", "TEXT"}},
        [lazy] { return static_cast<int64_t>(lazy->Get().gaps.size()); },
        [lazy](int64_t id, int column, sqlite3_context* out) {
            const TraceAnalyses& analyses = lazy->Get();
            const IdleGap& gap = analyses.gaps[static_cast<size_t>(id)];
            switch (column) {
                case 0:
                    return sqlite3_result_int64(out, id);
                case 1:
                    return sqlite3_result_int64(out, gap.startNs);
                case 2:
                    return sqlite3_result_int64(out, gap.endNs - gap.startNs);
                case 3:
                    return sqlite3_result_int64(out, analyses.activities.streams[gap.stream].track);
                default:
                    return sqlite3_result_text(out, GapKindName(gap.kind), -1, SQLITE_STATIC);
            }
        });
}

// Each stream's launch queue over time, by MeasureQueues (the queue figures' one rule): a sample
// per change, its depth holding until the stream's next sample. Measured at the first query.
std::unique_ptr<SqlRows> QueueSampleTable(std::shared_ptr<const LazyAnalyses> lazy) {
    struct Samples {
        std::once_flag once;
        std::vector<StreamQueue> queues;
        std::vector<std::pair<int64_t, size_t>> starts;  // (first row, queue) per queue with any
        int64_t count = 0;
    };
    auto samples = std::make_shared<Samples>();
    auto measured = [lazy, samples]() -> const Samples& {
        std::call_once(samples->once, [&] {
            const DeviceActivities& activities = lazy->Get().activities;
            std::vector<uint32_t> every(activities.activities.size());
            for (uint32_t i = 0; i < every.size(); ++i) every[i] = i;
            samples->queues = MeasureQueues(activities, every, true);
            for (size_t q = 0; q < samples->queues.size(); ++q) {
                if (samples->queues[q].samples.empty()) continue;
                samples->starts.push_back({samples->count, q});
                samples->count += static_cast<int64_t>(samples->queues[q].samples.size());
            }
        });
        return *samples;
    };
    return std::make_unique<FunctionRows>(
        "queue_sample",
        std::vector<SqlColumn>{{"id", "INTEGER", true},
                               {"ts", "INTEGER"},
                               {"track_id", "INTEGER"},
                               {"depth", "INTEGER"}},
        [measured] { return measured().count; },
        [lazy, measured](int64_t id, int column, sqlite3_context* out) {
            const Samples& all = measured();
            const auto after =
                std::upper_bound(all.starts.begin(), all.starts.end(), id,
                                 [](int64_t value, const std::pair<int64_t, size_t>& start) {
                                     return value < start.first;
                                 });
            const StreamQueue& queue = all.queues[(after - 1)->second];
            const QueueSample& sample = queue.samples[static_cast<size_t>(id - (after - 1)->first)];
            switch (column) {
                case 0:
                    return sqlite3_result_int64(out, id);
                case 1:
                    return sqlite3_result_int64(out, sample.time);
                case 2:
                    return sqlite3_result_int64(out,
                                                lazy->Get().activities.streams[queue.stream].track);
                default:
                    return sqlite3_result_int64(out, sample.depth);
            }
        });
}

}  // namespace

std::vector<std::unique_ptr<SqlRows>> MakeAnalysisSqlTables(const TraceModel& model,
                                                            const SliceRows& slices) {
    auto lazy = std::make_shared<const LazyAnalyses>(model);
    std::vector<std::unique_ptr<SqlRows>> tables;
    tables.push_back(ActivityTable(model, slices, lazy));
    tables.push_back(LaunchTable(model, slices, lazy));
    tables.push_back(IdleGapTable(lazy));
    tables.push_back(QueueSampleTable(lazy));
    return tables;
}

}  // namespace marey

#include "report/TraceAnalysesJson.hpp"

#include <cmath>

#include "core/TextFormat.hpp"
#include "report/JsonWriter.hpp"

namespace marey {
namespace {

double Rounded(double value, double scale) {
    return std::round(value * scale) / scale;
}

void WriteStreamKeys(JsonObject& object, const DeviceStream& stream) {
    object.Int("device", stream.device);
    object.String("stream", stream.label);
}

void WriteFigures(JsonObject& object, const TraceAnalyses& analyses,
                  const ActivityFigures& figures) {
    const TemporalBreakdown& temporal = figures.time.temporal;
    {
        JsonObject out(object.Key("temporal"));
        out.Int("span_ns", temporal.spanNs);
        out.Int("idle_ns", temporal.idleNs);
        out.Int("compute_ns", temporal.computeNs);
        out.Int("non_compute_ns", temporal.nonComputeNs);
    }
    if (std::optional<double> overlap = figures.time.OverlapPercent())
        object.Real("overlap_pct", Rounded(*overlap, 100));
    else
        object.Null("overlap_pct");
    JsonArrayOfObjects(
        object.Key("kernel_types"), figures.time.classSets,
        [](JsonObject& out, const ClassSetTime& set) {
            JsonArray(out.Key("types"), ClassSetNames(set.classes),
                      [](std::string& text, const char* name) { AppendJsonString(text, name); });
            out.Int("ns", set.ns);
        });
    JsonArrayOfObjects(
        object.Key("idle"), figures.idle, [&](JsonObject& out, const StreamIdle& idle) {
            WriteStreamKeys(out, analyses.activities.streams[idle.stream]);
            out.Int("host_wait_ns", idle.gaps[static_cast<size_t>(GapKind::kHostWait)].totalNs);
            out.Int("kernel_wait_ns", idle.gaps[static_cast<size_t>(GapKind::kKernelWait)].totalNs);
            out.Int("other_ns", idle.gaps[static_cast<size_t>(GapKind::kOther)].totalNs);
        });
    {
        JsonObject out(object.Key("launch"));
        out.Int("count", static_cast<int64_t>(figures.launch.count));
        out.Int("short_kernels", static_cast<int64_t>(figures.launch.shortKernels));
        out.Int("runtime_outliers", static_cast<int64_t>(figures.launch.runtimeOutliers));
        out.Int("launch_delay_outliers", static_cast<int64_t>(figures.launch.launchDelayOutliers));
    }
    JsonArrayOfObjects(object.Key("queue"), figures.queue,
                       [&](JsonObject& out, const StreamQueue& queue) {
                           WriteStreamKeys(out, analyses.activities.streams[queue.stream]);
                           out.Real("mean", Rounded(queue.mean, 1000));
                           out.Int("max", queue.max);
                       });
}

}  // namespace

std::string TraceAnalysesToJson(const TraceAnalyses& analyses) {
    std::string out;
    JsonObject root(out);
    JsonArrayOfObjects(root.Key("ranks"), analyses.ranks,
                       [&](JsonObject& object, const RankTraceAnalysis& rank) {
                           object.Int("rank", rank.rank);
                           object.String("rank_from", RankIdSourceName(rank.rankFrom));
                           object.Key("available") += rank.unavailable.empty() ? "true" : "false";
                           if (!rank.unavailable.empty()) {
                               object.String("reason", rank.unavailable);
                               return;
                           }
                           WriteFigures(object, analyses, rank.all);
                           JsonArrayOfObjects(object.Key("steps"), rank.steps,
                                              [&](JsonObject& out, const StepFigures& step) {
                                                  out.String("step", step.step);
                                                  WriteFigures(out, analyses, step.figures);
                                              });
                       });
    return out;
}

std::string TraceAnalysesToText(const TraceAnalyses& analyses) {
    std::string out;
    for (const RankTraceAnalysis& rank : analyses.ranks) {
        out += "device time of rank " + std::to_string(rank.rank) + " (rank from " +
               RankIdSourceName(rank.rankFrom) + ")\n";
        if (!rank.unavailable.empty()) {
            out += "  not available: " + rank.unavailable + "\n";
            continue;
        }
        const TemporalBreakdown& temporal = rank.all.time.temporal;
        const auto share = [&](TimeNs ns) {
            return temporal.spanNs > 0 ? FormatPercent(static_cast<double>(ns) / temporal.spanNs)
                                       : "-";
        };
        out += "  span " + FormatDuration(temporal.spanNs) + ": computation " +
               FormatDuration(temporal.computeNs) + " (" + share(temporal.computeNs) +
               "), communication or memory alone " + FormatDuration(temporal.nonComputeNs) + " (" +
               share(temporal.nonComputeNs) + "), idle " + FormatDuration(temporal.idleNs) + " (" +
               share(temporal.idleNs) + ")\n";
        const std::optional<double> overlap = rank.all.time.OverlapPercent();
        out += "  communication overlapped by computation: " +
               (overlap ? FormatPercent(*overlap / 100.0) : std::string("no communication")) + "\n";
        const LaunchSummary& launch = rank.all.launch;
        out += "  launches " + std::to_string(launch.count) + ": " +
               std::to_string(launch.shortKernels) + " short kernels, " +
               std::to_string(launch.runtimeOutliers) + " runtime outliers, " +
               std::to_string(launch.launchDelayOutliers) + " launch-delay outliers\n";
    }
    return out;
}

}  // namespace marey

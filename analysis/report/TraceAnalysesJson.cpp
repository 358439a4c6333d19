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

std::string HtaAnalysisToJson(const HtaAnalysis& analysis) {
    std::string out;
    JsonObject root(out);
    root.String("definitions", "HTA 0.5");
    std::string& ranks = root.Key("ranks");
    ranks += '[';
    {
        JsonObject rank(ranks);
        rank.Int("rank", analysis.rank);
        rank.String("rank_from", "HTA's \"rank\": N pattern");
        rank.Key("available") += analysis.unavailable.empty() ? "true" : "false";
        rank.Key("times_rounded_to_us") += analysis.rounded ? "true" : "false";
        rank.Key("last_step_dropped") += analysis.lastStepDropped ? "true" : "false";
        if (!analysis.unavailable.empty()) {
            rank.String("reason", analysis.unavailable);
        } else {
            {
                JsonObject temporal(rank.Key("temporal"));
                temporal.Int("span_ns", analysis.spanNs);
                temporal.Int("idle_ns", analysis.idleNs);
                temporal.Int("compute_ns", analysis.computeNs);
                temporal.Int("non_compute_ns", analysis.nonComputeNs);
            }
            if (analysis.overlapPercent)
                rank.Real("overlap_pct", *analysis.overlapPercent);
            else
                rank.Null("overlap_pct");
            JsonArrayOfObjects(rank.Key("kernel_types"), analysis.kernelTypes,
                               [](JsonObject& object, const HtaTypeTime& time) {
                                   JsonArray(object.Key("types"), time.types,
                                             [](std::string& text, const char* name) {
                                                 AppendJsonString(text, name);
                                             });
                                   object.Int("ns", time.ns);
                               });
            JsonArrayOfObjects(rank.Key("idle"), analysis.idle,
                               [](JsonObject& object, const HtaStreamIdle& idle) {
                                   object.Int("stream", idle.stream);
                                   object.Int("host_wait_ns", idle.hostWaitNs);
                                   object.Int("kernel_wait_ns", idle.kernelWaitNs);
                                   object.Int("other_ns", idle.otherNs);
                               });
            {
                JsonObject launch(rank.Key("launch"));
                launch.Int("count", static_cast<int64_t>(analysis.launch.count));
                launch.Int("short_kernels", static_cast<int64_t>(analysis.launch.shortKernels));
                launch.Int("runtime_outliers",
                           static_cast<int64_t>(analysis.launch.runtimeOutliers));
                launch.Int("launch_delay_outliers",
                           static_cast<int64_t>(analysis.launch.launchDelayOutliers));
            }
            JsonArrayOfObjects(rank.Key("queue"), analysis.queue,
                               [](JsonObject& object, const HtaStreamQueue& queue) {
                                   object.Int("stream", queue.stream);
                                   object.Real("mean", Rounded(queue.mean, 1000));
                                   object.Int("max", queue.max);
                               });
            rank.Key("steps") += "[]";
        }
    }
    ranks += ']';
    return out;
}

std::string HtaAnalysisToText(const HtaAnalysis& analysis) {
    std::string out = "device time of rank " + std::to_string(analysis.rank) +
                      " as HTA 0.5 computes it" +
                      (analysis.lastStepDropped ? " (its last ProfilerStep dropped)" : "") + "\n";
    if (!analysis.unavailable.empty())
        return out + "  not available: " + analysis.unavailable + "\n";
    const auto share = [&](TimeNs ns) {
        return analysis.spanNs > 0 ? FormatPercent(static_cast<double>(ns) / analysis.spanNs) : "-";
    };
    out += "  span " + FormatDuration(analysis.spanNs) + ": computation " +
           FormatDuration(analysis.computeNs) + " (" + share(analysis.computeNs) +
           "), non-computation " + FormatDuration(analysis.nonComputeNs) + " (" +
           share(analysis.nonComputeNs) + "), idle " + FormatDuration(analysis.idleNs) + " (" +
           share(analysis.idleNs) + ")\n";
    out += "  communication overlapped by computation: " +
           (analysis.overlapPercent ? FormatPercent(*analysis.overlapPercent / 100.0)
                                    : std::string("no communication (HTA: NaN)")) +
           "\n";
    out += "  launch pairs " + std::to_string(analysis.launch.count) + ": " +
           std::to_string(analysis.launch.shortKernels) + " short kernels, " +
           std::to_string(analysis.launch.runtimeOutliers) + " runtime outliers, " +
           std::to_string(analysis.launch.launchDelayOutliers) + " launch-delay outliers\n";
    return out;
}

}  // namespace marey

#include "report/SummaryJson.hpp"

#include <cstdio>

#include "core/Problem.hpp"
#include "core/TextFormat.hpp"
#include "load/JsonString.hpp"

namespace marey {

std::string SummaryToJson(const TraceModel& model, const TraceSummary& summary) {
    std::string out = "{\"file\": ";
    AppendJsonString(out, model.Path());
    out += ", \"events\": {\"total\": " + std::to_string(summary.events) + ", \"by_phase\": {";
    for (size_t i = 0; i < summary.eventsByPhase.size(); ++i) {
        if (i) out += ", ";
        AppendJsonString(out, summary.eventsByPhase[i].first);
        out += ": " + std::to_string(summary.eventsByPhase[i].second);
    }
    out += "}}";
    out += ", \"processes\": " + std::to_string(summary.processes);
    out += ", \"tracks\": " + std::to_string(summary.tracks);
    out += ", \"slices\": " + std::to_string(summary.slices);
    out += ", \"overlapping_slices\": " + std::to_string(summary.overlappingSlices);
    out += ", \"unfinished_slices\": " + std::to_string(model.unfinished.size());
    out += ", \"flows\": {\"matched\": " + std::to_string(summary.flowsMatched) +
           ", \"unmatched\": " + std::to_string(summary.flowsUnmatched) + "}";
    out += ", \"counter_samples\": " + std::to_string(summary.counterSamples);
    out += ", \"instants\": " + std::to_string(summary.instants);
    out += ", \"span_ns\": [" + std::to_string(summary.firstNs) + ", " +
           std::to_string(summary.lastNs) + "]";
    out += ", \"problems\": {\"count\": " + std::to_string(summary.problemCount) + ", \"first\": [";
    for (size_t i = 0; i < summary.problems.size(); ++i) {
        const ImportProblem& p = summary.problems[i];
        if (i) out += ", ";
        out += "{\"offset\": " + std::to_string(p.byteOffset) +
               ", \"line\": " + std::to_string(p.line) +
               ", \"column\": " + std::to_string(p.column) + ", \"message\": ";
        AppendJsonString(out, p.message);
        out += "}";
    }
    out += "]}, \"top\": [";
    for (size_t i = 0; i < summary.top.size(); ++i) {
        const NameStats& s = summary.top[i];
        if (i) out += ", ";
        out += "{\"name\": ";
        AppendJsonString(out, model.strings.Get(s.name));
        out += ", \"count\": " + std::to_string(s.count) +
               ", \"total_ns\": " + std::to_string(s.totalNs) +
               ", \"self_ns\": " + std::to_string(s.selfNs) +
               ", \"min_ns\": " + std::to_string(s.minNs) +
               ", \"max_ns\": " + std::to_string(s.maxNs) + "}";
    }
    out += "]}\n";
    return out;
}

std::string SummaryToText(const TraceModel& model, const TraceSummary& summary) {
    std::string out;
    char line[512];
    out += model.Path() + "\n";
    std::snprintf(line, sizeof line, "  events        %llu (",
                  static_cast<unsigned long long>(summary.events));
    out += line;
    for (size_t i = 0; i < summary.eventsByPhase.size(); ++i) {
        std::snprintf(line, sizeof line, "%s%s %llu", i ? ", " : "",
                      summary.eventsByPhase[i].first.c_str(),
                      static_cast<unsigned long long>(summary.eventsByPhase[i].second));
        out += line;
    }
    out += ")\n";
    auto row = [&](const char* label, uint64_t value) {
        std::snprintf(line, sizeof line, "  %-13s %llu\n", label,
                      static_cast<unsigned long long>(value));
        out += line;
    };
    row("processes", summary.processes);
    row("tracks", summary.tracks);
    row("slices", summary.slices);
    if (summary.overlappingSlices) row("overlapping", summary.overlappingSlices);
    if (!model.unfinished.empty()) row("unfinished (never ended)", model.unfinished.size());
    std::snprintf(line, sizeof line, "  flows         %llu matched, %llu unmatched flow events\n",
                  static_cast<unsigned long long>(summary.flowsMatched),
                  static_cast<unsigned long long>(summary.flowsUnmatched));
    out += line;
    row("counters", summary.counterSamples);
    row("instants", summary.instants);
    std::snprintf(line, sizeof line, "  span          %lld .. %lld ns (%s)\n",
                  static_cast<long long>(summary.firstNs), static_cast<long long>(summary.lastNs),
                  FormatDuration(summary.lastNs - summary.firstNs).c_str());
    out += line;
    row("problems", summary.problemCount);
    for (const ImportProblem& p : summary.problems)
        out += "    " + FormatProblem(model.Path(), p) + "\n";
    out += "  top by total slice time:\n";
    for (const NameStats& s : summary.top) {
        std::snprintf(line, sizeof line, "    %14s  %8llu×  %.*s\n",
                      FormatDuration(s.totalNs).c_str(), static_cast<unsigned long long>(s.count),
                      static_cast<int>(std::min<size_t>(model.strings.Get(s.name).size(), 200)),
                      model.strings.Get(s.name).data());
        out += line;
    }
    return out;
}

}  // namespace marey

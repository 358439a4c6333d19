#include "report/RankJson.hpp"

// RankAnalysis as JSON for other tools and as text for a terminal.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/TextFormat.hpp"
#include "report/DataPreparationJson.hpp"
#include "report/ResourcesJson.hpp"
#include "report/OverviewJson.hpp"

namespace marey {
namespace {

constexpr size_t kTopOperators = 20;

void OperatorArray(std::string& out, const std::vector<OperatorStat>& stats, bool byName) {
    out += '[';
    for (size_t i = 0; i < stats.size() && i < kTopOperators; ++i) {
        if (i) out += ", ";
        const OperatorStat& stat = stats[i];
        JsonObject object(out);
        if (byName) object.String("name", stat.name);
        object.String("type", stat.type);
        object.String("core", stat.core);
        object.String("core_class", CoreClassName(stat.coreClass));
        object.Int("count", static_cast<int64_t>(stat.count));
        object.Int("total_ns", stat.totalNs);
        object.Int("avg_ns", stat.AverageNs());
        object.Int("min_ns", stat.minNs);
        object.Int("max_ns", stat.maxNs);
        object.Real("share", stat.share);
    }
    out += ']';
}

void WriteOverview(JsonObject& rank, const RankAnalysis& analysis) {
    std::string& out = rank.Key("overview");
    if (!analysis.overview.valid) {
        out += "null";
        return;
    }
    const OverviewFigures& o = analysis.overview;
    JsonObject overview(out);
    overview.String("source", o.source);
    WriteOverviewFigures(overview, o);
}

// The profiler's Overlap Analysis tracks, another figure than the overview (see RankOverview.hpp).
void WriteOverlapTracks(JsonObject& rank, const RankAnalysis& analysis) {
    std::string& out = rank.Key("overlap_tracks");
    if (!analysis.overlapTracks.valid) {
        out += "null";
        return;
    }
    JsonObject tracks(out);
    WriteOverviewFigures(tracks, analysis.overlapTracks);
}

void WriteSteps(JsonObject& rank, const RankAnalysis& analysis) {
    std::string& out = rank.Key("steps");
    if (!analysis.steps) {
        out += "null";
        return;
    }
    out += '[';
    for (size_t i = 0; i < analysis.steps->rows.size(); ++i) {
        if (i) out += ", ";
        const StepRow& row = analysis.steps->rows[i];
        JsonObject step(out);
        step.String("step", row.step);
        for (int phase = 0; phase < kStepPhaseCount; ++phase)
            if (analysis.steps->hasColumn[phase])
                step.Int(kStepPhaseJsonKeys[phase], row.ns[phase]);
        const StepSpan span = i < analysis.stepSpans.size() ? analysis.stepSpans[i] : StepSpan{};
        if (span.found) {
            step.Int("start_ns", span.startNs);
            step.Int("end_ns", span.endNs);
        }
    }
    out += ']';
}

void WriteCommunication(JsonObject& rank, const RankAnalysis& analysis) {
    std::string& out = rank.Key("communication");
    if (!analysis.communication) {
        out += "null";
        return;
    }
    const CommunicationTotals& totals = analysis.communicationTotals;
    JsonObject communication(out);
    communication.Int("operators", static_cast<int64_t>(totals.operators));
    communication.Int("elapse_ns", totals.elapseNs);
    communication.Int("transit_ns", totals.transitNs);
    communication.Int("wait_ns", totals.waitNs);
    communication.Int("synchronization_ns", totals.syncNs);
    communication.Int("idle_ns", totals.idleNs);
    std::string& transports = communication.Key("transports");
    transports += '[';
    for (size_t i = 0; i < totals.transports.size(); ++i) {
        if (i) transports += ", ";
        const TransportTotal& t = totals.transports[i];
        JsonObject transport(transports);
        transport.String("transport", t.transport);
        transport.Real("transit_size_mb", t.transitSizeMb);
        transport.Int("transit_ns", t.transitNs);
        transport.Real("bandwidth_gbps", t.bandwidthGBps);
        std::string& packets = transport.Key("packets");
        packets += '[';
        for (size_t k = 0; k < t.sizes.size(); ++k) {
            if (k) packets += ", ";
            JsonObject bucket(packets);
            bucket.Real("size_mb", t.sizes[k].sizeMb);
            bucket.Int("count", static_cast<int64_t>(t.sizes[k].count));
            bucket.Int("total_ns", t.sizes[k].totalNs);
        }
        packets += ']';
    }
    transports += ']';
    std::string& ops = communication.Key("ops");
    ops += '[';
    bool first = true;
    for (const CommunicationOp& op : analysis.communication->ops) {
        if (op.isTotal) continue;
        if (!first) ops += ", ";
        first = false;
        JsonObject entry(ops);
        entry.String("step", op.step);
        entry.String("kind", op.kind);
        entry.String("name", op.name);
        entry.String("group", op.group);
        if (op.hasStart) entry.Int("start_ns", op.startNs);
        entry.Int("elapse_ns", op.elapseNs);
        entry.Int("transit_ns", op.transitNs);
        entry.Int("wait_ns", op.waitNs);
        entry.Int("synchronization_ns", op.syncNs);
        entry.Int("idle_ns", op.idleNs);
        entry.Real("wait_ratio", op.waitRatio);
        entry.Real("synchronization_ratio", op.syncRatio);
    }
    ops += ']';
}

void WriteLinks(JsonObject& rank, const RankAnalysis& analysis) {
    std::string& out = rank.Key("links");
    if (!analysis.matrix) {
        out += "null";
        return;
    }
    out += '[';
    for (size_t i = 0; i < analysis.matrix->links.size(); ++i) {
        if (i) out += ", ";
        const CommunicationLink& l = analysis.matrix->links[i];
        JsonObject link(out);
        link.String("step", l.step);
        link.String("kind", l.kind);
        link.String("group", l.group);
        link.String("op", l.opName);
        link.Int("src", l.srcRank);
        link.Int("dst", l.dstRank);
        link.String("transport", l.transport);
        link.Real("transit_size_mb", l.transitSizeMb);
        link.Int("transit_ns", l.transitNs);
        link.Real("bandwidth_gbps", l.bandwidthGBps);
    }
    out += ']';
}

void WriteMemory(JsonObject& rank, const RankAnalysis& analysis) {
    std::string& out = rank.Key("memory");
    if (!analysis.memoryRecord && !analysis.operatorMemory) {
        out += "null";
        return;
    }
    JsonObject memory(out);
    std::string& series = memory.Key("series");
    series += '[';
    if (analysis.memoryRecord) {
        for (size_t i = 0; i < analysis.memoryRecord->series.size(); ++i) {
            if (i) series += ", ";
            const MemorySeries& s = analysis.memoryRecord->series[i];
            JsonObject entry(series);
            entry.String("component", s.component);
            entry.String("metric", s.metric);
            entry.Int("samples", static_cast<int64_t>(s.timeNs.size()));
            entry.Real("peak_mb", s.peakMb);
            entry.Int("peak_ns", s.peakNs);
        }
    }
    series += ']';
    if (!analysis.operatorMemory) {
        memory.Key("allocations") += "null";
        return;
    }
    const std::vector<OperatorAllocation>& allocations = analysis.operatorMemory->allocations;
    memory.Int("allocations", static_cast<int64_t>(allocations.size()));
    std::vector<size_t> order(allocations.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return allocations[a].sizeKb > allocations[b].sizeKb;
    });
    std::string& largest = memory.Key("largest");
    largest += '[';
    for (size_t k = 0; k < order.size() && k < 10; ++k) {
        if (k) largest += ", ";
        const OperatorAllocation& a = allocations[order[k]];
        JsonObject entry(largest);
        entry.String("name", a.name);
        entry.Real("size_kb", a.sizeKb);
        entry.Int("allocation_ns", a.allocationNs);
        if (a.released)
            entry.Int("release_ns", a.releaseNs);
        else
            entry.Key("release_ns") += "null";
    }
    largest += ']';
}

}  // namespace

std::string RankAnalysisToJson(const RankAnalysis& analysis) {
    std::string out;
    {
        JsonObject rank(out);
        const RankFiles& files = analysis.files;
        rank.String("folder", files.root);
        if (files.rankId)
            rank.Int("rank_id", files.rankId->value());
        else
            rank.Key("rank_id") += "null";
        rank.String("rank_source", files.rankSource);
        rank.String("profiler_level", files.profilerLevel);
        {
            JsonObject present(rank.Key("files"));
            for (const RankFileKind* kind :
                 {&kTraceViewFile, &kKernelDetailsFile, &kStepTraceFile, &kOpStatisticFile,
                  &kCommunicationFile, &kCommunicationMatrixFile, &kMemoryRecordFile,
                  &kOperatorMemoryFile})
                present.Key(kind->fileName) += files.PathOf(*kind).empty() ? "false" : "true";
        }
        {
            JsonObject problems(rank.Key("problems"));
            problems.Int("count", static_cast<int64_t>(analysis.problems.size()));
            std::string& list = problems.Key("first");
            list += '[';
            for (size_t i = 0; i < analysis.problems.size() && i < 20; ++i) {
                if (i) list += ", ";
                AppendJsonString(list, analysis.problems[i]);
            }
            list += ']';
        }
        WriteOverview(rank, analysis);
        WriteOverlapTracks(rank, analysis);
        {
            std::string& list = rank.Key("advice");
            list += '[';
            for (size_t i = 0; i < analysis.advice.size(); ++i) {
                if (i) list += ", ";
                JsonObject advice(list);
                advice.String("kind", AdviceKindName(analysis.advice[i].kind));
                advice.String("title", analysis.advice[i].title);
                advice.String("text", analysis.advice[i].text);
            }
            list += ']';
        }
        {
            const OperatorTables& operators = analysis.operators;
            JsonObject object(rank.Key("operators"));
            object.String("source", operators.source);
            object.Int("total_ns", operators.totalNs);
            std::string& cores = object.Key("by_core");
            cores += '[';
            for (size_t i = 0; i < operators.byCore.size(); ++i) {
                if (i) cores += ", ";
                JsonObject core(cores);
                core.String("core_class", CoreClassName(operators.byCore[i].coreClass));
                core.Int("count", static_cast<int64_t>(operators.byCore[i].count));
                core.Int("total_ns", operators.byCore[i].totalNs);
                core.Real("share", operators.byCore[i].share);
            }
            cores += ']';
            OperatorArray(object.Key("by_type"), operators.byType, false);
            OperatorArray(object.Key("by_name"), operators.byName, true);
        }
        WriteSteps(rank, analysis);
        WriteCommunication(rank, analysis);
        WriteLinks(rank, analysis);
        WriteMemory(rank, analysis);
        rank.Key("data_preparation") += DataPreparationToJson(analysis.dataPreparation.get());
        rank.Key("resources") += RankResourcesToJson(
            analysis.flops.get(), analysis.memoryRecord ? &*analysis.memoryRecord : nullptr);
    }
    return out;
}

std::string RankAnalysisToText(const RankAnalysis& analysis) {
    std::string out;
    char line[512];
    const RankFiles& files = analysis.files;
    out += "rank folder   " + files.root + "\n";
    std::snprintf(line, sizeof line, "  rank        %s%s%s\n",
                  files.rankId ? ToString(*files.rankId).c_str() : "unknown",
                  files.rankSource.empty() ? "" : "  from ", files.rankSource.c_str());
    out += line;
    if (!files.profilerLevel.empty()) out += "  level       " + files.profilerLevel + "\n";
    const OverviewFigures& o = analysis.overview;
    if (o.valid) {
        out += "  overview    (" + o.source + ")\n";
        const std::pair<const char*, TimeNs> rows[] = {
            {"computing", o.computingNs},
            {"pure computing", o.pureComputingNs},
            {"comm. overlapped", o.commOverlappedNs},
            {"comm. not overlapped", o.commNotOverlappedNs},
            {"free", o.freeNs},
            {"total", o.totalNs}};
        for (const auto& [label, ns] : rows) {
            std::snprintf(line, sizeof line, "    %-22s %14s %6.1f %%\n", label,
                          FormatDuration(ns).c_str(), o.Share(ns) * 100);
            out += line;
        }
    } else {
        out += "  overview    not available (no step table and no device tasks)\n";
    }
    for (const Advice& advice : analysis.advice)
        out += "  advice      [" + std::string(AdviceKindName(advice.kind)) + "] " + advice.text +
               "\n";
    if (!analysis.operators.byType.empty()) {
        out += "  operator types by total time (" + analysis.operators.source + ")\n";
        for (size_t i = 0; i < analysis.operators.byType.size() && i < 10; ++i) {
            const OperatorStat& stat = analysis.operators.byType[i];
            std::snprintf(line, sizeof line, "    %-32.32s %-16.16s %8llu %14s %6.1f %%\n",
                          stat.name.c_str(), stat.core.c_str(),
                          static_cast<unsigned long long>(stat.count),
                          FormatDuration(stat.totalNs).c_str(), stat.share * 100);
            out += line;
        }
    }
    if (analysis.steps) {
        const char* from =
            !analysis.database.empty()
                ? (analysis.files.analysisDb.empty() ? "STEP_TIME, computed from the tasks"
                                                     : "analysis.db StepTraceTime")
            : analysis.stepsFromTrace ? "the trace's ProfilerStep slices"
            : analysis.files.stepTrace.empty() && !analysis.files.stepTraceRaw.empty()
                ? "step_trace_raw (MindSpore)"
                : "step_trace_time.csv";
        out +=
            "  steps       " + std::to_string(analysis.steps->rows.size()) + " in " + from + "\n";
    }
    if (analysis.communication) {
        const CommunicationTotals& t = analysis.communicationTotals;
        std::snprintf(
            line, sizeof line, "  communication %llu operators, elapse %s, transit %s, wait %s\n",
            static_cast<unsigned long long>(t.operators), FormatDuration(t.elapseNs).c_str(),
            FormatDuration(t.transitNs).c_str(), FormatDuration(t.waitNs).c_str());
        out += line;
    }
    out += DataPreparationToText(analysis.dataPreparation.get());
    out += RankFlopsToText(analysis.flops.get());
    if (!analysis.problems.empty()) {
        out += "  problems    " + std::to_string(analysis.problems.size()) + "\n";
        for (size_t i = 0; i < analysis.problems.size() && i < 10; ++i)
            out += "    " + analysis.problems[i] + "\n";
    }
    return out;
}

}  // namespace marey

namespace marey {

namespace {

// The rows read of each table, over every source of the model (the ranks of one export are each
// a source), in the first source's order.
std::vector<std::pair<std::string, uint64_t>> TableRowsRead(const TraceModel& model) {
    std::vector<std::pair<std::string, uint64_t>> total;
    for (const TraceSource& source : model.sources)
        for (const std::pair<std::string, uint64_t>& rows : source.tableRows) {
            auto it = std::find_if(total.begin(), total.end(),
                                   [&](const auto& entry) { return entry.first == rows.first; });
            if (it == total.end())
                total.push_back(rows);
            else
                it->second += rows.second;
        }
    return total;
}

}  // namespace

std::string SourceToJson(const LoadedRank& rank) {
    std::string out;
    JsonObject object(out);
    object.String("read", rank.source);
    if (rank.otherSource.empty())
        object.Key("other") += "null";
    else
        object.String("other", rank.otherSource);
    if (rank.note.empty())
        object.Key("note") += "null";
    else
        object.String("note", rank.note);
    std::string& tables = object.Key("table_rows");
    if (!rank.model) {
        tables += "null";
    } else {
        JsonObject rows(tables);
        for (const auto& [table, count] : TableRowsRead(*rank.model))
            rows.Int(table.c_str(), static_cast<int64_t>(count));
    }
    return out;
}

std::string SourceToText(const LoadedRank& rank) {
    std::string text = "  source      " + rank.source;
    if (!rank.otherSource.empty())
        text += " (the " + rank.otherSource + " export is here too: --source " +
                (rank.otherSource == "text" ? "text" : "db") + ")";
    text += "\n";
    if (!rank.note.empty()) text += "  note        " + rank.note + "\n";
    if (rank.model && !rank.model->sources.front().tableRows.empty()) {
        text += "  rows read  ";
        for (const auto& [table, count] : TableRowsRead(*rank.model))
            text += " " + table + " " + std::to_string(count) + ",";
        text.back() = '\n';
    }
    return text;
}

}  // namespace marey

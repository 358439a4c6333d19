#include "views/OverviewView.hpp"
#include "viewkit/ViewContext.hpp"

#include <imgui.h>

#include <filesystem>

#include "core/TextFormat.hpp"
#include "workspace/Document.hpp"

namespace marey {
namespace {

ImVec4 AdviceColor(AdviceKind kind) {
    switch (kind) {
        case AdviceKind::kCommunication:
            return ImVec4(1.0f, 0.55f, 0.45f, 1.0f);
        case AdviceKind::kScheduling:
            return ImVec4(1.0f, 0.80f, 0.40f, 1.0f);
        case AdviceKind::kCompute:
            return ImVec4(0.50f, 0.75f, 1.0f, 1.0f);
        default:
            return ImVec4(0.55f, 0.85f, 0.55f, 1.0f);
    }
}

void DrawFigures(const OverviewFigures& o) {
    const std::vector<BarSegment> segments = {
        {"Pure computing", static_cast<double>(o.pureComputingNs), ComputingColor()},
        {"Communication, overlapped", static_cast<double>(o.commOverlappedNs), OverlappedColor()},
        {"Communication, not overlapped", static_cast<double>(o.commNotOverlappedNs),
         NotOverlappedColor()},
        {"Free", static_cast<double>(o.freeNs), FreeColor()},
    };
    DrawStackedBar(segments, ImGui::GetContentRegionAvail().x, 34);
    DrawLegend(segments);
    ImGui::Dummy(ImVec2(0, 6));
    if (!ImGui::BeginTable(
            "figures", 4,
            ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit))
        return;
    ImGui::TableSetupColumn("Phase", ImGuiTableColumnFlags_WidthFixed, 260);
    ImGui::TableSetupColumn("Time", ImGuiTableColumnFlags_WidthFixed, 130);
    ImGui::TableSetupColumn("Share of total", ImGuiTableColumnFlags_WidthFixed, 120);
    ImGui::TableSetupColumn("Meaning", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    struct Line {
        const char* label;
        TimeNs ns;
        const char* meaning;
    };
    const Line lines[] = {
        {"Computing", o.computingNs,
         "device tasks other than communication running: computation kernels, and copies and "
         "sets too, as the Ascend profiler's Overlap Analysis counts them (the Device view's "
         "Computation counts computation kernels alone)"},
        {"  Pure computing", o.pureComputingNs,
         "computing minus the communication hidden behind it"},
        {"Communication, overlapped", o.commOverlappedNs,
         "communication while computing runs (hidden)"},
        {"Communication, not overlapped", o.commNotOverlappedNs,
         "communication alone: the device waits for it"},
        {"Free", o.freeNs, "neither computing nor communicating"},
        {"Total", o.totalNs, "computing + communication not overlapped + free"},
    };
    for (const Line& line : lines) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(line.label);
        ImGui::TableNextColumn();
        const std::string time = FormatDuration(line.ns);
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + 120 - ImGui::CalcTextSize(time.c_str()).x);
        ImGui::TextUnformatted(time.c_str());
        ImGui::TableNextColumn();
        const std::string share = Percent(o.Share(line.ns));
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + 100 - ImGui::CalcTextSize(share.c_str()).x);
        ImGui::TextUnformatted(share.c_str());
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", line.meaning);
        ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
}

// The profiler's own Overlap Analysis tracks, another figure than the overview above: summed over
// the whole trace (also outside the steps), as the profiler drew them.
void DrawOverlapTracks(const OverviewFigures& tracks, const OverviewFigures& overview) {
    if (!tracks.valid) return;
    SectionTitle("The profiler's Overlap Analysis tracks");
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled(
        "The trace's own Computing, Communication, Communication(Not Overlapped) and Free tracks, "
        "summed over the whole trace, inside and outside the steps: another figure than the "
        "overview above, which is made from %s and is what the cluster's Overview by rank and "
        "`marey stats` show for this rank.",
        overview.source.c_str());
    ImGui::PopTextWrapPos();
    if (!ImGui::BeginTable("overlapTracks", 3,
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
        return;
    ImGui::TableSetupColumn("Track", ImGuiTableColumnFlags_WidthFixed, 260);
    ImGui::TableSetupColumn("Time", ImGuiTableColumnFlags_WidthFixed, 130);
    ImGui::TableSetupColumn("Share of total", ImGuiTableColumnFlags_WidthFixed, 120);
    ImGui::TableHeadersRow();
    const std::pair<const char*, TimeNs> lines[] = {
        {"Computing", tracks.computingNs},
        {"Communication(Not Overlapped)", tracks.commNotOverlappedNs},
        {"Communication, overlapped", tracks.commOverlappedNs},
        {"Free", tracks.freeNs},
        {"Total", tracks.totalNs}};
    for (const auto& [label, ns] : lines) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(label);
        ImGui::TableNextColumn();
        const std::string time = FormatDuration(ns);
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + 120 - ImGui::CalcTextSize(time.c_str()).x);
        ImGui::TextUnformatted(time.c_str());
        ImGui::TableNextColumn();
        const std::string share = Percent(tracks.Share(ns));
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + 100 - ImGui::CalcTextSize(share.c_str()).x);
        ImGui::TextUnformatted(share.c_str());
    }
    ImGui::EndTable();
}

void DrawFiles(const RankFiles& files) {
    if (!ImGui::BeginTable("files", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
        return;
    ImGui::TableSetupColumn("File", ImGuiTableColumnFlags_WidthFixed, 220);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, 70);
    ImGui::TableSetupColumn("Used by / written with", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    struct Entry {
        const RankFileKind* kind;
        const char* usedBy;
    };
    const Entry entries[] = {
        {&kTraceViewFile,
         "Timeline, the profiler's Overlap Analysis tracks, Steps (placing steps)"},
        {&kKernelDetailsFile, "Operators, Overview (when there is no step_trace_time.csv)"},
        {&kStepTraceFile, "Steps, Overview (the sum of the steps)"},
        {&kOpStatisticFile, "Operators by type (when kernel_details.csv is missing)"},
        {&kCommunicationFile, "Communication"},
        {&kCommunicationMatrixFile, "Communication (links)"},
        {&kMemoryRecordFile, "Memory (curves)"},
        {&kOperatorMemoryFile, "Memory (allocations)"}};
    for (const Entry& entry : entries) {
        const bool present = !files.PathOf(*entry.kind).empty();
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(entry.kind->fileName);
        ImGui::TableNextColumn();
        if (present)
            ImGui::TextColored(ImVec4(0.5f, 0.85f, 0.5f, 1), "present");
        else
            ImGui::TextColored(ImVec4(0.9f, 0.6f, 0.4f, 1), "missing");
        ImGui::TableNextColumn();
        if (present)
            ImGui::TextDisabled("%s", entry.usedBy);
        else
            ImGui::TextDisabled("written with %s", entry.kind->producedBy);
    }
    ImGui::EndTable();
}

// What a rank exported as a database was read from, and what each view takes from it.
void DrawDatabaseFiles(const RankAnalysis& analysis) {
    if (!ImGui::BeginTable("database", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
        return;
    ImGui::TableSetupColumn("File", ImGuiTableColumnFlags_WidthFixed, 260);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, 70);
    ImGui::TableSetupColumn("Read for", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    const std::string database = std::filesystem::path(analysis.database).filename().string();
    const bool hasAnalysis = !analysis.files.analysisDb.empty();
    const struct {
        std::string file;
        bool present;
        const char* use;
    } rows[] = {
        {database, true,
         "Timeline (PYTORCH_API, CANN_API, TASK, COMMUNICATION_OP, counters), Operators, Overview "
         "(from the steps, else the tasks), Memory (MEMORY_RECORD, OP_MEMORY)"},
        {"analysis.db", hasAnalysis,
         hasAnalysis ? "Steps (StepTraceTime), Communication (CommAnalyzerTime, "
                       "CommAnalyzerBandwidth, CommAnalyzerMatrix)"
                     : "missing: Steps are computed from STEP_TIME and the tasks; no "
                       "Communication view (the profiler writes it with the database)"},
    };
    for (const auto& row : rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(row.file.c_str());
        ImGui::TableNextColumn();
        if (row.present)
            ImGui::TextColored(ImVec4(0.5f, 0.85f, 0.5f, 1), "present");
        else
            ImGui::TextColored(ImVec4(0.9f, 0.6f, 0.4f, 1), "missing");
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", row.use);
        ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
}

}  // namespace

void OverviewView::Draw(const RankAnalysis& analysis, TimelineRequest&) {
    const RankFiles& files = analysis.files;
    if (files.root.empty()) {
        ImGui::TextColored(ImVec4(0.8f, 0.86f, 1, 1), "A single trace file");
        ImGui::TextDisabled(
            "%s",
            analysis.kernelsFromTrace
                ? "Overview, Operators and Steps are computed from its device activities; a rank "
                  "folder adds communication and memory."
                : "Open a rank folder (*_ascend_pt, *_ascend_ms or ASCEND_PROFILER_OUTPUT) for "
                  "every view.");
    } else {
        ImGui::TextColored(ImVec4(0.8f, 0.86f, 1, 1), "Rank %s",
                           files.rankId ? ToString(*files.rankId).c_str() : "?");
        ImGui::SameLine(0, 16);
        ImGui::TextDisabled(
            "%s%s%s   %s",
            files.rankSource.empty() ? "rank id unknown" : ("from " + files.rankSource).c_str(),
            files.profilerLevel.empty() ? "" : "   profiler level ", files.profilerLevel.c_str(),
            files.root.c_str());
    }
    SectionTitle("Where the device time went");
    if (analysis.overview.valid) {
        ImGui::TextDisabled("from %s", analysis.overview.source.c_str());
        DrawFigures(analysis.overview);
    } else if (files.traceView.empty() && files.kernelDetails.empty()) {
        DrawMissingFile(kKernelDetailsFile, "The overview");
    } else {
        ImGui::TextDisabled("There is no step table and no device task to compute it from.");
    }
    DrawOverlapTracks(analysis.overlapTracks, analysis.overview);
    SectionTitle("Advice");
    if (analysis.advice.empty()) ImGui::TextDisabled("No figures to judge.");
    for (const Advice& advice : analysis.advice) {
        ImGui::TextColored(AdviceColor(advice.kind), "[%s]  %s", AdviceKindName(advice.kind),
                           advice.title.c_str());
        ImGui::Indent(18);
        ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x * 0.95f + ImGui::GetCursorPosX());
        ImGui::TextUnformatted(advice.text.c_str());
        ImGui::PopTextWrapPos();
        ImGui::Unindent(18);
        ImGui::Dummy(ImVec2(0, 3));
    }
    if (!analysis.database.empty()) {
        SectionTitle("Database of this rank");
        DrawDatabaseFiles(analysis);
    } else if (!files.root.empty()) {
        SectionTitle("Files of this rank");
        DrawFiles(files);
    }
    if (!analysis.problems.empty()) {
        SectionTitle("Problems in these files");
        for (const std::string& problem : analysis.problems)
            ImGui::TextColored(ImVec4(1, 0.6f, 0.5f, 1), "%s", problem.c_str());
    }
}

void OverviewView::Draw(ViewContext& context) {
    Draw(context.document->analysis(), context.request);
}

}  // namespace marey

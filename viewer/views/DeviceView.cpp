#include "views/DeviceView.hpp"
#include "viewkit/ViewContext.hpp"

#include <imgui.h>

#include "core/TextFormat.hpp"
#include "viewkit/TableHeaders.hpp"
#include "workspace/Document.hpp"

namespace marey {
namespace {

// Figures that list their intervals when clicked are drawn in this colour.
const ImVec4 kLinkColor(0.55f, 0.78f, 1.0f, 1.0f);

std::string StepLabel(const std::optional<size_t>& step, const RankTraceAnalysis& rank) {
    return step ? "step " + rank.steps[*step].step : std::string("all steps");
}

std::string Share(TimeNs part, TimeNs whole) {
    return whole > 0 ? FormatPercent(static_cast<double>(part) / static_cast<double>(whole))
                     : std::string("–");
}

bool BeginFigureTable(const char* id, int columns) {
    return ImGui::BeginTable(
        id, columns,
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit);
}

// The reason the view has nothing to show, or "" when it has figures.
std::string Unavailable(const RankAnalysis& analysis) {
    if (!analysis.trace)
        return "No device figures: this rank has no Chrome JSON trace (a PyTorch profiler trace "
               "or trace_view.json) to read its kernels from.";
    if (analysis.trace->ranks.empty())
        return "No device figures: " + analysis.trace->activities.unavailable;
    const std::string& reason = analysis.trace->ranks.front().unavailable;
    return reason.empty() ? std::string() : "No device figures: " + reason;
}

}  // namespace

const ActivityFigures& DeviceView::Figures(const RankTraceAnalysis& rank) const {
    return m_step ? rank.steps[*m_step].figures : rank.all;
}

FigureScope DeviceView::Scope(const TraceAnalyses& analyses, const RankTraceAnalysis& rank) const {
    FigureScope scope{rank.group, kNoStep};
    if (m_step) scope.step = StepsOfGroup(analyses, rank.group)[*m_step];
    return scope;
}

void DeviceView::Show(const FigureSource& source) {
    m_pending = m_sources.source() == source ? FigureSource{} : source;
    m_pendingSet = true;
}

std::string DeviceView::StepLabelText() const {
    return StepLabel(m_step, m_document.analysis().trace->ranks.front());
}

void DeviceView::ChooseStep(std::optional<size_t> step) {
    m_step = step;
    m_pending = m_sources.source();  // the same figure, of the new step
    m_pendingSet = true;
}

void DeviceView::TakeOver(View& previous) {
    if (auto* before = dynamic_cast<DeviceView*>(&previous)) m_step = before->m_step;
}

void DeviceView::FigureCell(const std::string& text, const FigureSource& source, bool any,
                            const char* tooltip) {
    if (source.kind == FigureSource::kNone || !any) {
        RightAligned(text);
        return;
    }
    // Figures of one text (two "0 ns") differ by what they list.
    ImGui::PushID(static_cast<int>(source.kind) * 64 + static_cast<int>(source.time) * 8 +
                  static_cast<int>(source.gap));
    ImGui::PushID(static_cast<int>(source.stream * 256 + source.classes));
    ImGui::PushStyleVar(ImGuiStyleVar_SelectableTextAlign, ImVec2(1.0f, 0.5f));
    ImGui::PushStyleColor(ImGuiCol_Text, kLinkColor);
    if (ImGui::Selectable(text.c_str(), m_sources.source() == source)) Show(source);
    ImGui::PopStyleColor();
    ImGui::PopStyleVar();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
    ImGui::PopID();
    ImGui::PopID();
}

void DeviceView::DrawHeader(const RankAnalysis& analysis, TimelineRequest& request) {
    const TraceAnalyses& analyses = *analysis.trace;
    const RankTraceAnalysis& rank = analyses.ranks.front();
    ImGui::SetNextItemWidth(160);
    if (ImGui::BeginCombo("##step", StepLabel(m_step, rank).c_str())) {
        if (ImGui::Selectable("all steps", !m_step)) ChooseStep(std::nullopt);
        for (size_t i = 0; i < rank.steps.size(); ++i) {
            ImGui::PushID(static_cast<int>(i));
            if (ImGui::Selectable(StepLabel(i, rank).c_str(), m_step == i)) ChooseStep(i);
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    ImGui::SameLine(0, 16);
    const DeviceTime& time = Figures(rank).time;
    const size_t streams = Figures(rank).idle.size();
    ImGui::Text("span %s   busy %s   %s", FormatDuration(time.temporal.spanNs).c_str(),
                FormatDuration(time.busyNs).c_str(),
                CountText(streams, "stream", "streams").c_str());
    if (m_step) {
        ImGui::SameLine(0, 16);
        if (ImGui::SmallButton("Zoom the timeline to this step")) {
            const StepWindow& window = analyses.steps[Scope(analyses, rank).step];
            request.kind = TimelineRequest::kShowRange;
            request.startNs = window.startNs;
            request.endNs = window.endNs;
            request.switchToTimeline = true;
            request.label = "step " + window.label;
        }
    }
    const TraceAnalysisOptions& options = analyses.options;
    const std::string note = "kernel wait below " + FormatDuration(options.kernelWaitBelowNs) +
                             ", runtime outlier over " + FormatDuration(options.cutoffs.runtimeNs) +
                             ", delay outlier over " +
                             FormatDuration(options.cutoffs.launchDelayNs);
    NoteAfter(note.c_str());
}

void DeviceView::DrawTemporal(const DeviceTime& time) {
    SectionTitle("Temporal breakdown  (share of the span, first kernel start to last kernel end)");
    const TemporalBreakdown& t = time.temporal;
    const std::vector<BarSegment> segments = {
        {"Computation", static_cast<double>(t.computeNs), ComputingColor()},
        {"Communication or memory alone", static_cast<double>(t.nonComputeNs),
         NotOverlappedColor()},
        {"Idle", static_cast<double>(t.idleNs), FreeColor()},
    };
    DrawStackedBar(segments, ImGui::GetContentRegionAvail().x, 28);
    DrawLegend(segments);
    ImGui::Dummy(ImVec2(0, 2));
    if (!BeginFigureTable("temporal", 4)) return;
    ImGui::TableSetupColumn("Part", ImGuiTableColumnFlags_WidthFixed, 260);
    ImGui::TableSetupColumn("Time", ImGuiTableColumnFlags_WidthFixed, 110);
    ImGui::TableSetupColumn("Share of span", ImGuiTableColumnFlags_WidthFixed, 110);
    ImGui::TableSetupColumn("Meaning", ImGuiTableColumnFlags_WidthStretch);
    HeadersRowAligned(0b110);
    struct Line {
        const char* label;
        TimeNs ns;
        TimeFigure figure;
        const char* meaning;
    };
    const Line lines[] = {
        {"Computation", t.computeNs, TimeFigure::kComputation, "a computation kernel runs"},
        {"Communication or memory alone", t.nonComputeNs, TimeFigure::kNonCompute,
         "only communication, copies or fills run"},
        {"Idle", t.idleNs, TimeFigure::kIdle, "no stream runs anything"},
    };
    for (const Line& line : lines) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(line.label);
        ImGui::TableNextColumn();
        FigureSource source;
        source.kind = FigureSource::kTime;
        source.time = line.figure;
        FigureCell(FormatDuration(line.ns), source, line.ns > 0,
                   "click: list these intervals below");
        ImGui::TableNextColumn();
        RightAligned(Share(line.ns, t.spanNs));
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", line.meaning);
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("Span");
    ImGui::TableNextColumn();
    RightAligned(FormatDuration(t.spanNs));
    ImGui::TableNextColumn();
    RightAligned(Share(t.spanNs, t.spanNs));
    ImGui::TableNextColumn();
    ImGui::TextDisabled("computation + alone + idle");
    ImGui::EndTable();
}

// How this view's figures differ from the Overview's of the same rank: two definitions, two
// names (Computation here, HTA's; Computing there, the Ascend profiler's).
void DeviceView::DrawOverviewRelation(const OverviewFigures& overview, const DeviceTime& time) {
    if (!overview.valid) return;
    const std::array<TimeNs, 4> figures = {time.temporal.computeNs, time.overlappedNs,
                                           overview.computingNs, overview.commOverlappedNs};
    if (figures != m_overviewRelationOf || m_overviewRelation.empty())
        m_overviewRelation =
            "Computation counts computation kernels alone, as HTA does: " +
            FormatDuration(time.temporal.computeNs) + ", with " +
            FormatDuration(time.overlappedNs) +
            " of communication under it. The Overview's Computing, " +
            FormatDuration(overview.computingNs) +
            ", counts copies and sets as computing too, as the "
            "Ascend profiler's Overlap Analysis does, and its overlapped communication, " +
            FormatDuration(overview.commOverlappedNs) + ", is what ran under any of those (from " +
            overview.source + ").";
    m_overviewRelationOf = figures;
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", m_overviewRelation.c_str());
    ImGui::PopTextWrapPos();
}

void DeviceView::DrawClassSets(const DeviceTime& time) {
    SectionTitle("Kernel type combinations  (share of busy time)");
    if (BeginFigureTable("classSets", 3)) {
        ImGui::TableSetupColumn("Running at once", ImGuiTableColumnFlags_WidthFixed, 280);
        ImGui::TableSetupColumn("Time", ImGuiTableColumnFlags_WidthFixed, 110);
        ImGui::TableSetupColumn("Share", ImGuiTableColumnFlags_WidthFixed, 80);
        HeadersRowAligned(0b110);
        for (const ClassSetTime& set : time.classSets) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            std::string names;
            for (const char* name : ClassSetNames(set.classes))
                names += (names.empty() ? "" : " + ") + std::string(name);
            ImGui::TextUnformatted(names.c_str());
            ImGui::TableNextColumn();
            FigureSource source;
            source.kind = FigureSource::kClassSet;
            source.classes = set.classes;
            FigureCell(FormatDuration(set.ns), source, set.ns > 0,
                       "click: list the intervals when exactly these ran");
            ImGui::TableNextColumn();
            RightAligned(Share(set.ns, time.busyNs));
        }
        ImGui::EndTable();
    }
    ImGui::Dummy(ImVec2(0, 4));
    const std::optional<double> overlap = time.OverlapPercent();
    if (!overlap) {
        ImGui::TextDisabled("Overlap: no communication ran.");
        return;
    }
    ImGui::TextUnformatted("Overlap:");
    ImGui::SameLine();
    FigureSource source;
    source.kind = FigureSource::kTime;
    source.time = TimeFigure::kOverlap;
    std::string text =
        FormatPercent(*overlap / 100.0) + " of communication ran while computation kernels did";
    const std::string figures = "(" + FormatDuration(time.overlappedNs) + " of " +
                                FormatDuration(time.communicationNs) + ")";
    // A narrow window puts the figures on a line of their own instead of cutting them off.
    const bool fits =
        ImGui::CalcTextSize((text + " " + figures).c_str()).x <= ImGui::GetContentRegionAvail().x;
    text += (fits ? " " : "\n") + figures;
    ImGui::PushStyleColor(ImGuiCol_Text, kLinkColor);
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    if (ImGui::Selectable(text.c_str(), m_sources.source() == source, 0, size)) Show(source);
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("click: list the intervals where communication and computation overlap");
}

void DeviceView::Draw(ViewContext& context) {
    const RankAnalysis& analysis = m_document.analysis();
    const std::string unavailable = Unavailable(analysis);
    if (!unavailable.empty()) {
        ImGui::TextDisabled("%s", unavailable.c_str());
        return;
    }
    const TraceAnalyses& analyses = *analysis.trace;
    const RankTraceAnalysis& rank = analyses.ranks.front();
    if (m_step && *m_step >= rank.steps.size()) m_step.reset();
    DrawHeader(analysis, context.request);
    const ActivityFigures& figures = Figures(rank);
    DrawTemporal(figures.time);
    if (!m_step) DrawOverviewRelation(analysis.overview, figures.time);
    if (ImGui::BeginTable("columns", 2, ImGuiTableFlags_SizingStretchSame)) {
        ImGui::TableNextColumn();
        DrawClassSets(figures.time);
        ImGui::TableNextColumn();
        DrawLaunches(figures.launch, figures.queue);
        ImGui::EndTable();
    }
    DrawIdle(figures.idle);
    if (m_pendingSet) {
        m_pendingSet = false;
        m_sources.Build(analyses, m_document.model(), Scope(analyses, rank), figures, m_pending);
        m_scrollToSources = m_pending.kind != FigureSource::kNone;
    }
    DrawSources(analysis, context.request);
}

}  // namespace marey

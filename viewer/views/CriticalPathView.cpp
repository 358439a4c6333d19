#include "views/CriticalPathView.hpp"

#include <imgui.h>

#include <algorithm>
#include <thread>

#include "base/Colors.hpp"
#include "core/TextFormat.hpp"
#include "path/RanksPath.hpp"
#include "timeline/ElideText.hpp"
#include "viewkit/TableHeaders.hpp"
#include "viewkit/ViewCommon.hpp"
#include "viewkit/ViewContext.hpp"
#include "workspace/Document.hpp"

namespace marey {
namespace {

constexpr size_t kContributorsShown = 12;

// How each bound kind is made, for its tooltip and the table (HTA 0.5's bound types).
const char* BoundMeaning(BoundKind kind) {
    switch (kind) {
        case BoundKind::kCpu:
            return "time inside host calls (operators, runtime calls) on the path; a call that "
                   "waits for the device (a synchronise, a blocking copy) counts none of its wait";
        case BoundKind::kCompute:
            return "device work on the path that is not communication: kernels, copies, fills";
        case BoundKind::kCommunication:
            return "communication kernels and tasks on the path (NCCL, HCCL)";
        case BoundKind::kLaunch:
            return "from a launch call's start to its work's start, on a stream that was idle: "
                   "the device waited for the host to launch";
        case BoundKind::kKernelKernel:
            return "the gap between two pieces of work on one stream, the second queued behind "
                   "the first (under 1.5 ms)";
    }
    return "";
}

const char* BoundLabel(BoundKind kind) {
    switch (kind) {
        case BoundKind::kCpu:
            return "CPU";
        case BoundKind::kCompute:
            return "Computation";
        case BoundKind::kCommunication:
            return "Communication";
        case BoundKind::kLaunch:
            return "Launch delay";
        case BoundKind::kKernelKernel:
            return "Kernel to kernel";
    }
    return "";
}

std::string Share(TimeNs part, TimeNs whole) {
    return whole > 0 ? FormatPercent(static_cast<double>(part) / static_cast<double>(whole))
                     : std::string("–");
}

// A name cut to the cell's width, and whether it was cut (the tooltip then gives all of it).
void ElidedName(const std::string& name) {
    std::string scratch;
    const std::string_view shown = ElideToWidth(name, ImGui::GetContentRegionAvail().x, scratch);
    ImGui::TextUnformatted(shown.data(), shown.data() + shown.size());
    if (shown.size() == name.size() || !ImGui::IsItemHovered()) return;
    // Kernel names run to hundreds of characters: wrapped, so the tooltip stays in the window.
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 45.0f);
    ImGui::TextUnformatted(name.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

std::string Unavailable(const RankAnalysis& analysis) {
    if (!analysis.trace)
        return "No critical path: this rank has no timeline file (a PyTorch profiler trace, "
               "trace_view.json, a profiler database) to follow a path through.";
    if (analysis.trace->ranks.empty())
        return "No critical path: " + analysis.trace->activities.unavailable;
    return "";
}

}  // namespace

bool CriticalPathView::Across() const {
    return m_document.ranks.has_value();
}

std::string CriticalPathView::GroupText(uint32_t group) const {
    const TraceModel& model = m_document.model();
    return group < model.groups.size() ? model.groups[group].label : std::string("the rank");
}

std::string CriticalPathView::TrackText(uint32_t track) const {
    const std::string label = m_document.model().TrackLabel(track);
    return Across() ? GroupText(m_document.model().GroupOf(track)) + " · " + label : label;
}

void CriticalPathView::ChooseDefaultStep() {
    const TraceAnalyses& analyses = *m_analyses;
    const uint32_t group = analyses.ranks.front().group;
    // Across ranks: the steps every rank marks, as the first rank has them.
    const std::vector<std::string> shared =
        Across() ? StepsOfEveryRank(analyses) : std::vector<std::string>();
    m_steps.clear();
    for (uint32_t s = 0; s < analyses.steps.size(); ++s)
        if (analyses.steps[s].group == group &&
            (!Across() ||
             std::find(shared.begin(), shared.end(), analyses.steps[s].label) != shared.end()))
            m_steps.push_back(s);
    if (m_stepChosen && (!m_step || *m_step < analyses.steps.size())) return;
    m_step.reset();
    if (Across()) {
        const std::optional<std::string> longest = LongestSharedStep(analyses);
        for (const uint32_t s : m_steps)
            if (longest && analyses.steps[s].label == *longest) m_step = s;
        return;
    }
    for (const uint32_t s : m_steps) {
        const StepWindow& step = analyses.steps[s];
        if (!m_step || step.endNs - step.startNs >
                           analyses.steps[*m_step].endNs - analyses.steps[*m_step].startNs)
            m_step = s;
    }
}

// The path of 'step' (none: the whole trace) of one rank, or across every rank.
std::shared_ptr<const CriticalPath> CriticalPathView::PathOf(const TraceModel& model,
                                                             const TraceAnalyses& analyses,
                                                             std::optional<uint32_t> step,
                                                             bool across) {
    const uint32_t group = analyses.ranks.front().group;
    if (across) {
        if (!step) return nullptr;
        std::optional<CriticalPath> path =
            CriticalPathAcrossRanks(model, analyses, analyses.steps[*step].label);
        return path ? std::make_shared<const CriticalPath>(std::move(*path)) : nullptr;
    }
    if (!step)
        return std::make_shared<const CriticalPath>(CriticalPathOfWindow(
            model, analyses.activities, group, model.firstNs, model.lastNs + 1));
    return std::make_shared<const CriticalPath>(
        CriticalPathOfStepWindow(model, analyses, analyses.steps[*step]));
}

void CriticalPathView::Compute() {
    std::shared_ptr<const TraceAnalyses> analyses = m_analyses;
    const TraceModel& model = m_document.model();
    const std::optional<uint32_t> step = m_step;
    const bool across = Across();
    m_path.reset();
    m_selected = SIZE_MAX;
    m_job.Request(
        [analyses, &model, step, across]() { return PathOf(model, *analyses, step, across); });
}

void CriticalPathView::TakePath(std::shared_ptr<const CriticalPath> path) {
    m_path = std::move(path);
    m_contributors =
        m_path ? TopContributors(*m_path, kContributorsShown) : std::vector<PathContributor>();
    m_selected = SIZE_MAX;
}

void CriticalPathView::TakeAnalyses(std::shared_ptr<const TraceAnalyses> analyses) {
    m_analyses = std::move(analyses);
    if (m_analyses->ranks.empty()) return;
    ChooseDefaultStep();
    Compute();
    if (m_steps.size() < 2) return;
    // Every step's path at once, for the table: one pass over the rank's events (across ranks,
    // one path per step).
    std::shared_ptr<const TraceAnalyses> shared = m_analyses;
    const TraceModel& model = m_document.model();
    const std::vector<uint32_t> steps = m_steps;
    const bool across = Across();
    m_stepsJob.Request([shared, &model, steps, across]() -> std::shared_ptr<const StepPaths> {
        auto paths = std::make_shared<StepPaths>();
        if (across) {
            for (const uint32_t s : steps) paths->push_back(PathOf(model, *shared, s, true));
            return paths;
        }
        for (CriticalPath& path : CriticalPathsOfSteps(model, *shared, shared->ranks.front().group))
            paths->push_back(std::make_shared<const CriticalPath>(std::move(path)));
        return paths;
    });
}

void CriticalPathView::Update() {
    if (auto result = m_analysesJob.TakeResult()) TakeAnalyses(std::move(*result));
    if (auto result = m_job.TakeResult()) TakePath(std::move(*result));
    if (auto result = m_stepsJob.TakeResult()) m_stepPaths = std::move(*result);
}

void CriticalPathView::StartOnce() {
    if (m_started) return;
    if (!Across()) {
        if (!Unavailable(m_document.analysis()).empty()) return;
        m_started = true;
        TakeAnalyses(m_document.analysis().trace);
        return;
    }
    // Several ranks in one timeline: their device analyses are made here, off the UI thread.
    m_started = true;
    const TraceModel& model = m_document.model();
    m_analysesJob.Request([&model]() -> std::shared_ptr<const TraceAnalyses> {
        TraceAnalysisOptions options;
        options.threads = std::max(1u, std::thread::hardware_concurrency());
        return std::make_shared<const TraceAnalyses>(AnalyzeTrace(model, options));
    });
}

void CriticalPathView::Wait() {
    StartOnce();
    if (auto result = m_analysesJob.Wait()) TakeAnalyses(std::move(*result));
    if (auto result = m_job.Wait()) TakePath(std::move(*result));
    if (auto result = m_stepsJob.Wait()) m_stepPaths = std::move(*result);
}

void CriticalPathView::TakeOver(View& previous) {
    if (auto* before = dynamic_cast<CriticalPathView*>(&previous)) {
        m_step = before->m_step;
        m_stepChosen = before->m_stepChosen;
    }
}

std::string CriticalPathView::WindowLabel() const {
    if (!m_step) return Across() ? "no step every rank marks" : "the whole trace";
    return "step " + m_analyses->steps[*m_step].label + (Across() ? " across the ranks" : "");
}

void CriticalPathView::ShowOnTimeline(TimelineRequest& request, TimeNs startNs, TimeNs endNs,
                                      std::optional<uint32_t> track) {
    request.kind = TimelineRequest::kShowCriticalPath;
    request.criticalPath = m_path;
    request.startNs = startNs;
    request.endNs = endNs;
    request.track = track;
    request.switchToTimeline = true;
    request.label = "critical path of " + WindowLabel();
}

void CriticalPathView::ShowStretch(TimelineRequest& request, const PathStretch& stretch) {
    const TraceModel& model = m_document.model();
    const SliceAddress& slice = stretch.slice;
    const Row& row = model.tracks[slice.track].rows[slice.row];
    // A wait is shown with the work it waited for, whole; the stretch's own part otherwise
    // (the tail of a long call stays in view).
    const bool wait =
        stretch.bound == BoundKind::kLaunch || stretch.bound == BoundKind::kKernelKernel;
    const TimeNs shiftNs = stretch.bound == BoundKind::kCpu ? 0 : m_path->deviceShiftNs;
    const TimeNs startNs = stretch.startNs - (stretch.bound == BoundKind::kLaunch ? 0 : shiftNs);
    const TimeNs endNs = wait ? row.end[slice.index] : stretch.endNs - shiftNs;
    // A launch's wait opens the launching thread too (its process may be folded).
    ShowOnTimeline(request, startNs, std::max(endNs, startNs + 1),
                   stretch.bound == BoundKind::kLaunch ? std::optional(stretch.fromSlice.track)
                                                       : std::nullopt);
    request.selectSlice = std::array<uint32_t, 3>{slice.track, slice.row, slice.index};
    request.label = std::string(model.Name(stretch.name));
}

void CriticalPathView::DrawHeader(TimelineRequest& request) {
    const TraceAnalyses& analyses = *m_analyses;
    ImGui::SetNextItemWidth(260);
    if (ImGui::BeginCombo("##window", WindowLabel().c_str())) {
        // Across ranks a path is of one step: a collective is matched within its step.
        if (!Across() && ImGui::Selectable("the whole trace", !m_step)) {
            m_step.reset(), m_stepChosen = true;
            Compute();
        }
        for (const uint32_t s : m_steps) {
            const StepWindow& step = analyses.steps[s];
            ImGui::PushID(static_cast<int>(s));
            const std::string label =
                "step " + step.label + "  (" + FormatDuration(step.endNs - step.startNs) + ")";
            if (ImGui::Selectable(label.c_str(), m_step == s)) {
                m_step = s, m_stepChosen = true;
                Compute();
            }
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "The window whose critical path is shown: a step (the longest one at "
            "first) or the whole trace.");
    if (!m_path) return;
    ImGui::SameLine(0, 16);
    if (ImGui::SmallButton("Show the path on the timeline")) {
        // The first host call on the path brings its thread on screen, its process open.
        std::optional<uint32_t> hostTrack;
        for (const PathStretch& stretch : m_path->stretches)
            if (stretch.bound == BoundKind::kCpu) {
                hostTrack = stretch.slice.track;
                break;
            }
        ShowOnTimeline(request, m_path->startNs, std::max(m_path->endNs, m_path->startNs + 1),
                       hostTrack);
    }
    ImGui::SameLine(0, 8);
    if (ImGui::SmallButton("Hide it there")) {
        request.kind = TimelineRequest::kShowCriticalPath;
        request.criticalPath = nullptr;
    }
}

void CriticalPathView::DrawBound(const CriticalPath& path) {
    const TimeNs windowNs = path.toNs - path.fromNs;
    const TimeNs firstNs = m_document.model().firstNs;
    ImGui::PushTextWrapPos(0);  // a narrow window wraps the sentences, never cuts them
    ImGui::Text("%s on the path of %s, from %s to %s; the window is %s long.",
                FormatDuration(path.lengthNs).c_str(), WindowLabel().c_str(),
                FormatInstant(path.startNs - firstNs).c_str(),
                FormatInstant(path.endNs - firstNs).c_str(), FormatDuration(windowNs).c_str());
    BoundKind largest = BoundKind::kCpu;
    for (int k = 0; k < kBoundKindCount; ++k)
        if (path.boundNs[static_cast<size_t>(k)] > path.boundNs[static_cast<size_t>(largest)])
            largest = static_cast<BoundKind>(k);
    ImGui::TextDisabled(
        "Bound most by %s: %s of the path. The path follows host calls, launches, device work "
        "and synchronisations; time where it waits on nothing recorded is not on it.",
        BoundLabel(largest),
        Share(path.boundNs[static_cast<size_t>(largest)], path.lengthNs).c_str());
    if (path.deviceShiftNs > 0)
        ImGui::TextDisabled(
            "The device's times on the path are %s later than recorded: its "
            "clock, converted to the host's, starts work before the call that "
            "launched it.",
            FormatDuration(path.deviceShiftNs).c_str());
    // Across ranks: where the path went from the rank that came last to the others.
    for (const PathCollective& collective : path.collectives)
        ImGui::Text(
            "%s arrived last at %s, %s after the first of its %u ranks; every other rank "
            "waited for it.",
            GroupText(collective.lateGroup).c_str(), collective.name.c_str(),
            FormatDuration(collective.lateByNs).c_str(), collective.ranks);
    if (Across() && path.collectives.empty())
        ImGui::TextDisabled(
            "The path stays on %s: no collective made another rank wait for it "
            "long enough to set the step's length.",
            path.groups.empty() ? "one rank" : GroupText(path.groups.front()).c_str());
    ImGui::PopTextWrapPos();
    SectionTitle("The path's time by what bounds it");
    std::vector<BarSegment> segments;
    for (int k = 0; k < kBoundKindCount; ++k)
        segments.push_back({BoundLabel(static_cast<BoundKind>(k)),
                            static_cast<double>(path.boundNs[static_cast<size_t>(k)]),
                            BoundKindColor(static_cast<BoundKind>(k))});
    DrawStackedBar(segments, ImGui::GetContentRegionAvail().x, 28);
    DrawLegend(segments);
    // A narrow window keeps how each kind is made for the tooltip of its name.
    const bool wide = ImGui::GetContentRegionAvail().x >= 900;
    if (!ImGui::BeginTable(
            "bound", wide ? 4 : 3,
            ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit))
        return;
    ImGui::TableSetupColumn("Bound by", ImGuiTableColumnFlags_WidthFixed, 150);
    ImGui::TableSetupColumn("Time", ImGuiTableColumnFlags_WidthFixed, 110);
    ImGui::TableSetupColumn("Share of the path", ImGuiTableColumnFlags_WidthFixed, 130);
    if (wide) ImGui::TableSetupColumn("How it is made", ImGuiTableColumnFlags_WidthStretch);
    HeadersRowAligned(0b110);
    for (int k = 0; k < kBoundKindCount; ++k) {
        const BoundKind kind = static_cast<BoundKind>(k);
        const TimeNs ns = path.boundNs[static_cast<size_t>(k)];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(BoundLabel(kind));
        if (!wide && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", BoundMeaning(kind));
        ImGui::TableNextColumn();
        RightAligned(FormatDuration(ns));
        ImGui::TableNextColumn();
        RightAligned(Share(ns, path.lengthNs));
        if (!wide) continue;
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", BoundMeaning(kind));
        ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
}

void CriticalPathView::DrawSteps() {
    if (m_steps.size() < 2) return;
    SectionTitle("Every step's critical path  (click: show that step's)");
    if (!m_stepPaths) {
        ImGui::TextDisabled("computing the path of each of the %zu steps…", m_steps.size());
        return;
    }
    const float rowHeight = ImGui::GetTextLineHeightWithSpacing();
    const float height = std::min(8.5f, static_cast<float>(m_stepPaths->size()) + 1.5f) * rowHeight;
    const bool across = Across();
    if (!ImGui::BeginTable("steps", across ? 9 : 8,
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                               ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY,
                           ImVec2(0, height)))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Step", ImGuiTableColumnFlags_WidthFixed, 90);
    ImGui::TableSetupColumn("Step time", ImGuiTableColumnFlags_WidthFixed, 100);
    ImGui::TableSetupColumn("On the path", ImGuiTableColumnFlags_WidthFixed, 100);
    for (int k = 0; k < kBoundKindCount; ++k)
        ImGui::TableSetupColumn(BoundLabel(static_cast<BoundKind>(k)),
                                ImGuiTableColumnFlags_WidthFixed, 120);
    if (across) ImGui::TableSetupColumn("Visits", ImGuiTableColumnFlags_WidthStretch);
    HeadersRowAligned(0b11111110);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(m_stepPaths->size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const std::shared_ptr<const CriticalPath>& path =
                (*m_stepPaths)[static_cast<size_t>(i)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (!path) {  // no rank had the step's work to follow
                ImGui::TextDisabled(
                    "%s", m_analyses->steps[m_steps[static_cast<size_t>(i)]].label.c_str());
                continue;
            }
            ImGui::PushID(i);
            const bool chosen = m_step == m_steps[static_cast<size_t>(i)];
            if (ImGui::Selectable(path->step.c_str(), chosen,
                                  ImGuiSelectableFlags_SpanAllColumns) &&
                !chosen) {
                m_step = m_steps[static_cast<size_t>(i)], m_stepChosen = true;
                TakePath(path);
            }
            ImGui::PopID();
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(path->toNs - path->fromNs));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(path->lengthNs));
            for (int k = 0; k < kBoundKindCount; ++k) {
                ImGui::TableNextColumn();
                RightAligned(Share(path->boundNs[static_cast<size_t>(k)], path->lengthNs));
            }
            if (!across) continue;
            // The ranks the path visits, in order: where a step's time came from.
            ImGui::TableNextColumn();
            std::string visits;
            for (const uint32_t group : path->groups)
                visits += (visits.empty() ? "" : ", ") + GroupText(group);
            ElidedName(visits);
        }
    }
    ImGui::EndTable();
}

void CriticalPathView::DrawContributors(const CriticalPath& path) {
    SectionTitle("What the path's time went to, by name");
    if (!ImGui::BeginTable(
            "contributors", 4,
            ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit))
        return;
    ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("Bound by", ImGuiTableColumnFlags_WidthFixed, 130);
    ImGui::TableSetupColumn("Time on the path", ImGuiTableColumnFlags_WidthFixed, 130);
    ImGui::TableSetupColumn("Stretches", ImGuiTableColumnFlags_WidthFixed, 80);
    HeadersRowAligned(0b1100);
    for (const PathContributor& contributor : m_contributors) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ElidedName(std::string(m_document.model().Name(contributor.name)));
        ImGui::TableNextColumn();
        ImGui::TextColored(
            ImVec4(BoundKindColor(contributor.bound).r, BoundKindColor(contributor.bound).g,
                   BoundKindColor(contributor.bound).b, 1.0f),
            "%s", BoundLabel(contributor.bound));
        ImGui::TableNextColumn();
        RightAligned(FormatDuration(contributor.ns) + "  " + Share(contributor.ns, path.lengthNs));
        ImGui::TableNextColumn();
        RightAligned(std::to_string(contributor.stretches));
    }
    ImGui::EndTable();
}

void CriticalPathView::DrawStretches(const CriticalPath& path, TimelineRequest& request) {
    SectionTitle("The path, stretch by stretch  (click: show it on the timeline)");
    const TraceModel& model = m_document.model();
    const float height = std::max(320.0f, ImGui::GetContentRegionAvail().y);
    // A table of its own per window: another step's list starts at its top.
    ImGui::PushID(m_step ? static_cast<int>(*m_step) : -1);
    const bool open =
        ImGui::BeginTable("stretches", 6,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                              ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY,
                          ImVec2(0, height));
    if (!open) {
        ImGui::PopID();
        return;
    }
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, 50);
    ImGui::TableSetupColumn("Start", ImGuiTableColumnFlags_WidthFixed, 130);
    ImGui::TableSetupColumn("Duration", ImGuiTableColumnFlags_WidthFixed, 100);
    ImGui::TableSetupColumn("Bound by", ImGuiTableColumnFlags_WidthFixed, 130);
    ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    ImGui::TableSetupColumn("Track", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    HeadersRowAligned(0b000111);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(path.stretches.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const PathStretch& stretch = path.stretches[static_cast<size_t>(i)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(i);
            const bool chosen = m_selected == static_cast<size_t>(i);
            if (ImGui::Selectable(std::to_string(i + 1).c_str(), chosen,
                                  ImGuiSelectableFlags_SpanAllColumns)) {
                m_selected = static_cast<size_t>(i);
                ShowStretch(request, stretch);
            }
            ImGui::PopID();
            ImGui::TableNextColumn();
            RightAligned(FormatInstant(stretch.startNs - model.firstNs));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(stretch.endNs - stretch.startNs));
            ImGui::TableNextColumn();
            const Rgba color = BoundKindColor(stretch.bound);
            ImGui::TextColored(ImVec4(color.r, color.g, color.b, 1.0f), "%s",
                               BoundLabel(stretch.bound));
            ImGui::TableNextColumn();
            ElidedName(std::string(model.Name(stretch.name)));
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(TrackText(stretch.slice.track).c_str());
        }
    }
    ImGui::EndTable();
    ImGui::PopID();
}

void CriticalPathView::Draw(ViewContext& context) {
    const std::string unavailable = Across() ? std::string() : Unavailable(m_document.analysis());
    if (!unavailable.empty()) {
        ImGui::TextDisabled("%s", unavailable.c_str());
        return;
    }
    StartOnce();
    if (!m_analyses) {
        ImGui::TextDisabled("computing the device analyses of every rank…");
        return;
    }
    if (m_analyses->ranks.empty()) {
        ImGui::TextDisabled("No critical path: %s", m_analyses->activities.unavailable.c_str());
        return;
    }
    if (Across() && m_steps.empty()) {
        ImGui::TextDisabled(
            "No critical path across the ranks: they share no step "
            "(ProfilerStep#N) to follow a path through.");
        return;
    }
    DrawHeader(context.request);
    if (!m_path) {
        if (m_job.Busy())
            ImGui::TextDisabled("computing the critical path of %s…", WindowLabel().c_str());
        else
            ImGui::TextDisabled("No critical path of %s: no rank marks it.", WindowLabel().c_str());
        return;
    }
    if (!m_path->unavailable.empty()) {
        ImGui::TextDisabled("No critical path in %s: %s.", WindowLabel().c_str(),
                            m_path->unavailable.c_str());
        return;
    }
    DrawBound(*m_path);
    DrawSteps();
    DrawContributors(*m_path);
    DrawStretches(*m_path, context.request);
}

}  // namespace marey

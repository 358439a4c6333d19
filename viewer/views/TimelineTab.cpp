// The Timeline view of one document: search box and legend, the timeline, and its side panel
// (details, range statistics, search matches, import issues).
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

#include <string>

#include "views/TimelineTab.hpp"
#include "viewkit/ViewContext.hpp"
#include "base/LayoutSettings.hpp"
#include "render/BoxRenderer.hpp"
#include "viewkit/ViewCommon.hpp"
#include "workspace/Workspace.hpp"

namespace marey {
namespace {

constexpr float kSplitterWidthPx = 6.0f;

// The time classes' fixed colours only mean something in an Ascend trace's Overlap Analysis.
void DrawLegend(bool timeClasses) {
    const ImVec2 legendAt = ImGui::GetCursorScreenPos();
    const float lineEnd = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const float left = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMin().x;
    const float lineHeight = ImGui::GetTextLineHeightWithSpacing();
    float x = legendAt.x, y = legendAt.y;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    // An entry that would pass the window's edge starts a line of its own under the first.
    auto place = [&](const char* label) {
        const float width = 16 + ImGui::CalcTextSize(label).x;
        if (x > legendAt.x && x + width > lineEnd) x = left, y += lineHeight;
    };
    for (const LegendEntry& entry : kTimeClassLegend) {
        if (!timeClasses) break;
        place(entry.label);
        draw->AddRectFilled(ImVec2(x, y + 4), ImVec2(x + 12, y + 16), PackColor(entry.color), 2.0f);
        draw->AddText(ImVec2(x + 16, y + 1), IM_COL32(205, 208, 215, 255), entry.label);
        x += 28 + ImGui::CalcTextSize(entry.label).x;
    }
    const char* merged = "merged slices (zoom in)";
    place(merged);
    draw->AddRectFilled(ImVec2(x, y + 4), ImVec2(x + 12, y + 16), IM_COL32(120, 120, 130, 255),
                        2.0f);
    for (float s = 0; s < 12; s += 4)
        draw->AddLine(ImVec2(x + s, y + 16), ImVec2(x + s + 4, y + 4), IM_COL32(60, 60, 66, 255),
                      1.5f);
    draw->AddText(ImVec2(x + 16, y + 1), IM_COL32(205, 208, 215, 255), merged);
    ImGui::Dummy(ImVec2(1, y - legendAt.y + 18));  // the lines it took, ending the toolbar's
}

// Several ranks in one timeline: which step lines them up (loading them again when it changes),
// and folding them all at once.
void DrawRanksToolbar(Document& document, TimelineView& timeline, Workspace& workspace) {
    const RanksInOneTimeline& ranks = *document.ranks;
    ImGui::SameLine(0, 24);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Align");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(170);
    const bool realigning = workspace.loads().IsLoading(document.id);
    const std::string current = realigning                  ? "aligning…"
                                : ranks.alignedStep.empty() ? "each rank's own clock"
                                                            : "step " + ranks.alignedStep;
    ImGui::BeginDisabled(realigning);
    if (ImGui::BeginCombo("##align", current.c_str(), ImGuiComboFlags_HeightLarge)) {
        if (ImGui::Selectable("each rank's own clock", ranks.alignedStep.empty()) &&
            !ranks.alignedStep.empty())
            workspace.RealignRanks(document.id, kAlignOnClock);
        for (const std::string& step : ranks.steps) {
            ImGui::PushID(step.c_str());
            const std::string label = "start of step " + step;
            if (ImGui::Selectable(label.c_str(), step == ranks.alignedStep) &&
                step != ranks.alignedStep)
                workspace.RealignRanks(document.id, step);
            ImGui::PopID();
        }
        if (ranks.steps.empty())
            ImGui::TextDisabled("no step that every rank marks (ProfilerStep#N)");
        ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "The chosen step starts at the same time on every rank: each rank's times are moved by "
            "the\n"
            "difference (hover a rank's header to see by how much). Own clocks show when each "
            "rank\n"
            "really ran, as far as the machines' clocks agree.");
    ImGui::SameLine();
    if (ImGui::SmallButton("Fold all")) timeline.SetGroupsCollapsed(true);
    ImGui::SameLine();
    if (ImGui::SmallButton("Unfold all")) timeline.SetGroupsCollapsed(false);
    if (!ranks.failures.empty()) {
        ImGui::SameLine(0, 16);
        ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.4f, 1), "%zu rank%s could not be read (hover)",
                           ranks.failures.size(), ranks.failures.size() == 1 ? "" : "s");
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            for (const std::string& failure : ranks.failures)
                ImGui::TextUnformatted(failure.c_str());
            ImGui::EndTooltip();
        }
    }
}

}  // namespace

TimelineTab::TimelineTab(Document& document)
    : m_document(document),
      m_timeline(document.model(), document.timelineData, document.id.value()),
      m_sideTab(document.model().report.problemCount > 0 ? 3 : 0),
      m_initialView(m_timeline.state().viewStartNs, m_timeline.state().viewEndNs) {
    if (!document.ranks) return;  // placed on its device at its first frame (PlaceFirstScreen)
    // Ranks start folded to their busy strips so that they fit a screen: a few ranks by
    // process (about five headers each), many ranks by rank (one header each).
    constexpr size_t kRanksFoldedByProcess = 8;
    if (document.model().groups.size() <= kRanksFoldedByProcess)
        m_timeline.SetAllCollapsed(true);
    else
        m_timeline.SetGroupsCollapsed(true);
    // A step asked for is shown; by default (the first step they share) the whole of them.
    const RanksInOneTimeline& ranks = *document.ranks;
    if (ranks.stepAsked && ranks.alignedEndNs > ranks.alignedStartNs) {
        const TimeNs first = document.model().firstNs;
        m_timeline.ShowRange(static_cast<double>(ranks.alignedStartNs - first),
                             static_cast<double>(ranks.alignedEndNs - first));
    }
}

void TimelineTab::TakeOver(View& previous) {
    auto* before = dynamic_cast<TimelineTab*>(&previous);
    if (!before) return;
    // Aligned on a step, the new timeline shows that step; on the clocks, the view stays.
    const bool onClock = m_document.ranks && m_document.ranks->alignedStep.empty();
    m_timeline.TakeLayoutFrom(before->m_timeline, onClock);
}

void TimelineTab::AnalysesArrived() {
    m_timeline.SetData(m_document.timelineData);
}

void TimelineTab::PlaceFirstScreen() {
    m_firstScreenPlaced = true;
    // The first screen of a rank is its device: host stacks folded (a click opens them), the view
    // on the span where the device worked rather than the whole recording (Home shows that).
    // Left as it is when a request (--search, --range, a jump) placed the view already.
    const ViewState& state = m_timeline.state();
    if (m_document.ranks || state.selected.valid() || state.hasRange ||
        state.viewStartNs != m_initialView.first || state.viewEndNs != m_initialView.second)
        return;
    if (const auto span = m_timeline.DeviceSpan()) {
        m_timeline.FoldHostProcesses(0, UINT32_MAX, true);
        m_timeline.ShowRange(span->first, span->second);
    }
}

bool TimelineTab::Busy() const {
    return m_search.Searching() || m_range.Computing();
}

void TimelineTab::Update() {
    m_search.TakeFinished(m_timeline);
}

void TimelineTab::Apply(const TimelineRequest& request) {
    TimelineView& timeline = m_timeline;
    switch (request.kind) {
        case TimelineRequest::kShowCriticalPath:
            timeline.SetCriticalPath(request.criticalPath);
            // The processes the path runs through are opened (a first screen folds the host's,
            // a timeline of several ranks their devices'); a path of very many threads opens
            // the first few.
            if (request.criticalPath) {
                std::vector<uint32_t> opened;
                for (const PathStretch& stretch : request.criticalPath->stretches)
                    for (const uint32_t track : {stretch.slice.track, stretch.fromSlice.track})
                        if (opened.size() < 64 &&
                            std::find(opened.begin(), opened.end(), track) == opened.end()) {
                            opened.push_back(track);
                            timeline.ExpandToTrack(track);
                        }
            }
            // Taken away: so is the band that marked it.
            if (!request.criticalPath && timeline.state().markLabel.rfind("critical path", 0) == 0)
                timeline.state().hasMark = false;
            if (request.startNs == request.endNs) break;
            [[fallthrough]];
        case TimelineRequest::kShowRange: {
            const TimeNs firstNs = m_document.model().firstNs;
            timeline.ShowRange(static_cast<double>(request.startNs - firstNs),
                               static_cast<double>(request.endNs - firstNs), true);
            // Marked, so that the person sees what the jump was to.
            ViewState& state = timeline.state();
            state.hasMark = true;
            state.markStartNs = request.startNs - firstNs;
            state.markEndNs = request.endNs - firstNs;
            state.markLabel = request.label;
            if (request.track) timeline.ScrollToRow(*request.track, 0);
            if (request.selectSlice) {
                const auto& [track, row, index] = *request.selectSlice;
                timeline.Select({track, row, index, timeline.documentId()}, false);
                timeline.ScrollToRow(track, row);
                m_sideTab = 0;
            } else if (!request.selectName.empty()) {
                constexpr TimeNs kSelectWithinNs = 10'000'000;
                const SliceRef slice =
                    timeline.FindSliceNear(request.selectName, request.startNs, kSelectWithinNs);
                if (slice.valid()) {
                    timeline.Select(slice, false);
                    m_sideTab = 0;
                }
            }
            break;
        }
        case TimelineRequest::kHighlightNames:
            m_search.SetNames(timeline, request.names, request.label, request.goToFirst);
            m_sideTab = 2;
            break;
        case TimelineRequest::kSearch:
            m_search.SetQuery(timeline, request.label);
            m_search.Step(timeline, true);
            break;
        case TimelineRequest::kShowPanel: {
            const char* panels[] = {"details", "range", "search", "issues"};
            for (int i = 0; i < 4; ++i)
                if (request.label == panels[i]) m_sideTab = i;
            break;
        }
        case TimelineRequest::kFocusSearch:
            m_search.FocusInput();
            break;
        default:
            break;
    }
}

void TimelineTab::DrawToolbar(Workspace& workspace) {
    ImGui::SetCursorPos(ImVec2(ImGui::GetCursorPosX() + 8, ImGui::GetCursorPosY() + 4));
    m_search.DrawToolbar(m_timeline);
    m_search.HandleKeys(m_timeline);
    if (m_search.TakeJumped()) m_sideTab = 0;  // a jump to a match shows the match's details
    if (m_document.ranks) DrawRanksToolbar(m_document, m_timeline, workspace);
    ImGui::SameLine(0, 30);
    DrawLegend(m_document.hasOverlapAnalysis);
    ImGui::Dummy(ImVec2(0, 2));
}

const char* TimelineTab::ShownPanel() const {
    const char* panels[] = {"details", "range", "search", "issues"};
    return m_shownTab >= 0 && m_shownTab < 4 ? panels[m_shownTab] : "";
}

void TimelineTab::DrawSidePanel() {
    TimelineView& timeline = m_timeline;
    const uint64_t problems = m_document.model().report.problemCount;
    const char* tabs[] = {"Details", "Range", "Search", "Import issues"};
    if (ImGui::BeginTabBar("side")) {
        for (int i = 0; i < 4; ++i) {
            std::string label = tabs[i];
            if (i == 3 && problems) label += " (" + std::to_string(problems) + ")";
            label += "###tab" + std::to_string(i);
            if (!ImGui::BeginTabItem(label.c_str(), nullptr,
                                     m_sideTab == i ? ImGuiTabItemFlags_SetSelected : 0))
                continue;
            m_shownTab = i;
            switch (i) {
                case 0:
                    m_details.DrawContents(timeline);
                    break;
                case 1:
                    m_range.DrawContents(timeline);
                    break;
                case 2:
                    m_search.DrawContents(timeline);
                    break;
                default:
                    m_issues.DrawContents(m_document.model());
                    break;
            }
            ImGui::EndTabItem();
        }
        m_sideTab = -1;
        ImGui::EndTabBar();
    }
    // A new range selection brings its tab forward.
    const bool hasRange = timeline.state().hasRange;
    if (hasRange && !m_hadRange) m_sideTab = 1;
    m_hadRange = hasRange;
}

// The bar between the timeline and the side panel: drag to resize the panel.
// Dragging starts from the width shown, which a small window may have narrowed.
void DrawSplitter(LayoutSettings& layout, float height, float availableWidth, float shownWidth) {
    ImGui::InvisibleButton("##splitter", ImVec2(kSplitterWidthPx, height));
    const bool active = ImGui::IsItemActive();
    if (ImGui::IsItemHovered() || active) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    if (active && ImGui::GetIO().MouseDelta.x != 0) {
        layout.sidePanelWidth =
            std::clamp(shownWidth - ImGui::GetIO().MouseDelta.x, LayoutSettings::kMinSidePanelWidth,
                       LayoutSettings::MaxSidePanelWidth(availableWidth));
    }
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    ImGui::GetWindowDrawList()->AddRectFilled(
        ImVec2(min.x + 2, min.y), ImVec2(max.x - 2, max.y),
        active ? IM_COL32(90, 160, 255, 255) : IM_COL32(60, 64, 74, 255));
}

void TimelineTab::Draw(ViewContext& context) {
    LayoutSettings& layout = context.layout;
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_B, false))
        layout.sidePanelShown = !layout.sidePanelShown;
    DrawToolbar(context.workspace);
    const float height = ImGui::GetContentRegionAvail().y;
    const float available = ImGui::GetContentRegionAvail().x;
    const float sideWidth = layout.sidePanelShown ? layout.SidePanelWidthFor(available) : 0.0f;
    const float timelineWidth =
        available - (layout.sidePanelShown ? sideWidth + kSplitterWidthPx : 0.0f);
    ImGui::BeginChild("timeline", ImVec2(timelineWidth, height), false,
                      ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoScrollbar);
    // In a small window the track names take at most a third of the timeline, the rest is time;
    // the width a person set comes back when the window is wide enough again.
    const float headerWidth = std::min(
        layout.headerWidth, std::max(LayoutSettings::kMinHeaderWidth, timelineWidth * 0.34f));
    m_timeline.SetHeaderWidth(headerWidth);
    m_timeline.SetRulerShiftNs(0);  // alone, a timeline counts from its own start
    if (!m_firstScreenPlaced) PlaceFirstScreen();
    m_timeline.Draw(context.boxes, context.frameDt);
    if (m_timeline.TakeClickSelected()) m_sideTab = 0;  // a clicked slice shows its details
    if (m_timeline.headerWidth() != headerWidth) layout.headerWidth = m_timeline.headerWidth();
    ImGui::EndChild();
    if (!layout.sidePanelShown) return;
    ImGui::SameLine(0, 0);
    DrawSplitter(layout, height, available, sideWidth);
    ImGui::SameLine(0, 0);
    ImGui::BeginChild("side", ImVec2(sideWidth, height), true);
    DrawSidePanel();
    ImGui::EndChild();
}

}  // namespace marey

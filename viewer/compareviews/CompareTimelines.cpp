// Two timelines one above the other on one time axis: A on top, B below with its clock moved by
// the alignment's offset. WASD, wheel, drag and the minimap move the half they act on; with sync
// on, the other half follows. Each half keeps its own tracks, hover, selection and details.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cmath>

#include "core/TextFormat.hpp"
#include "rank/TraceSummary.hpp"
#include "compareviews/CompareTimelines.hpp"
#include "timeline/TimelineView.hpp"
#include "viewkit/ViewContext.hpp"
#include "workspace/Workspace.hpp"

namespace marey {
namespace {

constexpr float kHeaderHeightPx = 26.0f;
// A process taller than this share of a half is folded on the first screen.
constexpr float kTallProcessShare = 0.5f;

// What is added to A's relative times to get B's relative times at the same aligned moment.
double RelativeShift(const Document& a, const Document& b, TimeNs offsetNs) {
    return static_cast<double>(a.model().firstNs - offsetNs - b.model().firstNs);
}

std::string OffsetText(const Comparison* comparison) {
    if (!comparison) return "aligning…";
    const Alignment& alignment = comparison->diff.alignment;
    const TimeNs offset = alignment.offsetNs;
    std::string text = "aligned on ";
    if (alignment.by == AlignBy::kStep) {
        text += "step " + alignment.step;
        if (alignment.stepB != alignment.step) text += " (B: step " + alignment.stepB + ")";
    } else if (alignment.by == AlignBy::kOperator) {
        text += alignment.operatorName + " run " + std::to_string(alignment.occurrence + 1);
    } else {
        text += "the trace starts";
    }
    text +=
        ": B's clock " + std::string(offset >= 0 ? "+" : "-") + FormatDuration(std::llabs(offset));
    if (!alignment.note.empty()) text += "  (" + alignment.note + ")";
    return text;
}

void DrawHeader(const char* side, const Document& document, bool focused,
                const std::string& extra) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    draw->AddRectFilled(at, ImVec2(at.x + width, at.y + kHeaderHeightPx),
                        focused ? IM_COL32(44, 62, 92, 255) : IM_COL32(34, 37, 44, 255));
    const std::string title =
        std::string(side) + "  " + document.Title() + "   " + document.rank.path;
    draw->AddText(ImVec2(at.x + 8, at.y + 5), IM_COL32(225, 228, 235, 255), title.c_str());
    if (!extra.empty()) {
        const float extraWidth = ImGui::CalcTextSize(extra.c_str()).x;
        draw->AddText(ImVec2(at.x + width - extraWidth - 10, at.y + 5),
                      IM_COL32(170, 200, 240, 255), extra.c_str());
    }
    ImGui::Dummy(ImVec2(width, kHeaderHeightPx));
}

bool Changed(const ViewState& view, double lastStart, double lastEnd) {
    return view.viewStartNs != lastStart || view.viewEndNs != lastEnd;
}

// Draws one half in a child window of 'height'; returns whether the mouse is over it.
bool DrawHalf(const char* id, Document& document, BoxRenderer& boxes, float frameDt, float height) {
    ImGui::BeginChild(id, ImVec2(0, height), false,
                      ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoScrollbar);
    const bool hovered = ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem);
    TimelineIn(document.views)->Draw(boxes, frameDt);
    ImGui::EndChild();
    return hovered;
}

// The comparison's first screen, whatever A showed before it (a half drawn alone while B still
// loaded has its own first screen): the aligned step of A, else A's device span, else all of A.
void ShowFirstScreen(TimelineView& timelineA, TimeNs firstNsA, const Comparison& comparison) {
    const Alignment& alignment = comparison.diff.alignment;
    const SummaryStep* step =
        alignment.by == AlignBy::kStep ? comparison.a.FindStep(alignment.step) : nullptr;
    if (step && step->placed && step->endNs > step->startNs) {
        timelineA.ShowRange(static_cast<double>(step->startNs - firstNsA),
                            static_cast<double>(step->endNs - firstNsA), true);
    } else if (const auto span = timelineA.DeviceSpan()) {
        timelineA.ShowRange(span->first, span->second, true);
    } else {
        timelineA.ShowAll();
    }
}

}  // namespace

void CompareTimelinesView::TakeOver(View& previous) {
    const auto* before = dynamic_cast<const CompareTimelinesView*>(&previous);
    if (!before) return;
    m_sync = before->m_sync, m_focusB = before->m_focusB, m_laidOut = before->m_laidOut;
    m_firstScreenShown = before->m_firstScreenShown;
    m_halfHeightPx = before->m_halfHeightPx;
    m_lastStartA = before->m_lastStartA, m_lastEndA = before->m_lastEndA;
    m_lastStartB = before->m_lastStartB, m_lastEndB = before->m_lastEndB;
    m_placed = false;  // the alignment may have changed: B is placed again
}

void CompareTimelinesView::Draw(ViewContext& context) {
    ComparisonPair& pair = *context.comparison;
    Document& a = *context.workspace.Find(pair.a);
    Document& b = *context.workspace.Find(pair.b);
    // Views are attached at the start of a frame.
    if (!TimelineIn(a.views) || !TimelineIn(b.views)) return;
    TimelineView& timelineA = *TimelineIn(a.views);
    TimelineView& timelineB = *TimelineIn(b.views);
    const Comparison* comparison = pair.Ready();
    const TimeNs offset =
        comparison ? comparison->diff.alignment.offsetNs : a.model().firstNs - b.model().firstNs;
    const double shift = RelativeShift(a, b, offset);

    const ImGuiIO& io = ImGui::GetIO();
    if (!io.WantTextInput && ImGui::IsKeyPressed(GLFW_KEY_TAB, false)) m_focusB = !m_focusB;
    if (!io.WantTextInput && ImGui::IsKeyPressed(GLFW_KEY_L, false))
        m_sync = !m_sync, m_placed = false;
    ImGui::SetCursorPos(ImVec2(ImGui::GetCursorPosX() + 8, ImGui::GetCursorPosY() + 3));
    if (ImGui::Checkbox("Sync time axes (L)", &m_sync)) m_placed = false;
    ImGui::SameLine(0, 24);
    ImGui::TextDisabled("Keys move the highlighted half (Tab or the mouse picks it).  %s",
                        OffsetText(comparison).c_str());

    if (comparison && !m_firstScreenShown) {
        ShowFirstScreen(timelineA, a.model().firstNs, *comparison);
        m_firstScreenShown = true, m_placed = false;
    }
    if (!m_placed && comparison && m_sync) {
        timelineB.SetViewRange(timelineA.state().viewStartNs + shift,
                               timelineA.state().viewEndNs + shift);
        m_placed = true;
    }
    timelineA.SetKeyboardEnabled(!m_focusB);
    timelineB.SetKeyboardEnabled(m_focusB);
    timelineA.SetRulerShiftNs(0);
    timelineB.SetRulerShiftNs(-shift);  // B's ruler reads A's times at the aligned moments

    const float halfHeight =
        std::floor((ImGui::GetContentRegionAvail().y - 2 * kHeaderHeightPx - 4) * 0.5f);
    m_halfHeightPx = halfHeight;
    if (!m_laidOut) {  // the first screen shows the device streams, not only the host stack
        timelineA.FoldHostProcesses(halfHeight * kTallProcessShare);
        timelineB.FoldHostProcesses(halfHeight * kTallProcessShare);
        m_laidOut = true;
    }
    DrawHeader("A", a, !m_focusB, "");
    const bool overA = DrawHalf("compare_a", a, context.boxes, context.frameDt, halfHeight);
    ViewState& stateA = timelineA.state();
    ViewState& stateB = timelineB.state();
    if (m_sync && Changed(stateA, m_lastStartA, m_lastEndA))
        timelineB.SetViewRange(stateA.viewStartNs + shift, stateA.viewEndNs + shift);
    ImGui::Dummy(ImVec2(0, 4));
    DrawHeader("B", b, m_focusB, m_sync ? "" : "sync off");
    const bool overB = DrawHalf("compare_b", b, context.boxesB, context.frameDt, halfHeight);
    if (m_sync && Changed(stateB, m_lastStartB, m_lastEndB) &&
        !Changed(stateA, m_lastStartA, m_lastEndA))
        timelineA.SetViewRange(stateB.viewStartNs - shift, stateB.viewEndNs - shift);
    if (overA && io.MouseDelta.x * io.MouseDelta.x + io.MouseDelta.y * io.MouseDelta.y > 0)
        m_focusB = false;
    if (overB && io.MouseDelta.x * io.MouseDelta.x + io.MouseDelta.y * io.MouseDelta.y > 0)
        m_focusB = true;
    m_lastStartA = stateA.viewStartNs, m_lastEndA = stateA.viewEndNs;
    m_lastStartB = stateB.viewStartNs, m_lastEndB = stateB.viewEndNs;
}

}  // namespace marey

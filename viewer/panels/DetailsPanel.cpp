#include "panels/DetailsPanel.hpp"

#include <imgui.h>

#include <algorithm>

#include "core/TextFormat.hpp"
#include "panels/TextWrap.hpp"
#include "timeline/TimelineView.hpp"

namespace marey {
namespace {
constexpr size_t kMaxListedFlows = 200;
constexpr size_t kMaxListedChildren = 200;

void SliceButton(TimelineView& timeline, const SliceRef& slice, const char* prefix) {
    const TraceModel& model = timeline.model();
    const std::string_view name = model.Name(timeline.SliceName(slice));
    ImGui::PushID(static_cast<int>(slice.index * 31 + slice.row * 7 + slice.track));
    const std::string label =
        std::string(prefix) + std::string(name.substr(0, 80)) + "  (" +
        FormatDuration(timeline.SliceEnd(slice) - timeline.SliceStart(slice)) + ")";
    if (ImGui::Selectable(label.c_str())) timeline.Reveal(slice);
    ImGui::PopID();
}

}  // namespace

void DetailsPanel::Refresh(TimelineView& timeline) {
    // Flows touching the selected slice, found once per selection (never per frame).
    m_for = timeline.state().selected;
    m_flowsOut.clear();
    m_flowsIn.clear();
    if (!m_for.valid()) return;
    const TraceModel& model = timeline.model();
    for (uint32_t i = 0; i < model.flows.size(); ++i) {
        const Flow& flow = model.flows[i];
        const uint32_t fromTrack = model.FlowFromTrack(flow), toTrack = model.FlowToTrack(flow);
        if (m_flowsOut.size() < kMaxListedFlows &&
            timeline.FlowEndOn(m_for, fromTrack, flow.fromTs))
            m_flowsOut.push_back(i);
        if (m_flowsIn.size() < kMaxListedFlows && timeline.FlowEndOn(m_for, toTrack, flow.toTs))
            m_flowsIn.push_back(i);
    }
}

void DetailsPanel::DrawContents(TimelineView& timeline) {
    const SliceRef selected = timeline.state().selected;
    if (!selected.valid()) {
        ImGui::TextDisabled("Click a slice to see its details.");
        ImGui::TextDisabled("F frames the selection, Esc clears it.");
        return;
    }
    if (!(selected == m_for)) Refresh(timeline);
    const TraceModel& model = timeline.model();
    const Row& row = model.tracks[selected.track].rows[selected.row];
    const TimeNs start = row.start[selected.index], end = row.end[selected.index];
    const std::string_view name = model.Name(row.name[selected.index]);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(name.data(), name.data() + name.size());
    ImGui::PopTextWrapPos();
    ImGui::TextDisabled("%s · %s",
                        model.ProcessLabelWithRank(model.tracks[selected.track].process).c_str(),
                        model.TrackLabel(selected.track).c_str());
    if (ImGui::BeginTable("timing", 2, ImGuiTableFlags_SizingFixedFit)) {
        auto rowText = [](const char* key, const std::string& value) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextDisabled("%s", key);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(value.c_str());
        };
        rowText("start", timeline.RelativeTime(start));
        rowText("end", timeline.RelativeTime(end));
        rowText("duration", FormatDuration(end - start));
        rowText("self time", FormatDuration(timeline.SelfTime(selected)));
        rowText("start (ns)", std::to_string(start));
        // Several ranks in one timeline: which rank, and the time its own file gives.
        if (const uint32_t group = model.GroupOf(selected.track); group != kNoGroup) {
            const ProcessGroup& rank = model.groups[group];
            rowText("rank", rank.label + " (" + rank.note + ")");
            if (rank.shiftNs != 0)
                rowText("start in its file (ns)", std::to_string(start - rank.shiftNs));
        }
        rowText("depth", std::to_string(row.depth) +
                             (row.kind == RowKind::kOverlap ? " (overlap row)" : ""));
        ImGui::EndTable();
    }
    const EventDetails& details = timeline.Details(selected.track, row.Ref(selected.index));
    if (!details.error.empty())
        ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "cannot read the event: %s",
                           details.error.c_str());
    if (ImGui::CollapsingHeader("Arguments", ImGuiTreeNodeFlags_DefaultOpen)) {
        if (details.args.empty()) ImGui::TextDisabled("no args");
        if (ImGui::BeginTable("args", 2,
                              ImGuiTableFlags_RowBg | ImGuiTableFlags_Resizable |
                                  ImGuiTableFlags_BordersInnerV)) {
            ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed, 150);
            ImGui::TableSetupColumn("value");
            for (const auto& [key, value] : details.args) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(key.c_str());
                ImGui::TableNextColumn();
                // A call stack breaks between frames and path parts, never inside a name.
                const float widthPx = std::max(40.0f, ImGui::GetContentRegionAvail().x);
                for (const std::string& line :
                     WrapAtSeparators(value, widthPx, [](std::string_view part) {
                         return ImGui::CalcTextSize(part.data(), part.data() + part.size()).x;
                     }))
                    ImGui::TextUnformatted(line.c_str());
            }
            ImGui::EndTable();
        }
    }
    if (ImGui::CollapsingHeader("Event fields")) {
        ImGui::PushTextWrapPos(0);
        for (const auto& [key, value] : details.fields)
            ImGui::Text("%s: %s", key.c_str(), value.c_str());
        ImGui::PopTextWrapPos();
        ImGui::TextDisabled("byte offset %llu in %s",
                            static_cast<unsigned long long>(row.Ref(selected.index)),
                            model.PathOf(selected.track).c_str());
    }
    const std::string flowsHeader = "Flows (" + std::to_string(m_flowsOut.size()) + " out, " +
                                    std::to_string(m_flowsIn.size()) + " in)";
    if (ImGui::CollapsingHeader(flowsHeader.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
        auto flowList = [&](const std::vector<uint32_t>& list, bool outgoing) {
            for (uint32_t index : list) {
                const Flow& flow = model.flows[index];
                const uint32_t otherTrack =
                    outgoing ? model.FlowToTrack(flow) : model.FlowFromTrack(flow);
                const TimeNs otherTs = outgoing ? flow.toTs : flow.fromTs;
                const SliceRef other = timeline.EnclosingSlice(otherTrack, otherTs);
                ImGui::PushID(static_cast<int>(index));
                const std::string label =
                    std::string(outgoing ? "→ " : "← ") +
                    std::string(model.Name(model.FlowCategory(flow))) +
                    (outgoing ? " to " : " from ") + model.TrackLabel(otherTrack) + " at " +
                    timeline.RelativeTime(otherTs) + " (" +
                    LaterOrEarlier(outgoing ? flow.toTs - flow.fromTs : flow.fromTs - flow.toTs) +
                    ")";
                if (ImGui::Selectable(label.c_str()) && other.valid()) timeline.Reveal(other);
                ImGui::PopID();
            }
        };
        flowList(m_flowsOut, true);
        flowList(m_flowsIn, false);
        if (m_flowsOut.empty() && m_flowsIn.empty()) ImGui::TextDisabled("none");
    }
    if (ImGui::CollapsingHeader("Parent and children", ImGuiTreeNodeFlags_DefaultOpen)) {
        const SliceRef parent = timeline.Parent(selected);
        if (parent.valid())
            SliceButton(timeline, parent, "↑ ");
        else
            ImGui::TextDisabled("no parent");
        const std::vector<SliceRef> children = timeline.Children(selected, kMaxListedChildren);
        for (const SliceRef& child : children) SliceButton(timeline, child, "↓ ");
        if (children.size() == kMaxListedChildren)
            ImGui::TextDisabled("(first %zu children)", kMaxListedChildren);
    }
}

}  // namespace marey

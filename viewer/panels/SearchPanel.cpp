#include "panels/SearchPanel.hpp"

#include <imgui.h>

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "core/TextFormat.hpp"
#include "timeline/TimelineView.hpp"

namespace marey {

void SearchPanel::Step(TimelineView& timeline, bool forward) {
    if (m_job.Busy()) {
        // Enter while the typed query still runs steps through its matches once they are in,
        // not through the last query's.
        m_pendingSteps += forward ? 1 : -1;
        return;
    }
    const auto& matches = timeline.search().Matches();
    if (matches.empty()) return;
    const ViewState& state = timeline.state();
    if (state.selected.valid()) {
        // From the selection: the next match after it, or the first at or after it.
        size_t position = timeline.search().FirstAtOrAfter(timeline.SliceStart(state.selected));
        while (position < matches.size() && !(matches[position].slice == state.selected) &&
               matches[position].startNs == timeline.SliceStart(state.selected))
            ++position;
        if (position < matches.size() && matches[position].slice == state.selected) {
            m_current = forward ? (position + 1) % matches.size()
                                : (position + matches.size() - 1) % matches.size();
        } else {
            m_current = forward ? position % matches.size()
                                : (position + matches.size() - 1) % matches.size();
        }
    } else {
        // The first match at or after the view's start: the one a person reading left to right
        // sees first, so that "1 of N" and the order of the next ones are plain.
        const TimeNs start = timeline.model().firstNs + static_cast<TimeNs>(state.viewStartNs);
        const size_t position = timeline.search().FirstAtOrAfter(start);
        m_current =
            forward ? position % matches.size() : (position + matches.size() - 1) % matches.size();
    }
    timeline.Select(matches[m_current].slice, true);
    m_jumped = true;
}

void SearchPanel::SetQuery(TimelineView& timeline, const std::string& query) {
    std::snprintf(m_input, sizeof m_input, "%s", query.c_str());
    m_ran = m_input;
    const TraceModel& model = timeline.model();
    m_job.Request([&model, query, document = timeline.documentId()] {
        SearchIndex index;
        index.Run(model, query, document);
        return index;
    });
    if (auto index = m_job.Wait()) timeline.search() = std::move(*index);
    m_current = 0;
}

void SearchPanel::TypeQuery(const std::string& query) {
    std::snprintf(m_input, sizeof m_input, "%s", query.c_str());
}

void SearchPanel::SetNames(TimelineView& timeline, const std::vector<std::string>& names,
                           const std::string& label, bool goToFirst) {
    m_goToFirst = goToFirst;
    std::snprintf(m_input, sizeof m_input, "%s", label.c_str());
    m_ran =
        m_input;  // the box shows the label; the names, not a substring search, decide the matches
    const TraceModel& model = timeline.model();
    m_job.Request([&model, names, label, document = timeline.documentId()] {
        SearchIndex index;
        index.RunNames(model, names, label, document);
        return index;
    });
    m_current = 0;
}

void SearchPanel::TakeFinished(TimelineView& timeline) {
    auto index = m_job.TakeResult();
    if (!index) return;
    timeline.search() = std::move(*index);
    m_current = 0;
    if (m_goToFirst && !timeline.search().Matches().empty())
        timeline.Select(timeline.search().Matches()[0].slice, true);
    m_goToFirst = false;
    if (m_job.Busy()) return;  // a newer query runs: the Enters wait for it
    const int pending = std::exchange(m_pendingSteps, 0);
    for (int i = 0; i < std::abs(pending); ++i) Step(timeline, pending > 0);
}

void SearchPanel::Clear(TimelineView& timeline) {
    m_input[0] = '\0';
    m_ran.clear();
    m_goToFirst = false;
    m_pendingSteps = 0;
    m_job.Request([] { return SearchIndex(); });  // also drops a search still running
    timeline.search() = SearchIndex();
    m_current = 0;
}

void SearchPanel::HandleKeys(TimelineView& timeline) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;
    if (timeline.search().Active() &&
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false))
        Step(timeline, !io.KeyShift);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false) &&
        (timeline.search().Active() || m_job.Busy()))
        Clear(timeline);
}

void SearchPanel::DrawToolbar(TimelineView& timeline) {
    if (m_focusInput) {
        ImGui::SetKeyboardFocusHere();
        m_focusInput = false;
        m_selectAll = true;
    }
    ImGui::SetNextItemWidth(260);
    const bool enter = ImGui::InputTextWithHint(
        "##search", "search names (Ctrl+F)", m_input, sizeof m_input,
        ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_CallbackAlways,
        [](ImGuiInputTextCallbackData* data) {
            bool& selectAll = *static_cast<bool*>(data->UserData);
            if (selectAll) data->SelectAll(), selectAll = false;
            return 0;
        },
        &m_selectAll);
    // Esc in the box empties it and leaves it in one press (ImGui alone only leaves, and puts
    // back the text the box had when it took the keyboard).
    if (ImGui::IsItemDeactivated() &&
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false))
        Clear(timeline);
    if (m_ran != m_input) {
        m_ran = m_input;
        const TraceModel& model = timeline.model();
        m_job.Request([&model, query = m_ran, document = timeline.documentId()] {
            SearchIndex index;
            index.Run(model, query, document);
            return index;
        });
    }
    TakeFinished(timeline);
    if (enter) {
        Step(timeline, !ImGui::GetIO().KeyShift);
        ImGui::SetKeyboardFocusHere(-1);  // keep typing / pressing Enter
    }
    ImGui::SameLine();
    const SearchIndex& search = timeline.search();
    const auto& matches = search.Matches();
    const bool onMatch =
        m_current < matches.size() && matches[m_current].slice == timeline.state().selected;
    if (m_job.Busy()) {
        ImGui::TextDisabled("searching…");
    } else if (search.Active()) {
        const unsigned long long count = search.Count();
        if (onMatch)
            ImGui::Text("%zu of %llu", m_current + 1, count);
        else if (count == 1)
            ImGui::TextUnformatted("1 match");
        else
            ImGui::Text("%llu matches", count);
        ImGui::SameLine();
        if (ImGui::ArrowButton("##previous", ImGuiDir_Up)) Step(timeline, false);
        ImGui::SameLine();
        if (ImGui::ArrowButton("##next", ImGuiDir_Down)) Step(timeline, true);
    } else {
        ImGui::TextDisabled("Enter: next, Shift+Enter: previous");
    }
}

void SearchPanel::DrawContents(TimelineView& timeline) {
    const SearchIndex& search = timeline.search();
    if (!search.Active()) {
        ImGui::TextDisabled("Type in the search box: every slice whose name contains the text,");
        ImGui::TextDisabled("case-insensitive, is highlighted and the rest dimmed.");
        return;
    }
    ImGui::Text("%llu matches for \"%s\"", static_cast<unsigned long long>(search.Count()),
                search.Query().c_str());
    if (search.Count() > search.Matches().size())
        ImGui::TextDisabled("(the first %zu are listed)", search.Matches().size());
    const TraceModel& model = timeline.model();
    if (!ImGui::BeginTable(
            "matches", 3,
            ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Start");
    ImGui::TableSetupColumn("Duration");
    ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(search.Matches().size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const SearchMatch& match = search.Matches()[static_cast<size_t>(i)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(i);
            const bool selected = timeline.state().selected == match.slice;
            if (ImGui::Selectable(timeline.RelativeTime(match.startNs).c_str(), selected,
                                  ImGuiSelectableFlags_SpanAllColumns)) {
                m_current = static_cast<size_t>(i);
                timeline.Select(match.slice, true);
            }
            ImGui::PopID();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(
                FormatDuration(timeline.SliceEnd(match.slice) - match.startNs).c_str());
            ImGui::TableNextColumn();
            const std::string_view name = model.Name(timeline.SliceName(match.slice));
            ImGui::TextUnformatted(name.data(), name.data() + name.size());
        }
    }
    ImGui::EndTable();
}

}  // namespace marey

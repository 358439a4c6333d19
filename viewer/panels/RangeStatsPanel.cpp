#include "panels/RangeStatsPanel.hpp"

#include "timeline/ValueFormat.hpp"

#include <imgui.h>

#include <algorithm>

#include "core/TextFormat.hpp"
#include "load/JsonString.hpp"
#include "timeline/TimelineView.hpp"

namespace marey {
namespace {

enum Column { kName, kCount, kTotal, kInRange, kSelf, kAverage, kMin, kMax, kShare, kColumnCount };

std::string CsvField(std::string_view text) {
    if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

}  // namespace

std::string RangeStatsPanel::ToCsv(const TraceModel& model, const RangeStatsResult& stats) {
    std::string csv =
        "name,count,total_ns,in_range_ns,self_ns,average_ns,min_ns,max_ns,share_of_range\n";
    for (const NameStats& s : stats.byName) {
        csv += CsvField(model.Name(s.name)) + "," + std::to_string(s.count) + "," +
               std::to_string(s.totalNs) + "," + std::to_string(s.clippedNs) + "," +
               std::to_string(s.selfNs) + "," +
               std::to_string(s.totalNs / static_cast<TimeNs>(std::max<uint64_t>(1, s.count))) +
               "," + std::to_string(s.minNs) + "," + std::to_string(s.maxNs) + "," +
               std::to_string(stats.ShareOfRange(s)) + "\n";
    }
    return csv;
}

void RangeStatsPanel::SortRows(const TraceModel& model) {
    auto key = [&](const NameStats& s) -> double {
        switch (m_sortColumn) {
            case kCount:
                return static_cast<double>(s.count);
            case kSelf:
                return static_cast<double>(s.selfNs);
            case kAverage:
                return static_cast<double>(s.totalNs) /
                       static_cast<double>(std::max<uint64_t>(1, s.count));
            case kMin:
                return static_cast<double>(s.minNs);
            case kMax:
                return static_cast<double>(s.maxNs);
            case kInRange:
            case kShare:
                return static_cast<double>(s.clippedNs);
            default:
                return static_cast<double>(s.totalNs);
        }
    };
    std::stable_sort(
        m_stats.byName.begin(), m_stats.byName.end(), [&](const NameStats& a, const NameStats& b) {
            if (m_sortColumn == kName) {
                const bool less = model.Name(a.name) < model.Name(b.name);
                return m_sortAscending ? less : model.Name(b.name) < model.Name(a.name);
            }
            return m_sortAscending ? key(a) < key(b) : key(a) > key(b);
        });
}

// The header row, each header with a tooltip that says how its figure is made: "Total" and
// "In range" are two figures of the same slices.
void RangeStatsPanel::DrawHeaderRow() {
    static constexpr const char* kHow[kColumnCount] = {
        "The slice name",
        "Slices of this name that overlap the range",
        "Their whole durations, also the parts outside the range",
        "Their durations clipped to the range: the time they take inside it",
        "Total minus the time of their direct children",
        "Total / count",
        "The shortest whole slice",
        "The longest whole slice",
        "In range / the range's length, in percent",
    };
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int column = 0; column < kColumnCount; ++column) {
        if (!ImGui::TableSetColumnIndex(column)) continue;
        ImGui::TableHeader(ImGui::TableGetColumnName(column));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kHow[column]);
    }
}

void RangeStatsPanel::DrawContents(TimelineView& timeline) {
    const ViewState& state = timeline.state();
    const TraceModel& model = timeline.model();
    if (!state.hasRange || state.rangeTracks.empty()) {
        ImGui::TextDisabled("Shift-drag over the tracks (or drag on the ruler for all tracks)");
        ImGui::TextDisabled("to see statistics of a time range.");
        m_valid = false;
        return;
    }
    if (!m_valid || m_start != state.rangeStartNs || m_end != state.rangeEndNs ||
        m_tracks != state.rangeTracks) {
        m_start = state.rangeStartNs;
        m_end = state.rangeEndNs;
        m_tracks = state.rangeTracks;
        // Off the UI thread: a range over a whole large trace takes longer than a frame.
        m_job.Request(
            [&model, tracks = m_tracks, start = model.firstNs + m_start,
             end = model.firstNs + m_end] { return ComputeRangeStats(model, tracks, start, end); });
        m_valid = true;
    }
    if (auto stats = m_job.TakeResult()) {
        m_stats = std::move(*stats);
        SortRows(model);
    }
    if (m_job.Busy()) ImGui::TextDisabled("computing…");
    ImGui::PushTextWrapPos(0);
    ImGui::Text("%s .. %s: %s over %s, %s", timeline.RelativeTime(model.firstNs + m_start).c_str(),
                timeline.RelativeTime(model.firstNs + m_end).c_str(),
                FormatDuration(m_end - m_start).c_str(),
                CountText(m_tracks.size(), "track", "tracks").c_str(),
                CountText(m_stats.sliceCount, "slice", "slices").c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Copy as CSV")) {
        ImGui::SetClipboardText(ToCsv(model, m_stats).c_str());
        m_copiedRows = m_stats.byName.size();
        m_copiedAt = ImGui::GetTime();
    }
    ImGui::SameLine();
    if (ImGui::Button("Zoom to range (F)"))
        timeline.ShowRange(static_cast<double>(m_start), static_cast<double>(m_end), true);
    if (ImGui::GetTime() - m_copiedAt < 3.0) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(0.55f, 0.85f, 0.55f, 1.0f), "copied %s",
                           CountText(m_copiedRows, "row", "rows").c_str());
    }
    // Every column in view at the panel's default width: short headers, three significant digits
    // (the exact figures are in the CSV and the tooltip), the name column taking what is left. A
    // narrower panel (a small window) scrolls the table sideways rather than cut the figures.
    const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                  ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_SizingFixedFit;
    constexpr float kTableWidthPx = 610;  // the name column and every figure whole
    if (!ImGui::BeginTable("range", kColumnCount, flags, ImVec2(0, 0),
                           std::max(kTableWidthPx, ImGui::GetContentRegionAvail().x)))
        return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch, 0, kName);
    ImGui::TableSetupColumn("Count", 0, 0, kCount);
    ImGui::TableSetupColumn(
        "Total", ImGuiTableColumnFlags_DefaultSort | ImGuiTableColumnFlags_PreferSortDescending, 0,
        kTotal);
    ImGui::TableSetupColumn("In range", ImGuiTableColumnFlags_PreferSortDescending, 0, kInRange);
    ImGui::TableSetupColumn("Self", ImGuiTableColumnFlags_PreferSortDescending, 0, kSelf);
    ImGui::TableSetupColumn("Avg", ImGuiTableColumnFlags_PreferSortDescending, 0, kAverage);
    ImGui::TableSetupColumn("Min", 0, 0, kMin);
    ImGui::TableSetupColumn("Max", ImGuiTableColumnFlags_PreferSortDescending, 0, kMax);
    ImGui::TableSetupColumn("%", ImGuiTableColumnFlags_PreferSortDescending, 0, kShare);
    DrawHeaderRow();
    if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
        specs && specs->SpecsDirty && specs->SpecsCount > 0) {
        m_sortColumn = static_cast<int>(specs->Specs[0].ColumnUserID);
        m_sortAscending = specs->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
        SortRows(model);
        specs->SpecsDirty = false;
    }
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(m_stats.byName.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const NameStats& s = m_stats.byName[static_cast<size_t>(i)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            const std::string_view name = model.Name(s.name);
            ImGui::TextUnformatted(name.data(), name.data() + name.size());
            const TimeNs averageNs =
                s.totalNs / static_cast<TimeNs>(std::max<uint64_t>(1, s.count));
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip(
                    "%.*s\ncount %llu\ntotal %s (whole slices)\nin range %s\nself %s\naverage "
                    "%s\nmin %s\nmax %s",
                    static_cast<int>(name.size()), name.data(),
                    static_cast<unsigned long long>(s.count), FormatDuration(s.totalNs).c_str(),
                    FormatDuration(s.clippedNs).c_str(), FormatDuration(s.selfNs).c_str(),
                    FormatDuration(averageNs).c_str(), FormatDuration(s.minNs).c_str(),
                    FormatDuration(s.maxNs).c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%llu", static_cast<unsigned long long>(s.count));
            for (const TimeNs ns :
                 {s.totalNs, s.clippedNs, s.selfNs, averageNs, s.minNs, s.maxNs}) {
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(CompactDuration(ns).c_str());
            }
            ImGui::TableNextColumn();
            ImGui::Text("%.1f", 100.0 * m_stats.ShareOfRange(s));
        }
    }
    ImGui::EndTable();
}

}  // namespace marey

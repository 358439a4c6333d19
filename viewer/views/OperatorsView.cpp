#include "views/OperatorsView.hpp"
#include "viewkit/ViewContext.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "core/FuzzyMatch.hpp"
#include "core/TextFormat.hpp"
#include "timeline/ElideText.hpp"
#include "workspace/Document.hpp"

namespace marey {
namespace {

enum Column { kName, kType, kCore, kCount, kTotal, kAverage, kMin, kMax, kShare, kColumnCount };

constexpr size_t kTopCount = 20;

}  // namespace

std::vector<size_t> OperatorsView::Filter(const std::vector<OperatorStat>& stats,
                                          const std::string& pattern) {
    std::vector<std::pair<int, size_t>> scored;
    for (size_t i = 0; i < stats.size(); ++i) {
        const int score = FuzzyScore(pattern, stats[i].name);
        if (score >= 0) scored.push_back({pattern.empty() ? 0 : -score, i});
    }
    std::stable_sort(scored.begin(), scored.end());
    std::vector<size_t> rows;
    for (const auto& [score, index] : scored) rows.push_back(index);
    return rows;
}

void OperatorsView::Highlight(const RankAnalysis& analysis, const OperatorStat& stat,
                              TimelineRequest& request) {
    m_selected = stat.name;
    request.kind = TimelineRequest::kHighlightNames;
    request.label = stat.name;
    request.names.clear();
    if (!m_byType || !analysis.kernels) {
        request.names.push_back(stat.name);
        return;
    }
    // A type stands for every task name of that type.
    const KernelTable& kernels = *analysis.kernels;
    const StringId type = kernels.strings.Find(stat.name);
    std::vector<char> seen(kernels.strings.size(), 0);
    for (const KernelRow& row : kernels.rows) {
        if (row.type != type || seen[row.name]) continue;
        seen[row.name] = 1;
        request.names.emplace_back(kernels.strings.Get(row.name));
    }
}

void OperatorsView::DrawTable(const RankAnalysis& analysis, const std::vector<OperatorStat>& stats,
                              TimelineRequest& request) {
    const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Resizable |
                                  ImGuiTableFlags_SizingFixedFit;
    // The name keeps room for 24 characters however narrow the window: the table then scrolls
    // sideways instead of cutting the names to a letter.
    const float figures =
        (m_byType ? 0.0f : 130.0f) + 120 + 60 + 4 * 90 + 64 +
        (2 * ImGui::GetStyle().CellPadding.x + 1) * static_cast<float>(kColumnCount);
    const float innerWidth = std::max(ImGui::GetContentRegionAvail().x,
                                      figures + ImGui::CalcTextSize("hcom_allReduce__586_0_1_").x);
    if (!ImGui::BeginTable("operators", kColumnCount, flags, ImVec2(0, 0), innerWidth)) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn(m_byType ? "Type" : "Name", ImGuiTableColumnFlags_WidthStretch, 0,
                            kName);
    ImGui::TableSetupColumn(
        "Type",
        (m_byType ? ImGuiTableColumnFlags_Disabled | ImGuiTableColumnFlags_DefaultHide : 0) |
            ImGuiTableColumnFlags_WidthFixed,
        130, kType);
    ImGui::TableSetupColumn("Core", ImGuiTableColumnFlags_WidthFixed, 120, kCore);
    ImGui::TableSetupColumn(
        "Count", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_PreferSortDescending, 60,
        kCount);
    ImGui::TableSetupColumn("Total",
                            ImGuiTableColumnFlags_WidthFixed |
                                ImGuiTableColumnFlags_PreferSortDescending |
                                ImGuiTableColumnFlags_DefaultSort,
                            90, kTotal);
    ImGui::TableSetupColumn("Average", ImGuiTableColumnFlags_WidthFixed, 90, kAverage);
    ImGui::TableSetupColumn("Min", ImGuiTableColumnFlags_WidthFixed, 90, kMin);
    ImGui::TableSetupColumn("Max", ImGuiTableColumnFlags_WidthFixed, 90, kMax);
    ImGui::TableSetupColumn("Share", ImGuiTableColumnFlags_WidthFixed, 64, kShare);
    ImGui::TableHeadersRow();
    if (TakeSortSpecs(&m_sortColumn, &m_sortAscending)) m_rowsValid = false;  // re-sort
    if (!m_rowsValid || m_filtered != m_filter) {
        m_filtered = m_filter;
        m_rows = Filter(stats, m_filtered);
        m_rowsValid = true;
        if (m_sortColumn >= 0 && (m_filtered.empty() || m_sortColumn != kName)) {
            auto key = [&](const OperatorStat& s) -> double {
                switch (m_sortColumn) {
                    case kCount:
                        return static_cast<double>(s.count);
                    case kAverage:
                        return static_cast<double>(s.AverageNs());
                    case kMin:
                        return static_cast<double>(s.minNs);
                    case kMax:
                        return static_cast<double>(s.maxNs);
                    default:
                        return static_cast<double>(s.totalNs);
                }
            };
            std::stable_sort(m_rows.begin(), m_rows.end(), [&](size_t a, size_t b) {
                const OperatorStat& x = stats[a];
                const OperatorStat& y = stats[b];
                if (m_sortColumn == kName || m_sortColumn == kType || m_sortColumn == kCore) {
                    const std::string& p = m_sortColumn == kName   ? x.name
                                           : m_sortColumn == kType ? x.type
                                                                   : x.core;
                    const std::string& q = m_sortColumn == kName   ? y.name
                                           : m_sortColumn == kType ? y.type
                                                                   : y.core;
                    return m_sortAscending ? p < q : q < p;
                }
                return m_sortAscending ? key(x) < key(y) : key(x) > key(y);
            });
        }
    }
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(m_rows.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const OperatorStat& stat = stats[m_rows[static_cast<size_t>(i)]];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(i);
            bool cut = false;
            if (ImGui::Selectable(
                    ElidedCellLabel(stat.name, "name", &cut).c_str(), stat.name == m_selected,
                    ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowDoubleClick)) {
                Highlight(analysis, stat, request);
                request.switchToTimeline = ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s%sclick: highlight in the timeline; double-click: go there",
                                  cut ? stat.name.c_str() : "", cut ? "\n" : "");
            ImGui::PopID();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(stat.type.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(stat.core.c_str());
            ImGui::TableNextColumn();
            RightAligned(std::to_string(stat.count));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(stat.totalNs));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(stat.AverageNs()));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(stat.minNs));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(stat.maxNs));
            ImGui::TableNextColumn();
            RightAligned(Percent(stat.share));
        }
    }
    ImGui::EndTable();
}

void OperatorsView::DrawTopChart(const std::vector<OperatorStat>& stats, float width) {
    const size_t count = std::min(kTopCount, stats.size());
    if (count == 0) return;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float rowHeight = ImGui::GetTextLineHeight() + 4;
    const float labelWidth = width * 0.42f;
    const float barWidth = width - labelWidth - 80;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const double largest = static_cast<double>(std::max<TimeNs>(1, stats[0].totalNs));
    for (size_t i = 0; i < count; ++i) {
        const OperatorStat& stat = stats[i];
        const float y = origin.y + static_cast<float>(i) * rowHeight;
        // Names are clipped to their column; the full name is in the tooltip and the table.
        const ImVec4 clip(origin.x, y, origin.x + labelWidth - 6, y + rowHeight);
        draw->AddText(nullptr, 0, ImVec2(origin.x, y + 1), IM_COL32(210, 214, 222, 255),
                      stat.name.c_str(), nullptr, 0, &clip);
        const float w = std::max(
            1.0f, static_cast<float>(static_cast<double>(stat.totalNs) / largest) * barWidth);
        const Rgba color = stat.coreClass == CoreClass::kCommunication ? NotOverlappedColor()
                                                                       : ColorForName(stat.name);
        draw->AddRectFilled(ImVec2(origin.x + labelWidth, y + 2),
                            ImVec2(origin.x + labelWidth + w, y + rowHeight - 2), PackColor(color),
                            2.0f);
        draw->AddText(ImVec2(origin.x + labelWidth + w + 6, y + 1), IM_COL32(170, 175, 185, 255),
                      FormatDuration(stat.totalNs).c_str());
        if (ImGui::IsMouseHoveringRect(ImVec2(origin.x, y),
                                       ImVec2(origin.x + width, y + rowHeight)))
            ImGui::SetTooltip("%s\n%s in %llu calls (%s)", stat.name.c_str(),
                              FormatDuration(stat.totalNs).c_str(),
                              static_cast<unsigned long long>(stat.count),
                              Percent(stat.share).c_str());
    }
    ImGui::Dummy(ImVec2(width, static_cast<float>(count) * rowHeight));
}

void OperatorsView::DrawShareChart(const std::vector<OperatorStat>& stats, float size) {
    // A ring: the eight largest, then everything else together; the legend to its right.
    constexpr size_t kSlices = 8;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 center(origin.x + size / 2, origin.y + size / 2);
    const float outer = size / 2 - 4, inner = outer * 0.58f;
    double angle = -M_PI / 2;
    double rest = 1.0;
    std::vector<std::pair<std::string, Rgba>> legend;
    // Anti-aliased fills would draw a faint seam between neighbouring quads.
    const ImDrawListFlags flags = draw->Flags;
    draw->Flags &= ~ImDrawListFlags_AntiAliasedFill;
    for (size_t i = 0; i <= kSlices && i <= stats.size(); ++i) {
        const bool other = i == kSlices || i == stats.size();
        const double share = other ? rest : stats[i].share;
        if (share > 0.0005) {
            const Rgba color = other ? Rgba{0.35f, 0.37f, 0.42f, 1.0f}
                               : stats[i].coreClass == CoreClass::kCommunication
                                   ? NotOverlappedColor()
                                   : ColorForName(stats[i].name);
            const double end = angle + share * 2 * M_PI;
            // Quads between the two arcs: a ring segment is not convex, so no single polygon fill.
            const int steps = std::max(1, static_cast<int>(share * 120));
            for (int k = 0; k < steps; ++k) {
                const double a0 = angle + (end - angle) * k / steps,
                             a1 = angle + (end - angle) * (k + 1) / steps;
                auto at = [&](double a, float r) {
                    return ImVec2(center.x + r * static_cast<float>(std::cos(a)),
                                  center.y + r * static_cast<float>(std::sin(a)));
                };
                draw->AddQuadFilled(at(a0, inner), at(a0, outer), at(a1, outer), at(a1, inner),
                                    PackColor(color));
            }
            // The share first: a long kernel name is cut at the panel's edge, its share is not.
            legend.push_back(
                {Percent(share) + "  " + (other ? std::string("everything else") : stats[i].name),
                 color});
            angle = end;
        }
        if (other) break;
        rest -= share;
    }
    draw->Flags = flags;
    ImGui::Dummy(ImVec2(size, size));
    ImGui::SameLine(0, 14);
    ImGui::BeginGroup();
    ImGui::Dummy(
        ImVec2(0, std::max(0.0f, size / 2 - static_cast<float>(legend.size()) *
                                                ImGui::GetTextLineHeightWithSpacing() / 2)));
    for (const auto& [label, color] : legend) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        draw->AddRectFilled(ImVec2(at.x, at.y + 3), ImVec2(at.x + 10, at.y + 13), PackColor(color),
                            2.0f);
        ImGui::SetCursorScreenPos(ImVec2(at.x + 16, at.y));
        std::string scratch;
        const std::string_view shown =
            ElideToWidth(label, ImGui::GetContentRegionAvail().x - 4, scratch);
        ImGui::TextUnformatted(shown.data(), shown.data() + shown.size());
        if (shown.size() != label.size() && ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", label.c_str());
    }
    ImGui::EndGroup();
}

void OperatorsView::Draw(const RankAnalysis& analysis, TimelineRequest& request) {
    const OperatorTables& tables = analysis.operators;
    if (tables.byType.empty()) {
        DrawMissingFile(kKernelDetailsFile, "The operator view");
        return;
    }
    if (tables.byName.empty()) m_byType = true;
    ImGui::TextDisabled("from %s", tables.source.c_str());
    ImGui::SameLine(0, 24);
    if (ImGui::RadioButton("by name", !m_byType) && !tables.byName.empty())
        m_byType = false, m_rowsValid = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("by type", m_byType)) m_byType = true, m_rowsValid = false;
    ImGui::SameLine(0, 24);
    ImGui::SetNextItemWidth(380);
    ImGui::InputTextWithHint("##filter", "fuzzy search, e.g. \"fas\" for FlashAttentionScore",
                             m_filter, sizeof m_filter);
    ImGui::SameLine(0, 24);
    ImGui::Text("%zu operators, %s in total", (m_byType ? tables.byType : tables.byName).size(),
                FormatDuration(tables.totalNs).c_str());
    // AI Core against AI CPU (and communication).
    std::vector<BarSegment> cores;
    std::vector<std::string> coreLabels;
    for (const CoreClassTotal& total : tables.byCore)
        coreLabels.push_back(std::string(CoreClassName(total.coreClass)) + ": " +
                             std::to_string(total.count) + " tasks, " +
                             FormatDuration(total.totalNs));
    for (size_t i = 0; i < tables.byCore.size(); ++i) {
        const CoreClass coreClass = tables.byCore[i].coreClass;
        const Rgba color = coreClass == CoreClass::kAiCore || coreClass == CoreClass::kGpu
                               ? ComputingColor()
                           : coreClass == CoreClass::kAiCpu ? Rgba{0.55f, 0.40f, 0.80f, 1.0f}
                           : coreClass == CoreClass::kCommunication ? NotOverlappedColor()
                                                                    : FreeColor();
        cores.push_back(
            {coreLabels[i].c_str(), static_cast<double>(tables.byCore[i].totalNs), color});
    }
    DrawStackedBar(cores, ImGui::GetContentRegionAvail().x, 22);
    DrawLegend(cores);

    const std::vector<OperatorStat>& stats = m_byType ? tables.byType : tables.byName;
    const float chartWidth = std::min(520.0f, ImGui::GetContentRegionAvail().x * 0.36f);
    const float height = ImGui::GetContentRegionAvail().y;
    ImGui::BeginChild("table", ImVec2(ImGui::GetContentRegionAvail().x - chartWidth - 12, height));
    DrawTable(analysis, stats, request);
    ImGui::EndChild();
    ImGui::SameLine(0, 12);
    ImGui::BeginChild("charts", ImVec2(chartWidth, height));
    SectionTitle(m_byType ? "Top 20 types by total time" : "Top 20 operators by total time");
    DrawTopChart(stats, chartWidth - 8);
    SectionTitle("Share of the total");
    DrawShareChart(stats, std::min(200.0f, chartWidth * 0.5f));
    ImGui::EndChild();
}

void OperatorsView::Draw(ViewContext& context) {
    Draw(context.document->analysis(), context.request);
}

}  // namespace marey

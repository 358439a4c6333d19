// Step trace across ranks: the distribution of each phase over the ranks (box plots), then one
// row per rank with every phase, sortable, with the slow ranks flagged.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/RobustStats.hpp"
#include "clusterviews/ClusterCommon.hpp"
#include "clusterviews/StepTraceView.hpp"
#include "viewkit/ViewCommon.hpp"
#include "viewkit/ViewContext.hpp"

namespace marey {
namespace {

constexpr int kFlagColumnId = kStepColumnCount;
constexpr int kRankColumnId = -1;

// The columns shown, in table order: step time first, then the phases the files have and that
// are not zero on every rank (no pipeline: no bubble); 'hidden' gets the names of the others.
std::vector<int> ShownColumns(const StepTable& table, std::string* hidden) {
    std::vector<int> columns = {kStepTimeColumn};
    for (const int column :
         {kStepComputing, kStepCommNotOverlapped, kStepOverlapped, kStepCommunication, kStepFree,
          kStepStage, kStepBubble, kStepPreparing}) {
        if (!table.hasColumn[column]) continue;
        const bool any = std::any_of(table.rows.begin(), table.rows.end(),
                                     [&](const StepTableRow& row) { return row.ns[column] != 0; });
        if (any)
            columns.push_back(column);
        else
            *hidden +=
                (hidden->empty() ? "" : ", ") + std::string(StepColumnName(column, table.layout));
    }
    return columns;
}

const char* ShortName(int column, StepLayout layout) {
    if (layout == StepLayout::kMindInsight) return StepColumnName(column, layout);
    switch (column) {
        case kStepTimeColumn:
            return "Step time";
        case kStepCommNotOverlapped:
            return "Not overlapped";
        case kStepCommunication:
            return "Communication";
        default:
            return StepColumnName(column);
    }
}

StepBox BoxOf(std::vector<double> values) {
    return SummarizeFive(values);
}

// One box plot per shown column, each on its own scale (whiskers at min and max), the flagged
// ranks as red marks and the selected rank as a white one.
void DrawDistributions(ClusterDocument& document, const StepTableCache& cache,
                       const std::vector<int>& columns) {
    const float gap = 10;
    const float width =
        (ImGui::GetContentRegionAvail().x - gap * static_cast<float>(columns.size() - 1)) /
        static_cast<float>(columns.size());
    auto rangeOf = [&](int column) {
        const StepBox& box = cache.boxes[column];
        return std::make_pair(Ms(static_cast<TimeNs>(box.min)) + " …",
                              Ms(static_cast<TimeNs>(box.max)));
    };
    // A range too wide for its box takes two lines, and every box a line more.
    bool twoLines = false;
    for (const int column : columns) {
        const auto [from, to] = rangeOf(column);
        twoLines = twoLines || ImGui::CalcTextSize((from + " " + to).c_str()).x > width - 10;
    }
    const float height = twoLines ? 127 : 112;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const std::vector<StepTableRow>& rows = cache.table.rows;
    for (size_t c = 0; c < columns.size(); ++c) {
        const int column = columns[c];
        const StepBox& box = cache.boxes[column];
        const float x0 = origin.x + static_cast<float>(c) * (width + gap);
        const float top = origin.y + 18, bottom = origin.y + 78;  // the range under it
        draw->AddRectFilled(ImVec2(x0, origin.y), ImVec2(x0 + width, origin.y + height),
                            IM_COL32(255, 255, 255, 10), 3);
        draw->AddText(ImVec2(x0 + 6, origin.y + 2), IM_COL32(200, 205, 215, 255),
                      ShortName(column, cache.table.layout));
        const double span = std::max(box.max - box.min, 1.0);
        auto xOf = [&](double v) {
            return x0 + 8 + static_cast<float>((v - box.min) / span) * (width - 16);
        };
        const float mid = (top + bottom) / 2;
        const ImU32 color = PackColor(StepColumnColor(column));
        draw->AddLine(ImVec2(xOf(box.min), mid), ImVec2(xOf(box.max), mid),
                      IM_COL32(170, 175, 185, 255));
        draw->AddLine(ImVec2(xOf(box.min), mid - 6), ImVec2(xOf(box.min), mid + 6),
                      IM_COL32(170, 175, 185, 255));
        draw->AddLine(ImVec2(xOf(box.max), mid - 6), ImVec2(xOf(box.max), mid + 6),
                      IM_COL32(170, 175, 185, 255));
        draw->AddRectFilled(ImVec2(xOf(box.q1), mid - 10),
                            ImVec2(std::max(xOf(box.q3), xOf(box.q1) + 2), mid + 10), color);
        draw->AddLine(ImVec2(xOf(box.median), mid - 12), ImVec2(xOf(box.median), mid + 12),
                      IM_COL32(20, 20, 24, 255), 2);
        for (const SlowRank& slow : cache.slow)
            if (slow.column == column)
                draw->AddTriangleFilled(
                    ImVec2(xOf(static_cast<double>(slow.valueNs)), mid + 12),
                    ImVec2(xOf(static_cast<double>(slow.valueNs)) - 5, mid + 20),
                    ImVec2(xOf(static_cast<double>(slow.valueNs)) + 5, mid + 20),
                    IM_COL32(255, 90, 80, 255));
        const std::optional<size_t> selected = document.SelectedRankIndex();
        if (selected && rows[*selected].present) {
            const float x = xOf(static_cast<double>(rows[*selected].ns[column]));
            draw->AddLine(ImVec2(x, mid - 14), ImVec2(x, mid + 14), IM_COL32(255, 255, 255, 255),
                          2);
        }
        const std::string median = "median " + Ms(static_cast<TimeNs>(box.median));
        const auto [from, to] = rangeOf(column);
        draw->PushClipRect(ImVec2(x0, origin.y), ImVec2(x0 + width, origin.y + height), true);
        draw->AddText(ImVec2(x0 + 6, bottom + 2), IM_COL32(200, 205, 215, 255), median.c_str());
        const ImU32 dim = IM_COL32(150, 155, 165, 255);
        if (twoLines) {
            draw->AddText(ImVec2(x0 + 6, bottom + 17), dim, from.c_str());
            draw->AddText(ImVec2(x0 + 6, bottom + 32), dim, to.c_str());
        } else {
            draw->AddText(ImVec2(x0 + 6, bottom + 17), dim, (from + " " + to).c_str());
        }
        draw->PopClipRect();
        ImGui::SetCursorScreenPos(ImVec2(x0, origin.y));
        ImGui::PushID(column);
        ImGui::InvisibleButton("box", ImVec2(width, height));
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            ImGui::Text("%s over %zu ranks", ShortName(column, cache.table.layout), box.count);
            ImGui::Text(
                "min %s   q1 %s   median %s   q3 %s   max %s",
                Ms(static_cast<TimeNs>(box.min)).c_str(), Ms(static_cast<TimeNs>(box.q1)).c_str(),
                Ms(static_cast<TimeNs>(box.median)).c_str(),
                Ms(static_cast<TimeNs>(box.q3)).c_str(), Ms(static_cast<TimeNs>(box.max)).c_str());
            ImGui::TextDisabled(
                "box: middle half of the ranks; bar: median; red marks: slow ranks; white: the "
                "selected rank");
            ImGui::EndTooltip();
        }
        ImGui::PopID();
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + height + 6));
}

// True when 'rankId' lies in a group slower than the reference one.
bool InSlowerGroup(const GroupDifference& difference, RankId rankId) {
    for (size_t g = 0; g < difference.reference; ++g)  // slowest first: these are slower
        if (std::binary_search(difference.groups[g].ranks.begin(), difference.groups[g].ranks.end(),
                               rankId.value()))
            return true;
    return false;
}

// "step 1", "steps 1, 6", "every step": where the groups' difference lies.
std::string StepsNamed(const GroupDifference& difference) {
    if (difference.stepCount > 1 && difference.steps.size() == difference.stepCount)
        return "every step";
    std::string text = difference.steps.size() == 1 ? "step " : "steps ";
    for (size_t i = 0; i < difference.steps.size() && i < 3; ++i)
        text += (i ? ", " : "") + difference.steps[i];
    if (difference.steps.size() > 3) text += ", …";
    return text;
}

// The Flag column's cell: its whole text when the column has room, else the short one with the
// whole in a tooltip.
void DrawFlagCell(const StepTableCache& shown, const StepTableRow& row, const SlowRank* slow) {
    std::string whole, brief;
    ImVec4 color(1, 0.45f, 0.4f, 1);
    if (slow) {
        const double share = slow->medianNs > 0
                                 ? 100.0 * static_cast<double>(slow->valueNs - slow->medianNs) /
                                       static_cast<double>(slow->medianNs)
                                 : 0;
        char text[64];
        std::snprintf(text, sizeof text, "slow: %s %+.1f %%",
                      ShortName(slow->column, shown.table.layout), share);
        brief = text;
        whole = brief + " (median " + Ms(slow->medianNs) + ", MAD " + Ms(slow->madNs) + ")";
    } else if (!row.present) {
        ImGui::TextDisabled("no such step");
        return;
    } else if (shown.difference && InSlowerGroup(*shown.difference, row.rankId)) {
        color = ImVec4(1, 0.8f, 0.35f, 1);
        whole = "slower group: " + StepsNamed(*shown.difference);
        brief = "slower group";
    } else {
        return;
    }
    const bool fits = ImGui::CalcTextSize(whole.c_str()).x <= ImGui::GetContentRegionAvail().x;
    ImGui::TextColored(color, "%s", fits ? whole.c_str() : brief.c_str());
    if (!fits && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", whole.c_str());
}

// Ranks that differ in groups and a step that dominates the average, in amber: what median and
// MAD cannot see. A click selects the first rank of the slowest group.
void DrawDifferences(ClusterDocument& document, const StepTableCache& cache) {
    const ImVec4 amber(1, 0.8f, 0.35f, 1);
    ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x - 10);
    if (cache.difference) {
        ImGui::TextColored(amber, "%s", DescribeGroupDifference(*cache.difference).c_str());
        const std::vector<int> ranks = DifferingRanks(*cache.difference);
        if (!ranks.empty() && ImGui::IsItemClicked()) SelectRank(document, RankId(ranks.front()));
        if (!ranks.empty() && ImGui::IsItemHovered())
            ImGui::SetTooltip("click: select rank %d", ranks.front());
    }
    const bool saidAlready =
        cache.difference && cache.dominant &&
        cache.difference->steps == std::vector<std::string>{cache.dominant->step};
    if (cache.dominant && !saidAlready)
        ImGui::TextColored(amber, "%s", DescribeDominantStep(*cache.dominant).c_str());
    ImGui::PopTextWrapPos();
}

void DrawFlags(ClusterDocument& document, const StepTableCache& cache) {
    if (cache.slow.empty()) {
        if (cache.difference) {
            ImGui::TextColored(ImVec4(1, 0.8f, 0.35f, 1), "No single slow rank, but ranks differ:");
            char note[160];
            std::snprintf(note, sizeof note,
                          "(ranks sorted by step time split where one lies over %.0f %% above "
                          "the one before it; median and MAD flag single ranks only)",
                          kGroupGapShare * 100);
            NoteAfter(note, ImGui::GetStyle().ItemSpacing.x);
            DrawDifferences(document, cache);
            return;
        }
        ImGui::TextColored(ImVec4(0.55f, 0.85f, 0.55f, 1), "No slow rank");
        ImGui::SameLine();
        ImGui::TextDisabled(
            "(a rank is flagged when a phase lies over %.1f robust deviations (MAD) above the "
            "median and at "
            "least %.0f %% of the median step time above it)",
            kSlowScore, kSlowShareOfStep * 100);
        DrawDifferences(document, cache);
        return;
    }
    ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%zu slow rank%s:", cache.slow.size(),
                       cache.slow.size() == 1 ? "" : "s");
    for (size_t i = 0; i < cache.slow.size() && i < 4; ++i) {
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::SmallButton(DescribeSlowRank(cache.slow[i]).c_str()))
            SelectRank(document, RankId(cache.slow[i].rankId));
        ImGui::PopID();
    }
    if (cache.slow.size() > 4)
        ImGui::TextDisabled("and %zu more: sort by the Flag column", cache.slow.size() - 4);
    DrawDifferences(document, cache);
}

}  // namespace

StepTraceView::StepTraceView(ClusterDocument& cluster) : m_document(cluster) {}

void StepTraceView::BenchmarkFrame(int frame, int) {
    if (frame % 10 == 0) SortBy(frame / 10 % kStepColumnCount, frame / 10 % 2 == 0);
}

const StepTableCache& StepTraceView::TableShown() {
    StepTableCache& cache = m_cache;
    const ClusterSelection& selection = m_document.selection;
    const StepTableKey rowsKey{selection.step, selection.group};
    const StepTableSort sort{m_sortColumn, m_sortAscending};
    if (cache.rows == rowsKey && cache.sort == sort) return cache;
    const bool newRows = cache.rows != rowsKey;
    if (newRows) {
        cache.table = !selection.step ? m_document.report.averagedSteps
                                      : BuildStepTable(m_document.cluster, selection.step);
        const std::vector<int> ranks =
            !selection.group ? std::vector<int>() : m_document.GroupRanks();
        cache.slow = FindSlowRanks(cache.table, ranks);
        cache.difference = FindGroupDifference(m_document.cluster, cache.table, cache.slow, ranks);
        cache.dominant =
            selection.step ? std::nullopt : FindDominantStep(m_document.cluster, ranks);
    }
    cache.rows = rowsKey;
    cache.sort = sort;
    cache.order.clear();
    for (size_t i = 0; i < cache.table.rows.size(); ++i)
        if (m_document.InGroup(cache.table.rows[i].rankId))
            cache.order.push_back(static_cast<int>(i));
    const std::vector<StepTableRow>& rows = cache.table.rows;
    if (newRows) {  // the box plots depend on which ranks are shown, not on their order
        cache.boxes.assign(kStepColumnCount, StepBox());
        for (int column = 0; column < kStepColumnCount; ++column) {
            std::vector<double> values;
            for (const int i : cache.order)
                if (rows[i].present) values.push_back(static_cast<double>(rows[i].ns[column]));
            cache.boxes[column] = BoxOf(std::move(values));
        }
    }
    const int column = cache.sort->column;
    if (column >= 0 && column < kStepColumnCount) {
        std::stable_sort(cache.order.begin(), cache.order.end(), [&](int a, int b) {
            return cache.sort->ascending ? rows[a].ns[column] < rows[b].ns[column]
                                         : rows[a].ns[column] > rows[b].ns[column];
        });
    } else if (column == kStepColumnCount) {  // the flag column: flagged first, most excess first
        auto excess = [&](int i) {
            for (const SlowRank& slow : cache.slow)
                if (slow.rankId == rows[i].rankId) return slow.valueNs - slow.medianNs;
            return TimeNs{-1};
        };
        std::stable_sort(cache.order.begin(), cache.order.end(),
                         [&](int a, int b) { return excess(a) > excess(b); });
    } else if (column < 0 && !cache.sort->ascending) {  // rank order, descending
        std::reverse(cache.order.begin(), cache.order.end());
    }
    return cache;
}

void StepTraceView::Draw(ViewContext& context) {
    ClusterDocument& document = m_document;
    DrawStepAndGroupPickers(document);
    const StepTableCache& cache = TableShown();
    if (!cache.table.hasColumn[kStepComputing]) {
        DrawNoClusterData(document, kStepTraceFile, "The step trace across ranks");
        return;
    }
    std::string hidden;
    const std::vector<int> columns = ShownColumns(cache.table, &hidden);
    DrawFlags(document, cache);
    DrawDistributions(document, cache, columns);
    DrawSelectedRankActions(document, context.clusterRequest);
    if (!hidden.empty()) NoteAfter(("zero on every rank, not shown: " + hidden).c_str(), 30);
    const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("steps", static_cast<int>(columns.size()) + 2, flags)) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Rank",
                            ImGuiTableColumnFlags_DefaultSort | ImGuiTableColumnFlags_WidthFixed,
                            60, kRankColumnId);
    for (const int column : columns)
        ImGui::TableSetupColumn(ShortName(column, cache.table.layout),
                                ImGuiTableColumnFlags_PreferSortDescending, 1.0f, column);
    ImGui::TableSetupColumn("Flag", ImGuiTableColumnFlags_PreferSortDescending, 2.6f,
                            kFlagColumnId);
    ImGui::TableHeadersRow();
    TakeSortSpecs(&m_sortColumn, &m_sortAscending);
    const StepTableCache& shown = TableShown();
    // A rank selected elsewhere (a flag, another view, --rank) is scrolled into view once.
    if (document.selection.rank != m_scrolledRank) {
        m_scrolledRank = document.selection.rank;
        const auto at = std::find_if(shown.order.begin(), shown.order.end(), [&](int i) {
            return document.selection.rank == shown.table.rows[i].rankId;
        });
        if (at != shown.order.end()) {
            const float rowHeight =
                ImGui::GetTextLineHeight() + ImGui::GetStyle().CellPadding.y * 2;
            const float visible = ImGui::GetWindowHeight();
            const float y = static_cast<float>(at - shown.order.begin()) * rowHeight;
            if (y < ImGui::GetScrollY() || y > ImGui::GetScrollY() + visible - 2 * rowHeight)
                ImGui::SetScrollY(std::max(0.0f, y - visible / 3));
        }
    }
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(shown.order.size()));
    while (clipper.Step()) {
        for (int line = clipper.DisplayStart; line < clipper.DisplayEnd; ++line) {
            const StepTableRow& row = shown.table.rows[shown.order[line]];
            const SlowRank* slow = nullptr;
            for (const SlowRank& s : shown.slow)
                if (s.rankId == row.rankId) slow = &s;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            const std::string label = ToString(row.rankId);
            if (ImGui::Selectable(label.c_str(), document.selection.rank == row.rankId,
                                  ImGuiSelectableFlags_SpanAllColumns))
                SelectRank(document, RankId(row.rankId));
            RankRightClick(document, RankId(row.rankId));
            for (const int column : columns) {
                ImGui::TableNextColumn();
                if (!row.present) {
                    ImGui::TextDisabled("–");
                    continue;
                }
                const bool flagged = slow && slow->column == column;
                if (flagged) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.45f, 0.4f, 1));
                RightAligned(Ms(row.ns[column]));
                if (flagged) ImGui::PopStyleColor();
            }
            ImGui::TableNextColumn();
            DrawFlagCell(shown, row, slow);
        }
    }
    ImGui::EndTable();
    DrawRankMenu(document, context.clusterRequest);
}

}  // namespace marey

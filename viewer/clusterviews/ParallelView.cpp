#include "clusterviews/ParallelView.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "base/Colors.hpp"
#include "clusterviews/ClusterCommon.hpp"
#include "cluster/ClusterSteps.hpp"
#include "core/TextFormat.hpp"
#include "render/BoxRenderer.hpp"
#include "viewkit/ViewCommon.hpp"
#include "viewkit/ViewContext.hpp"
#include "workspace/ClusterDocument.hpp"

namespace marey {
namespace {

constexpr float kMaxSquarePx = 48;
constexpr float kMinSquarePx = 3;  // below it a cell is one box: its worst rank's colour
constexpr float kLabelWidth = 70;
constexpr int64_t kMostCells = 1 << 20;     // stages × replicas drawn
constexpr int64_t kMostRanksInCell = 4096;  // TP × CP ranks of one cell
constexpr float kHeaderHeight = 20;
constexpr ImU32 kTpOutline = IM_COL32(255, 255, 255, 235);
constexpr ImU32 kPpOutline = IM_COL32(255, 160, 60, 235);
constexpr ImU32 kDpOutline = IM_COL32(90, 200, 255, 235);
constexpr Rgba kNoValueColor = {0.24f, 0.25f, 0.27f, 1};

// Where each rank and cell is drawn: stages across, replicas down, each cell a block of the
// tp × cp ranks of one place, tp wrapped into 'across' columns (a TP 8 cell of a wide pipeline is
// 3 × 3, not 8 × 1: the squares grow to use the window's height).
struct Grid {
    int stages = 1, replicas = 1, tp = 1, cp = 1;
    int across = 1;    // squares across a cell; each cp rank takes ceil(tp / across) rows
    float square = 0;  // px; below kMinSquarePx the cells are merged
    float cellW = 0, cellH = 0, gap = 0;
    ImVec2 origin;  // top left of the first cell

    bool Merged() const { return square < kMinSquarePx; }
    int RowsPerCp() const { return (tp + across - 1) / across; }
    ImVec2 Cell(int stage, int replica) const {
        return ImVec2(origin.x + static_cast<float>(stage) * (cellW + gap),
                      origin.y + static_cast<float>(replica) * (cellH + gap));
    }
    ImVec2 Square(const RankPlace& place) const {
        const ImVec2 cell = Cell(place.pp, place.dp);
        if (Merged()) return cell;
        const int row = std::max(0, place.cp) * RowsPerCp() + place.tp / across;
        return ImVec2(cell.x + static_cast<float>(place.tp % across) * square,
                      cell.y + static_cast<float>(row) * square);
    }
    ImVec2 SquareEnd(const RankPlace& place) const {
        const ImVec2 at = Square(place);
        return Merged() ? ImVec2(at.x + cellW, at.y + cellH)
                        : ImVec2(at.x + square - 1, at.y + square - 1);
    }
    float Width() const { return static_cast<float>(stages) * (cellW + gap) - gap; }
    float Height() const { return static_cast<float>(replicas) * (cellH + gap) - gap; }
};

bool Placed(const RankPlace& place) {
    return place.pp >= 0 && place.dp >= 0 && place.tp >= 0;
}

// The largest square that fits 'width' × 'height' with cells 'across' squares wide.
float SquareFor(const Grid& grid, int across, float gap, float width, float height) {
    const int rows = (grid.tp + across - 1) / across * grid.cp;
    return std::floor(std::min((width - static_cast<float>(grid.stages - 1) * gap) /
                                   static_cast<float>(grid.stages * across),
                               (height - static_cast<float>(grid.replicas - 1) * gap) /
                                   static_cast<float>(grid.replicas * rows)));
}

Grid Fit(const ParallelLayout& layout, ImVec2 origin, ImVec2 room) {
    Grid grid;
    grid.stages = std::max(1, layout.sizes.pp), grid.replicas = std::max(1, layout.sizes.dp);
    grid.tp = std::max(1, layout.sizes.tp), grid.cp = std::max(1, layout.sizes.cp);
    grid.origin = ImVec2(origin.x + kLabelWidth, origin.y + kHeaderHeight);
    const float width = room.x - kLabelWidth, height = room.y - kHeaderHeight;
    for (const float gap : {8.0f, 3.0f, 1.0f}) {
        grid.gap = gap;
        grid.square = 0;
        // The cell shape that gives the largest squares; the fewest rows among equals.
        for (int across = grid.tp; across >= 1; --across) {
            const float square =
                std::min(SquareFor(grid, across, gap, width, height), kMaxSquarePx);
            if (square > grid.square) grid.square = square, grid.across = across;
        }
        if (grid.square >= 6 * gap || gap == 1) break;
    }
    if (grid.Merged()) {
        grid.cellW =
            std::max(1.0f, std::floor((width - static_cast<float>(grid.stages - 1) * grid.gap) /
                                      static_cast<float>(grid.stages)));
        grid.cellH =
            std::max(1.0f, std::floor((height - static_cast<float>(grid.replicas - 1) * grid.gap) /
                                      static_cast<float>(grid.replicas)));
    } else {
        grid.cellW = grid.square * static_cast<float>(grid.across);
        grid.cellH = grid.square * static_cast<float>(grid.RowsPerCp() * grid.cp);
    }
    return grid;
}

// The index into the cluster's ranks of the rank at 'mouse', or -1; where cells are merged, the
// rank whose figure the cell's colour shows (its longest).
int RankAt(const Grid& grid, const ParallelLayout& layout, const std::vector<double>& values,
           ImVec2 mouse) {
    int found = -1;
    for (size_t i = 0; i < layout.places.size(); ++i) {
        const RankPlace& place = layout.places[i];
        if (!Placed(place)) continue;
        const ImVec2 a = grid.Square(place), b = grid.SquareEnd(place);
        if (mouse.x < a.x || mouse.x >= b.x + 1 || mouse.y < a.y || mouse.y >= b.y + 1) continue;
        if (!grid.Merged()) return static_cast<int>(i);
        if (found < 0 || values[i] > values[static_cast<size_t>(found)])
            found = static_cast<int>(i);
    }
    return found;
}

// The other ranks of 'place''s group in one dimension: same coordinates but that one.
bool SameGroup(const RankPlace& a, const RankPlace& b, int RankPlace::*dimension) {
    for (int RankPlace::*d : {&RankPlace::tp, &RankPlace::cp, &RankPlace::dp, &RankPlace::pp})
        if (d != dimension && a.*d != b.*d) return false;
    return true;
}

std::string PlaceText(const RankPlace& place, const ParallelLayout& layout) {
    std::string text = "rank " + std::to_string(place.rank) + " · stage " +
                       std::to_string(place.pp) + " · replica " + std::to_string(place.dp);
    if (layout.sizes.tp > 1) text += " · TP " + std::to_string(place.tp);
    if (layout.sizes.cp > 1) text += " · CP " + std::to_string(place.cp);
    if (layout.sizes.ep > 1 && place.ep >= 0) text += " · EP " + std::to_string(place.ep);
    return text;
}

// Column and row labels, thinned to what fits.
void DrawLabels(ImDrawList* draw, const Grid& grid, ImVec2 origin) {
    const int stageStep = std::max(1, static_cast<int>(std::ceil(56 / (grid.cellW + grid.gap))));
    for (int s = 0; s < grid.stages; s += stageStep)
        draw->AddText(ImVec2(grid.Cell(s, 0).x, origin.y + 2), IM_COL32(200, 204, 212, 255),
                      ("stage " + std::to_string(s)).c_str());
    const int replicaStep = std::max(
        1, static_cast<int>(std::ceil(ImGui::GetTextLineHeight() / (grid.cellH + grid.gap))));
    for (int r = 0; r < grid.replicas; r += replicaStep)
        draw->AddText(ImVec2(origin.x, grid.Cell(0, r).y + std::max(0.0f, grid.cellH / 2 - 7)),
                      IM_COL32(200, 204, 212, 255), ("replica " + std::to_string(r)).c_str());
}

// The figures shown: per cluster rank (-1 without one), and their range.
struct Shown {
    const std::vector<double>& values;
    double lowest, highest;
};

// The squares (or merged cells: the longest rank's colour), on the GPU; ranks outside the chosen
// group dimmed; rank ids on squares wide enough.
void DrawRanks(BoxRenderer& boxes, ImDrawList* draw, const Grid& grid,
               const ClusterDocument& document, const Shown& shown) {
    boxes.Clear();
    const double span = std::max(1e-9, shown.highest - shown.lowest);
    struct RankLabel {
        ImVec2 at;
        int rank;
        Rgba color;
    };
    std::vector<RankLabel> rankLabels;
    std::vector<double> cellWorst;
    if (grid.Merged()) cellWorst.assign(static_cast<size_t>(grid.stages * grid.replicas), -1);
    for (size_t i = 0; i < document.cluster.parallel.places.size(); ++i) {
        const RankPlace& place = document.cluster.parallel.places[i];
        if (!Placed(place) || place.pp >= grid.stages || place.dp >= grid.replicas) continue;
        if (grid.Merged()) {
            double& worst = cellWorst[static_cast<size_t>(place.dp * grid.stages + place.pp)];
            worst = std::max(worst, shown.values[i]);
            continue;
        }
        Rgba color = shown.values[i] < 0
                         ? kNoValueColor
                         : Viridis(static_cast<float>((shown.values[i] - shown.lowest) / span));
        if (!document.InGroup(RankId(place.rank)))
            color = {color.r * 0.35f, color.g * 0.35f, color.b * 0.35f, 1};
        const ImVec2 a = grid.Square(place), b = grid.SquareEnd(place);
        boxes.Add({a.x, a.y, b.x, b.y, color.r, color.g, color.b, 1, 0});
        if (grid.square >= 24) rankLabels.push_back({a, place.rank, color});
    }
    for (size_t c = 0; c < cellWorst.size(); ++c) {
        const Rgba color = cellWorst[c] < 0
                               ? kNoValueColor
                               : Viridis(static_cast<float>((cellWorst[c] - shown.lowest) / span));
        const ImVec2 a =
            grid.Cell(static_cast<int>(c) % grid.stages, static_cast<int>(c) / grid.stages);
        boxes.Add({a.x, a.y, a.x + grid.cellW, a.y + grid.cellH, color.r, color.g, color.b, 1, 0});
    }
    boxes.Submit(draw);
    // Rank ids on squares wide enough, dark on the bright end of the scale.
    for (const RankLabel& label : rankLabels) {
        const std::string text = std::to_string(label.rank);
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        if (size.x > grid.square - 4) continue;
        const bool bright =
            label.color.r * 0.3f + label.color.g * 0.6f + label.color.b * 0.1f > 0.55f;
        draw->AddText(ImVec2(label.at.x + (grid.square - size.x) / 2,
                             label.at.y + (grid.square - size.y) / 2),
                      bright ? IM_COL32(20, 20, 24, 255) : IM_COL32(235, 238, 244, 255),
                      text.c_str());
    }
}

// The groups of 'at' outlined: its TP cell, its pipeline across the stages, its DP group down
// the replicas.
void DrawOutlines(ImDrawList* draw, const Grid& grid, const ParallelLayout& layout,
                  const RankPlace& at) {
    if (!Placed(at)) return;
    for (const RankPlace& other : layout.places) {
        if (!Placed(other)) continue;
        const ImVec2 a = grid.Square(other), b = grid.SquareEnd(other);
        if (SameGroup(at, other, &RankPlace::pp))
            draw->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 2, b.y + 2), kPpOutline, 0, 0, 2);
        if (SameGroup(at, other, &RankPlace::dp))
            draw->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 2, b.y + 2), kDpOutline, 0, 0, 2);
    }
    const ImVec2 cell = grid.Cell(at.pp, at.dp);
    draw->AddRect(ImVec2(cell.x - 2, cell.y - 2),
                  ImVec2(cell.x + grid.cellW + 2, cell.y + grid.cellH + 2), kTpOutline, 0, 0, 2);
    // The rank itself over its groups' outlines.
    const ImVec2 a = grid.Square(at), b = grid.SquareEnd(at);
    draw->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 3, b.y + 3), kTpOutline, 0, 0, 3);
}

// The rank's place, its figure, and its groups' members' figures side by side.
void DrawRankTooltip(const ParallelLayout& layout, const RankPlace& at,
                     const std::vector<double>& values, const char* phase,
                     std::string (*format)(double)) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(PlaceText(at, layout).c_str());
    const size_t index = static_cast<size_t>(&at - layout.places.data());
    ImGui::Text("%s: %s", phase,
                values[index] < 0 ? "not recorded" : format(values[index]).c_str());
    // Its groups' members side by side.
    const std::pair<const char*, int RankPlace::*> dimensions[] = {
        {"TP group", &RankPlace::tp}, {"pipeline", &RankPlace::pp}, {"DP group", &RankPlace::dp}};
    for (const auto& [name, dimension] : dimensions) {
        std::string line;
        int shown = 0, members = 0;
        for (size_t i = 0; i < layout.places.size(); ++i) {
            if (!Placed(layout.places[i]) || !SameGroup(at, layout.places[i], dimension)) continue;
            if (++members > 12) continue;
            line += (shown == 0       ? ""
                     : shown % 6 == 0 ? "\n    "
                                      : "  ") +
                    std::to_string(layout.places[i].rank) + ": " +
                    (values[i] < 0 ? "-" : format(values[i]));
            ++shown;
        }
        if (members < 2) continue;
        if (members > 12) line += "  and " + std::to_string(members - 12) + " more";
        ImGui::Text("%s: %s", name, line.c_str());
    }
    ImGui::TextDisabled("click: select · double-click: open its timeline · right-click: menu");

    ImGui::EndTooltip();
}

// Click selects the rank, double-click opens its timeline, right-click its menu.
void ActOnRank(ClusterDocument& document, ClusterRequest& request, RankId rank) {
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) SelectRank(document, rank);
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && document.CanOpenRanks()) {
        request.cluster = document.id;
        request.kind = ClusterRequest::kOpenRank;
        request.rankA = rank;
        request.view = "timeline";
    }
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
        SelectRank(document, rank);
        document.selection.rankMenuAsked = true;
    }
}

}  // namespace

ParallelView::ParallelView(ClusterDocument& cluster) : m_document(cluster) {}

namespace {

// "162.0 GFLOPs" from 1.62e11 FLOPs.
std::string Giga(double value, const char* unit) {
    char text[48];
    std::snprintf(text, sizeof text, "%.1f G%s", value / 1e9, unit);
    return text;
}

// The device's figure for a resource metric (one per profile, not per step); -1 unknown.
double ResourceOf(const ClusterRank& rank, int metric) {
    switch (metric) {
        case ParallelView::kFlopsMetric:
            return rank.flops.Flops();
        case ParallelView::kFlopsPerSecondMetric:
            return rank.flops.FlopsPerSecond();
        case ParallelView::kUtilizationMetric:
            return rank.flops.UtilizationShare();
        default:
            return static_cast<double>(rank.peakMemory.bytes);
    }
}

}  // namespace

const char* ParallelView::MetricName() const {
    switch (m_column) {
        case kWaitMetric:
            return "Communication wait";
        case kFlopsMetric:
            return "FLOPs";
        case kFlopsPerSecondMetric:
            return "FLOPS";
        case kUtilizationMetric:
            return "FLOPs utilisation";
        case kPeakMemoryMetric:
            return "Peak memory";
        default:
            return StepColumnName(m_column, m_document.report.averagedSteps.layout);
    }
}

std::string (*ParallelView::FormatOf(int metric))(double) {
    switch (metric) {
        case kFlopsMetric:
            return [](double flops) { return Giga(flops, "FLOPs"); };
        case kFlopsPerSecondMetric:
            return [](double perSecond) { return Giga(perSecond, "FLOPS"); };
        case kUtilizationMetric:
            return [](double share) { return FormatPercent(share); };
        case kPeakMemoryMetric:
            return [](double bytes) { return FormatBytes(static_cast<int64_t>(bytes)); };
        default:
            return [](double ns) { return Ms(static_cast<TimeNs>(ns)); };
    }
}

void ParallelView::Refresh() {
    if (m_shownStep == m_document.selection.step && m_shownColumn == m_column) return;
    m_shownStep = m_document.selection.step, m_shownColumn = m_column;
    m_values.assign(m_document.cluster.ranks.size(), -1);
    if (IsResourceMetric(m_column)) {
        for (size_t i = 0; i < m_values.size(); ++i)
            m_values[i] = ResourceOf(m_document.cluster.ranks[i], m_column);
    } else if (m_column == kWaitMetric) {
        // Summed once: the cluster does not change after it is read.
        if (m_communication.waitNs.empty())
            m_communication = SumCommunicationByRankStep(m_document.cluster);
        const std::optional<size_t> step =
            m_shownStep ? std::optional<size_t>(static_cast<size_t>(m_shownStep->value()))
                        : std::nullopt;
        for (size_t i = 0; i < m_values.size(); ++i)
            m_values[i] = RankWaitNs(m_communication, i, step);
    } else {
        // The averaged table is the report's, made once on the loading thread; one step's is
        // made.
        StepTable oneStep;
        if (m_shownStep) oneStep = BuildStepTable(m_document.cluster, m_shownStep);
        const StepTable& table = m_shownStep ? oneStep : m_document.report.averagedSteps;
        for (size_t i = 0; i < table.rows.size() && i < m_values.size(); ++i)
            if (table.rows[i].present)
                m_values[i] = table.rows[i].ns[static_cast<size_t>(m_column)];
    }
    m_lowest = m_highest = 0;
    bool first = true;
    for (const double value : m_values) {
        if (value < 0) continue;
        m_lowest = first ? value : std::min(m_lowest, value);
        m_highest = first ? value : std::max(m_highest, value);
        first = false;
    }
    // The scale spans at least a tenth of the longest figure: differences of a fraction of a
    // percent (jitter) stay one colour, not the whole range.
    m_lowest = std::max(0.0, std::min(m_lowest, m_highest - m_highest / 10));
}

// The devices' resources over the whole profile, those some rank records: a heatmap by stage and
// replica.
void ParallelView::DrawResourceChoices() {
    for (const int metric :
         {kFlopsMetric, kFlopsPerSecondMetric, kUtilizationMetric, kPeakMemoryMetric}) {
        const bool known =
            std::any_of(m_document.cluster.ranks.begin(), m_document.cluster.ranks.end(),
                        [&](const ClusterRank& rank) { return ResourceOf(rank, metric) >= 0; });
        if (!known) continue;
        const int shown = m_column;
        m_column = metric;
        const std::string name = MetricName();
        m_column = shown;
        if (ImGui::Selectable(name.c_str(), m_column == metric)) m_column = metric;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "Over the whole profile (MindSpore's FLOPs summaries, "
                "memory_record.csv's peak allocated memory), not per step.");
    }
}

void ParallelView::BenchmarkFrame(int frame, int) {
    const size_t ranks = m_document.cluster.ranks.size();
    m_benchmarkRank = ranks ? static_cast<int>(static_cast<size_t>(frame) % ranks) : -1;
}

// The step and group pickers and the phase shown: Computing first (in a synchronous job every
// rank's step lasts as long; what differs is how much of it each computes), the step time, or any
// phase some rank's step table has.
void ParallelView::DrawControls() {
    // The phase shown: the step time, or any phase some rank's step table has.
    const StepTable& averaged = m_document.report.averagedSteps;
    // Computing first: in a synchronous job every rank's step lasts as long; what differs is
    // how much of it each computes.
    if (m_column < 0)
        m_column = averaged.hasColumn[kStepComputing] ? kStepComputing : kStepTimeColumn;
    DrawStepAndGroupPickers(m_document);
    ImGui::SameLine(0, 20);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Colour by");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(240);
    if (ImGui::BeginCombo("##metric", MetricName(), ImGuiComboFlags_HeightLarge)) {
        for (int column = 0; column < kStepColumnCount; ++column) {
            // The phases some rank spends time in (the step trace's columns).
            const bool any = std::any_of(
                averaged.rows.begin(), averaged.rows.end(),
                [&](const StepTableRow& row) { return row.ns[static_cast<size_t>(column)] > 0; });
            if (column != kStepTimeColumn &&
                (!averaged.hasColumn[static_cast<size_t>(column)] || !any))
                continue;
            if (ImGui::Selectable(StepColumnName(column, averaged.layout), column == m_column))
                m_column = column;
        }
        // The wait the ranks' communication operators record: who waits on whom.
        const bool anyCommunication =
            std::any_of(m_document.cluster.ranks.begin(), m_document.cluster.ranks.end(),
                        [](const ClusterRank& rank) { return !rank.collectives.empty(); });
        if (anyCommunication && ImGui::Selectable("Communication wait", m_column == kWaitMetric))
            m_column = kWaitMetric;
        if (anyCommunication && ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "Each rank's communication operators' wait (communication.json's "
                "Wait Time) summed over the step: a rank that waits little is the "
                "one the others wait for.");
        DrawResourceChoices();
        ImGui::EndCombo();
    }
    Refresh();
}

// The colour scale, bright the longest, and what the outlines mean.
void ParallelView::DrawLegend() {
    // The colour scale, bright the longest.
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImGui::Dummy(ImVec2(0, 4));
    ImGui::TextUnformatted(FormatOf(m_column)(m_lowest).c_str());
    ImGui::SameLine();
    const ImVec2 bar = ImGui::GetCursorScreenPos();
    for (int i = 0; i < 60; ++i) {
        const Rgba c = Viridis(static_cast<float>(i) / 59);
        draw->AddRectFilled(ImVec2(bar.x + static_cast<float>(i) * 3, bar.y + 2),
                            ImVec2(bar.x + static_cast<float>(i + 1) * 3, bar.y + 14),
                            ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1)));
    }
    ImGui::Dummy(ImVec2(184, 16));
    ImGui::SameLine();
    const std::optional<StepIndex>& step = m_document.selection.step;
    ImGui::Text(
        "%s  (%s, %s)", FormatOf(m_column)(m_highest).c_str(), MetricName(),
        IsResourceMetric(m_column) ? "over the profile"
        : step ? ("step " + m_document.cluster.steps[static_cast<size_t>(step->value())]).c_str()
               : "averaged over steps");
    ImGui::SameLine(0, 24);
    auto outlineKey = [&](ImU32 color, const char* text) {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        draw->AddRect(ImVec2(at.x, at.y + 3), ImVec2(at.x + 14, at.y + 15), color, 0, 0, 2);
        ImGui::Dummy(ImVec2(16, 16));
        ImGui::SameLine();
        ImGui::TextUnformatted(text);
        ImGui::SameLine(0, 14);
    };
    outlineKey(kTpOutline, "its TP group");
    outlineKey(kPpOutline, "its pipeline");
    outlineKey(kDpOutline, "its DP group");
    ImGui::NewLine();
}

void ParallelView::Draw(ViewContext& context) {
    ClusterDocument& document = m_document;
    const ParallelLayout& layout = document.cluster.parallel;
    if (!layout.Known()) {
        ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x);
        ImGui::TextUnformatted(
            "No parallel layout: no rank has a profiler_metadata.json (or database META_DATA) with "
            "distributed_args or parallel_group_info, a trace's distributedInfo with its process "
            "groups, MindInsight's pipeline-parallel files or msprof-analyze's named groups, and "
            "no communication groups split the job evenly.");
        ImGui::PopTextWrapPos();
        return;
    }
    // Wrapped: where the layout comes from can be longer than a narrow window.
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(("Layout: " + ParallelLayoutText(layout)).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.8f, 0.4f, 1));
    for (const std::string& note : layout.notes) ImGui::TextUnformatted(note.c_str());
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    DrawControls();
    DrawLegend();
    // Sizes a damaged file made huge would make millions of empty cells: said, not drawn.
    const int64_t cells = int64_t{std::max(1, layout.sizes.pp)} * std::max(1, layout.sizes.dp);
    const int64_t perCell = int64_t{std::max(1, layout.sizes.tp)} * std::max(1, layout.sizes.cp);
    if (cells > kMostCells || perCell > kMostRanksInCell) {
        ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1),
                           "The layout's sizes (%s) make %lld cells of %lld ranks: too many to "
                           "draw; see the notes above.",
                           layout.SizesText().c_str(), static_cast<long long>(cells),
                           static_cast<long long>(perCell));
        return;
    }
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 room(ImGui::GetContentRegionAvail().x,
                      std::max(200.0f, ImGui::GetContentRegionAvail().y - 70));
    const Grid grid = Fit(layout, origin, room);
    ImGui::InvisibleButton("##layout", ImVec2(room.x, kHeaderHeight + grid.Height() + 4));
    const bool hovered = ImGui::IsItemHovered();
    int under = hovered ? RankAt(grid, layout, m_values, ImGui::GetIO().MousePos) : -1;
    if (m_benchmarkRank >= 0) under = m_benchmarkRank;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    DrawLabels(draw, grid, origin);
    DrawRanks(context.boxes, draw, grid, document, Shown{m_values, m_lowest, m_highest});
    // The groups of the rank under the mouse, else of the selected one.
    const std::optional<size_t> focus = under >= 0
                                            ? std::optional<size_t>(static_cast<size_t>(under))
                                            : document.SelectedRankIndex();
    if (focus) DrawOutlines(draw, grid, layout, layout.places[*focus]);
    if (under >= 0 && m_benchmarkRank < 0) {
        const RankPlace& at = layout.places[static_cast<size_t>(under)];
        DrawRankTooltip(layout, at, m_values, MetricName(), FormatOf(m_column));
        ActOnRank(document, context.clusterRequest, RankId(at.rank));
    }
    DrawRankMenu(document, context.clusterRequest);

    size_t unplaced = 0;
    for (const RankPlace& place : layout.places) unplaced += !Placed(place);
    if (unplaced > 0)
        ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1),
                           "%zu ranks have no place in the layout (the groups read do not place "
                           "them): see the notes above",
                           unplaced);
    if (grid.Merged())
        ImGui::TextDisabled(
            "Each cell is one box at this size: the colour of its longest rank. "
            "Widen the window to see every rank.");
    DrawSelectedRankActions(document, context.clusterRequest);
}

}  // namespace marey

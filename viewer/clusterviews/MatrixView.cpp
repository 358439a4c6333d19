// The communication matrix: source ranks down, destination ranks across, each link a cell
// coloured by bandwidth, transit size, transit time or transport type. Cells go to the GPU as
// instances (BoxRenderer); zoomed out, a cell stands for a block of links (its slowest bandwidth,
// or largest size or time), so a 1024 × 1024 matrix draws as fast as a small one. Wheel zooms at
// the mouse, drag pans, double-click shows the whole matrix.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "clusterviews/ClusterCommon.hpp"
#include "clusterviews/MatrixView.hpp"
#include "cluster/ClusterSource.hpp"
#include "viewkit/ViewCommon.hpp"
#include "viewkit/ViewContext.hpp"
#include "render/BoxRenderer.hpp"

namespace marey {
namespace {

constexpr float kSidePanelWidth = 330;
constexpr float kLeftLabels = 44, kTopLabels = 22;
constexpr double kMinBlockPx = 3;                       // a drawn cell is never smaller than this
constexpr Rgba kTooSmallColor{0.34f, 0.35f, 0.38f, 1};  // a link too small to judge, hatched

const char* const kMetricNames[] = {"Bandwidth (GB/s)", "Transit size (MB)", "Transit time (ms)",
                                    "Transport type"};

Rgba TransportColor(int index) {
    static const Rgba colors[kTransportCount] = {{0.30f, 0.60f, 0.95f, 1}, {0.40f, 0.78f, 0.40f, 1},
                                                 {0.96f, 0.60f, 0.22f, 1}, {0.25f, 0.78f, 0.75f, 1},
                                                 {0.90f, 0.45f, 0.70f, 1}, {0.55f, 0.55f, 0.58f, 1},
                                                 {0.80f, 0.80f, 0.45f, 1}};
    return colors[std::clamp(index, 0, kTransportCount - 1)];
}

// Where a value lies between the grid's smallest and largest, on a log scale (links span
// several orders of magnitude: LOCAL copies at hundreds of GB/s, RDMA at tens).
float Normalised(const MatrixGrid& grid, float value) {
    const float lo = grid.MinValue(), hi = grid.MaxValue();
    if (hi <= lo) return 1;
    value = std::clamp(value, lo, hi);
    if (lo > 0) return (std::log(value) - std::log(lo)) / (std::log(hi) - std::log(lo));
    return (value - lo) / (hi - lo);
}

Rgba CellColor(const MatrixGrid& grid, float value, uint8_t transport) {
    if (grid.metric() == MatrixMetric::kTransport) return TransportColor(transport);
    return Viridis(Normalised(grid, value));
}

std::string ValueText(MatrixMetric metric, double value) {
    char text[48];
    switch (metric) {
        case MatrixMetric::kBandwidth:
            std::snprintf(text, sizeof text, "%.2f GB/s", value);
            break;
        case MatrixMetric::kSize:
            std::snprintf(text, sizeof text, "%.2f MB", value);
            break;
        case MatrixMetric::kTime:
            std::snprintf(text, sizeof text, "%.3f ms", value);
            break;
        case MatrixMetric::kTransport:
            return kTransportNames[std::clamp(static_cast<int>(value), 0, kTransportCount - 1)];
    }
    return text;
}

// The link (source, destination) among 'cells' (sorted), or null.
const MatrixCell* FindCell(const std::vector<MatrixCell>& cells, int src, int dst) {
    const auto it = std::lower_bound(cells.begin(), cells.end(), std::make_pair(src, dst),
                                     [](const MatrixCell& cell, const std::pair<int, int>& key) {
                                         return std::make_pair(cell.srcRank, cell.dstRank) < key;
                                     });
    return it != cells.end() && it->srcRank == src && it->dstRank == dst ? &*it : nullptr;
}

struct MatrixLayout {
    ImVec2 origin;   // top-left of the plot
    float size = 0;  // the plot is a square
    double cellPx = 1;
    double firstX = 0,
           firstY = 0;  // the (fractional) rank indexes at the plot's left and top edges

    float X(double index) const { return origin.x + static_cast<float>((index - firstX) * cellPx); }
    float Y(double index) const { return origin.y + static_cast<float>((index - firstY) * cellPx); }
    // The index range shown along one axis.
    int First(double firstIndex) const {
        return std::max(0, static_cast<int>(std::floor(firstIndex)));
    }
    int Last(double firstIndex, int count) const {
        return std::min(count - 1, static_cast<int>(std::ceil(firstIndex + size / cellPx)));
    }
};

MatrixLayout Layout(const MatrixSettings& views, int dim, ImVec2 origin, float size) {
    MatrixLayout layout;
    layout.origin = origin, layout.size = size;
    layout.cellPx = static_cast<double>(size) / std::max(1, dim) * views.zoom;
    layout.firstX = views.centerX * dim - size / 2 / layout.cellPx;
    layout.firstY = views.centerY * dim - size / 2 / layout.cellPx;
    return layout;
}

void Navigate(MatrixSettings& views, const MatrixLayout& layout, int dim, bool hovered) {
    const ImGuiIO& io = ImGui::GetIO();
    if (!hovered || dim == 0) return;
    auto clampCenter = [&] {
        views.zoom = std::clamp(views.zoom, 1.0, std::max(1.0, dim / 4.0));
        const double half = 0.5 / views.zoom;
        views.centerX = std::clamp(views.centerX, half, 1 - half);
        views.centerY = std::clamp(views.centerY, half, 1 - half);
    };
    if (io.MouseWheel != 0) {
        // Zoom at the mouse: the index under it stays under it.
        const double underX = layout.firstX + (io.MousePos.x - layout.origin.x) / layout.cellPx;
        const double underY = layout.firstY + (io.MousePos.y - layout.origin.y) / layout.cellPx;
        views.zoom *= std::pow(1.25, io.MouseWheel);
        clampCenter();
        const double cellPx = static_cast<double>(layout.size) / dim * views.zoom;
        views.centerX =
            (underX - (io.MousePos.x - layout.origin.x) / cellPx + layout.size / 2 / cellPx) / dim;
        views.centerY =
            (underY - (io.MousePos.y - layout.origin.y) / cellPx + layout.size / 2 / cellPx) / dim;
        clampCenter();
    }
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2)) {
        const ImVec2 delta = io.MouseDelta;
        views.centerX -= delta.x / layout.cellPx / dim;
        views.centerY -= delta.y / layout.cellPx / dim;
        clampCenter();
    }
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
        views.zoom = 1, views.centerX = views.centerY = 0.5, views.pendingRank.reset(),
        clampCenter();
    if (!io.WantTextInput) {
        if (ImGui::IsKeyDown(GLFW_KEY_W)) views.zoom *= 1.04, clampCenter();
        if (ImGui::IsKeyDown(GLFW_KEY_S)) views.zoom /= 1.04, clampCenter();
        if (ImGui::IsKeyDown(GLFW_KEY_A)) views.centerX -= 0.01 / views.zoom, clampCenter();
        if (ImGui::IsKeyDown(GLFW_KEY_D)) views.centerX += 0.01 / views.zoom, clampCenter();
        if (ImGui::IsKeyDown(GLFW_KEY_UP)) views.centerY -= 0.01 / views.zoom, clampCenter();
        if (ImGui::IsKeyDown(GLFW_KEY_DOWN)) views.centerY += 0.01 / views.zoom, clampCenter();
    }
}

void DrawLabels(ImDrawList* draw, const MatrixLayout& layout, const MatrixGrid& grid) {
    const std::vector<int>& ids = grid.RankIds();
    const float widest =
        ImGui::CalcTextSize(std::to_string(ids.empty() ? 0 : ids.back()).c_str()).x;
    // Labels every 1, 2, 5, 10, 20, … ranks: as dense as they fit without touching.
    int every = 1;
    for (int power = 1; layout.cellPx * every < widest + 8 && power < 1 << 24; power *= 10)
        for (const int factor : {1, 2, 5})
            if (layout.cellPx * (every = factor * power) >= widest + 8) break;
    const int count = static_cast<int>(ids.size());
    const ImU32 color = IM_COL32(165, 170, 180, 255);
    const float center = static_cast<float>(layout.cellPx / 2);
    // Destinations along the top, sources down the left, each over the part of its axis shown.
    for (int i = layout.First(layout.firstX) / every * every;
         i <= layout.Last(layout.firstX, count); i += every) {
        if (i < layout.First(layout.firstX)) continue;
        const std::string label = std::to_string(ids[i]);
        const float w = ImGui::CalcTextSize(label.c_str()).x;
        draw->AddText(ImVec2(layout.X(i) + center - w / 2, layout.origin.y - kTopLabels + 3), color,
                      label.c_str());
    }
    for (int i = layout.First(layout.firstY) / every * every;
         i <= layout.Last(layout.firstY, count); i += every) {
        if (i < layout.First(layout.firstY)) continue;
        const std::string label = std::to_string(ids[i]);
        const float w = ImGui::CalcTextSize(label.c_str()).x;
        draw->AddText(ImVec2(layout.origin.x - w - 6, layout.Y(i) + center - 7), color,
                      label.c_str());
    }
}

// Diagonal lines over each cell at 'corners' ('sizePx' wide): a link too small to judge.
void DrawHatches(ImDrawList* draw, const std::vector<ImVec2>& corners, float sizePx) {
    const float step = std::max(4.0f, sizePx / 4);
    for (const ImVec2& c : corners) {
        draw->PushClipRect(c, ImVec2(c.x + sizePx, c.y + sizePx), true);
        for (float d = step; d < 2 * sizePx; d += step)
            draw->AddLine(ImVec2(c.x + d, c.y), ImVec2(c.x, c.y + d), IM_COL32(150, 154, 162, 255));
        draw->PopClipRect();
    }
}

void DrawCells(ViewContext& context, ClusterDocument& document, const MatrixCache& cache,
               const MatrixLayout& layout) {
    const MatrixGrid& grid = cache.grid;
    const MatrixGrid::Level& level = grid.LevelFor(layout.cellPx, kMinBlockPx);
    std::vector<bool> inGroup(grid.RankIds().size());
    for (size_t i = 0; i < inGroup.size(); ++i)
        inGroup[i] = document.InGroup(RankId(grid.RankIds()[i]));
    const double blockPx = layout.cellPx * level.block;
    const int firstX = std::max(0, static_cast<int>(std::floor(layout.firstX / level.block)));
    const int lastX = std::min(
        level.dim - 1,
        static_cast<int>(std::ceil((layout.firstX + layout.size / layout.cellPx) / level.block)));
    const int firstY = std::max(0, static_cast<int>(std::floor(layout.firstY / level.block)));
    const int lastY = std::min(
        level.dim - 1,
        static_cast<int>(std::ceil((layout.firstY + layout.size / layout.cellPx) / level.block)));
    BoxRenderer& boxes = context.boxes;
    boxes.Clear();
    std::vector<ImVec2> hatched;  // cells too small to judge: grey, hatched over the boxes
    for (int y = firstY; y <= lastY; ++y) {
        for (int x = firstX; x <= lastX; ++x) {
            const size_t at = static_cast<size_t>(y) * level.dim + x;
            const float value = level.value[at];
            if (std::isnan(value)) continue;
            Rgba color = CellColor(grid, value, level.transport[at]);
            const float x0 = layout.X(static_cast<double>(x) * level.block),
                        y0 = layout.Y(static_cast<double>(y) * level.block);
            if (!level.unjudged.empty() && level.unjudged[at]) {
                color = kTooSmallColor;
                if (blockPx >= 6) hatched.emplace_back(x0, y0);
            }
            if (!inGroup[static_cast<size_t>(y) * level.block] ||
                !inGroup[static_cast<size_t>(x) * level.block])
                color = {0.24f, 0.25f, 0.27f, 1};
            boxes.Add({x0, y0, x0 + static_cast<float>(blockPx), y0 + static_cast<float>(blockPx),
                       color.r, color.g, color.b, color.a, 0});
        }
    }
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(layout.origin,
                       ImVec2(layout.origin.x + layout.size, layout.origin.y + layout.size), true);
    draw->AddRectFilled(layout.origin,
                        ImVec2(layout.origin.x + layout.size, layout.origin.y + layout.size),
                        IM_COL32(22, 24, 28, 255));
    boxes.Submit(draw);
    DrawHatches(draw, hatched, static_cast<float>(blockPx));
    // Slow links: a red frame at any zoom, at least a few pixels wide, so that one cell among a
    // million is still found.
    for (const SlowLink& slow : cache.slow) {
        const int src = grid.IndexOf(slow.srcRank), dst = grid.IndexOf(slow.dstRank);
        if (src < 0 || dst < 0) continue;
        const float cx = layout.X(dst + 0.5), cy = layout.Y(src + 0.5);
        const float half = std::max(6.0f, static_cast<float>(layout.cellPx / 2) + 2);
        draw->AddRect(ImVec2(cx - half, cy - half), ImVec2(cx + half, cy + half),
                      IM_COL32(255, 70, 60, 255), 0, 0, 2.5f);
    }
    const int selected =
        document.selection.rank ? grid.IndexOf(document.selection.rank->value()) : -1;
    if (selected >= 0) {
        const ImU32 line = IM_COL32(255, 255, 255, 90);
        draw->AddRect(ImVec2(layout.origin.x, layout.Y(selected)),
                      ImVec2(layout.origin.x + layout.size, layout.Y(selected + 1)), line);
        draw->AddRect(ImVec2(layout.X(selected), layout.origin.y),
                      ImVec2(layout.X(selected + 1), layout.origin.y + layout.size), line);
    }
    draw->PopClipRect();
}

void DrawHover(ClusterDocument& document, MatrixSettings& views, const MatrixCache& cache,
               const MatrixLayout& layout) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const int dim = cache.grid.Dim();
    const int x =
        static_cast<int>(std::floor(layout.firstX + (mouse.x - layout.origin.x) / layout.cellPx));
    const int y =
        static_cast<int>(std::floor(layout.firstY + (mouse.y - layout.origin.y) / layout.cellPx));
    if (x < 0 || y < 0 || x >= dim || y >= dim) return;
    const int src = cache.grid.RankIds()[y], dst = cache.grid.RankIds()[x];
    ImGui::BeginTooltip();
    ImGui::Text("rank %d → rank %d", src, dst);
    if (const MatrixCell* cell = FindCell(*cache.cells, src, dst)) {
        ImGui::Text("transport   %s", cell->transport.c_str());
        ImGui::Text("size        %.3f MB", cell->transitSizeMb);
        ImGui::Text("time        %.3f ms", static_cast<double>(cell->transitNs) / 1e6);
        ImGui::Text("bandwidth   %.2f GB/s", cell->BandwidthGBps());
        const MatrixGrid::Level& base = cache.grid.LevelFor(1e9, 1);
        const size_t at = static_cast<size_t>(y) * dim + static_cast<size_t>(x);
        if (at < base.unjudged.size() && base.unjudged[at])
            ImGui::TextDisabled(
                "too small to judge: under %.3f MB or half the median size of %s links",
                kMinJudgedSizeMb, cell->transport.c_str());
        for (const SlowLink& slow : cache.slow)
            if (slow.srcRank == src && slow.dstRank == dst)
                ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1),
                                   "slow: %.0f %% of the median %.2f GB/s of %s links",
                                   100 * slow.bandwidthGBps / slow.medianGBps, slow.medianGBps,
                                   slow.transport.c_str());
        if (!document.InGroup(RankId(src)) || !document.InGroup(RankId(dst)))
            ImGui::TextDisabled("outside the chosen group");
    } else {
        ImGui::TextDisabled("no link");
    }
    ImGui::TextDisabled("click: select rank %d%s · wheel: zoom · drag: pan", src,
                        document.CanOpenRanks() ? " · right-click: open or compare" : "");
    ImGui::EndTooltip();
    // A click selects once no second click can follow: a double-click shows the whole matrix
    // and selects nothing.
    const ImGuiIO& io = ImGui::GetIO();
    if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && io.MouseDragMaxDistanceSqr[0] < 16 &&
        io.MouseClickedLastCount[0] == 1)
        views.pendingRank = src, views.pendingAt = ImGui::GetTime();
    RankRightClick(document, RankId(src));
}

void DrawSidePanel(ClusterDocument& document, MatrixSettings& views, const MatrixCache& cache,
                   double cellPx) {
    ImGui::PushTextWrapPos(0);  // every note wraps in a narrow panel
    ImGui::TextDisabled("Rows: source rank; columns: destination rank; summed over every step.");
    SectionTitle("Colour");
    for (int metric = 0; metric < 4; ++metric)
        ImGui::RadioButton(kMetricNames[metric], &views.metric, metric);
    ImGui::Spacing();
    ImGui::TextUnformatted("Operator");
    ImGui::SetNextItemWidth(-1);
    const std::string current =
        !views.op ? "all operators, summed"
                  : document.report.matrixOperators[static_cast<size_t>(*views.op)];
    if (ImGui::BeginCombo("##operator", current.c_str())) {
        if (ImGui::Selectable("all operators, summed", !views.op)) views.op.reset();
        for (size_t i = 0; i < document.report.matrixOperators.size(); ++i)
            if (ImGui::Selectable(document.report.matrixOperators[i].c_str(),
                                  views.op == static_cast<int>(i)))
                views.op = static_cast<int>(i);
        ImGui::EndCombo();
    }
    ImGui::Spacing();
    const MatrixGrid& grid = cache.grid;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    if (grid.metric() == MatrixMetric::kTransport) {
        for (int i = 0; i < kTransportCount - 1; ++i) {
            const ImVec2 at = ImGui::GetCursorScreenPos();
            draw->AddRectFilled(ImVec2(at.x, at.y + 2), ImVec2(at.x + 14, at.y + 14),
                                PackColor(TransportColor(i)));
            ImGui::Dummy(ImVec2(18, 14));
            ImGui::SameLine();
            ImGui::TextUnformatted(kTransportNames[i]);
        }
    } else {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float width = ImGui::GetContentRegionAvail().x - 8;
        for (int i = 0; i < 64; ++i) {
            const float x0 = at.x + width * static_cast<float>(i) / 64,
                        x1 = at.x + width * static_cast<float>(i + 1) / 64 + 1;
            draw->AddRectFilled(ImVec2(x0, at.y), ImVec2(x1, at.y + 14),
                                PackColor(Viridis(static_cast<float>(i) / 63)));
        }
        ImGui::Dummy(ImVec2(width, 16));
        const MatrixMetric metric = grid.metric();
        const std::string lo = ValueText(metric, grid.MinValue()),
                          hi = ValueText(metric, grid.MaxValue());
        ImGui::TextUnformatted(lo.c_str());
        ImGui::SameLine(width - ImGui::CalcTextSize(hi.c_str()).x);
        ImGui::TextUnformatted(hi.c_str());
        ImGui::TextDisabled("log scale over the links between ranks%s; grey: outside the group",
                            metric == MatrixMetric::kBandwidth ? ", dark = slow" : "");
        if (metric == MatrixMetric::kBandwidth)
            ImGui::TextDisabled(
                "hatched: too little carried to judge (under %.3f MB or half "
                "the median size of its transport)",
                kMinJudgedSizeMb);
        const MatrixGrid::Level& level = grid.LevelFor(cellPx, kMinBlockPx);
        if (level.block > 1)
            ImGui::TextDisabled("zoomed out: a cell shows %s of %d × %d links",
                                metric == MatrixMetric::kBandwidth ? "the slowest" : "the largest",
                                level.block, level.block);
    }
    ImGui::Spacing();
    SectionTitle("Slow links");
    if (cache.slow.empty()) ImGui::TextColored(ImVec4(0.55f, 0.85f, 0.55f, 1), "none");
    ImGui::TextDisabled(
        "under %.0f %% of the median bandwidth of links of the same transport that carried a "
        "comparable size",
        kSlowLinkRatio * 100);
    for (size_t i = 0; i < cache.slow.size() && i < 12; ++i) {
        const SlowLink& slow = cache.slow[i];
        ImGui::PushID(static_cast<int>(i));
        char label[160];
        std::snprintf(label, sizeof label, "%d → %d  %s  %.2f GB/s (median %.2f)", slow.srcRank,
                      slow.dstRank, slow.transport.c_str(), slow.bandwidthGBps, slow.medianGBps);
        if (ImGui::Selectable(label)) {
            // Zoom in on it.
            const int dim = grid.Dim();
            views.zoom = std::max(views.zoom, std::min(dim / 4.0, 8.0));
            views.centerX = (grid.IndexOf(slow.dstRank) + 0.5) / std::max(1, dim);
            views.centerY = (grid.IndexOf(slow.srcRank) + 0.5) / std::max(1, dim);
            SelectRank(document, RankId(slow.srcRank));
        }
        ImGui::PopID();
    }
    ImGui::Spacing();
    SectionTitle("Reading the matrix");
    ImGui::TextDisabled(
        "1. Transit size first: does any card send more or less than its peers (work divided "
        "unevenly)?");
    ImGui::TextDisabled(
        "2. Then transit time: a card with a very short time was likely busy elsewhere, and its "
        "peers waited for it.");
    ImGui::TextDisabled(
        "3. Then bandwidth: a spread between links of one transport, or an abnormal value, points "
        "at a bad link or card. "
        "A slow link is one dark cell in a bright row and column; a slow card, a dark row or "
        "column.");
    ImGui::PopTextWrapPos();
}

}  // namespace

MatrixView::MatrixView(ClusterDocument& cluster) : m_document(cluster) {}

MatrixView::~MatrixView() = default;

void MatrixView::Update() {
    if (auto built = m_job.TakeResult()) m_cache = std::move(*built);
}

const MatrixCache* MatrixView::Shown() {
    Update();
    const ClusterReport& report = m_document.report;
    std::optional<int> op = m_settings.op;
    if (op && (*op < 0 || *op >= static_cast<int>(report.matrixOperators.size()))) op.reset();
    const int metric = m_settings.metric;
    const MatrixKey key{metric, op};
    if (m_requested == key) return m_cache.get();
    m_requested = key;
    // The links of all operators are the report's own; another operator's are built once and
    // kept while only the metric changes.
    std::shared_ptr<const std::vector<MatrixCell>> cells;
    if (!op)
        cells = std::shared_ptr<const std::vector<MatrixCell>>(
            &report.matrix, [](const std::vector<MatrixCell>*) {});
    else if (m_cache && m_cache->key.op == op)
        cells = m_cache->cells;
    std::vector<int> rankIds;
    for (const ClusterRank& rank : m_document.cluster.ranks) rankIds.push_back(rank.Id().value());
    const std::string opName =
        !op ? std::string() : report.matrixOperators[static_cast<size_t>(*op)];
    const Cluster* source = &m_document.cluster;
    const std::vector<SlowLink>* allSlow = &report.slowLinks;
    m_job.Request([=]() {
        auto cache = std::make_unique<MatrixCache>();
        cache->key = key;
        cache->cells =
            cells ? cells
                  : std::make_shared<const std::vector<MatrixCell>>(BuildMatrix(*source, opName));
        cache->slow = !op ? *allSlow : FindSlowLinks(*cache->cells);
        cache->grid.Build(*cache->cells, rankIds, static_cast<MatrixMetric>(metric));
        return cache;
    });
    return m_cache.get();
}

void MatrixView::Wait() {
    Shown();
    if (auto built = m_job.Wait()) m_cache = std::move(*built);
}

void MatrixView::BenchmarkFrame(int frame, int frameCount) {
    m_settings.zoom = std::pow(1.1, frame);
    m_settings.centerX = m_settings.centerY = 0.5 + 0.4 * static_cast<double>(frame) / frameCount;
    if (frame == frameCount / 2) m_settings.metric = 2;
}

void MatrixView::Draw(ViewContext& context) {
    ClusterDocument& document = m_document;
    DrawStepAndGroupPickers(document, false);
    const MatrixCache* shown = Shown();
    if (!shown) {
        ImGui::TextDisabled("Building the matrix…");
        return;
    }
    const MatrixCache& cache = *shown;
    if (cache.grid.Dim() == 0) {
        DrawNoClusterData(document, kCommunicationMatrixFile, "The communication matrix");
        return;
    }
    // Ranks read from their traces have collectives but no bytes per link: an empty grid, a
    // scale of 0.00 GB/s and "Slow links: none" would say the links were measured and fine.
    if (cache.cells && cache.cells->empty()) {
        ImGui::PushTextWrapPos(0);
        if (RanksAreTraces(document.cluster.source))
            ImGui::TextDisabled(
                "No link data: these ranks were read from their traces (%s), which record each "
                "collective but not the bytes each link carried; an Ascend rank folder's %s "
                "gives them. The Communication across ranks view shows each collective's time.",
                ClusterSourceName(document.cluster.source), kCommunicationMatrixFile.fileName);
        else
            ImGui::TextDisabled("No link carried data in the step and operator chosen.");
        ImGui::PopTextWrapPos();
        return;
    }
    if (Busy()) {
        ImGui::SameLine(0, 20);
        ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1), "updating…");
    }
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float size = std::max(
        120.0f, std::min(avail.x - kSidePanelWidth - kLeftLabels - 16, avail.y - kTopLabels - 8));
    const ImVec2 origin(start.x + kLeftLabels, start.y + kTopLabels);
    ImGui::SetCursorScreenPos(origin);
    ImGui::InvisibleButton("matrix", ImVec2(size, size));
    const bool hovered = ImGui::IsItemHovered();
    const int dim = cache.grid.Dim();
    Navigate(m_settings, Layout(m_settings, dim, origin, size), dim,
             hovered || ImGui::IsItemActive());
    const MatrixLayout layout = Layout(m_settings, dim, origin, size);
    DrawCells(context, document, cache, layout);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->PushClipRect(ImVec2(start.x, start.y), ImVec2(origin.x + size, origin.y + size), true);
    DrawLabels(draw, layout, cache.grid);
    draw->PopClipRect();
    if (hovered) DrawHover(document, m_settings, cache, layout);
    if (m_settings.pendingRank &&
        ImGui::GetTime() - m_settings.pendingAt > ImGui::GetIO().MouseDoubleClickTime)
        SelectRank(document, RankId(*std::exchange(m_settings.pendingRank, std::nullopt)));
    DrawRankMenu(document, context.clusterRequest);
    ImGui::SetCursorScreenPos(ImVec2(origin.x + size + 16, start.y));
    ImGui::BeginChild("matrix side", ImVec2(0, avail.y), false);
    DrawSidePanel(document, m_settings, cache, layout.cellPx);
    ImGui::EndChild();
}

}  // namespace marey

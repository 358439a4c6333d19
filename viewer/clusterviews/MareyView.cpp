// The Marey view: devices down the side in pipeline order, time across from each device's first
// operator of the step, each operator a bar on its device's row and a band to the same operator
// on the row below (seed 000, Figures 4-6). Parallel bands: healthy; one band wide on every
// device: that operator is slow; bands that bend at one device: that device is slow. Bars and
// bands are GPU instances written once per step and layout (MareyRenderer); a frame sets the
// view and draws them in one call.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <thread>
#include <unordered_map>

#include "clusterviews/ClusterCommon.hpp"
#include "core/TextFormat.hpp"
#include "rank/TraceSummary.hpp"
#include "timeline/KeyMotion.hpp"
#include "timeline/RulerTicks.hpp"
#include "viewkit/ViewCommon.hpp"
#include "clusterviews/MareyView.hpp"
#include "viewkit/ViewContext.hpp"

// [SECTION] Colours, the devices shown, layout

namespace marey {
namespace {

constexpr size_t kMostDevices = 256;
constexpr float kGutter = 250, kRuler = 24, kMemoryChart = 90;
// The gutter's blocks, right to left: PeakMem (48 px wide, 58 from the gutter's end), FLOPS and
// FLOPs (40 px each, their titles' width).
constexpr float kFlopsBlock = 40, kFlopsRateX = kGutter - 104, kFlopsX = kGutter - 150;
constexpr double kMinWindowNs = 50000;
constexpr uint64_t kMostCachedRows =
    8000000;  // about 300 MB of tables kept between steps at most  // times are floats on the GPU:
              // 50 µs across keeps them exact to the pixel

Rgba ClassColor(CoreClass coreClass) {
    switch (coreClass) {
        case CoreClass::kAiCore:
        case CoreClass::kGpu:
            return {0.30f, 0.72f, 0.36f, 1};
        case CoreClass::kCommunication:
            return {0.96f, 0.60f, 0.22f, 1};
        case CoreClass::kAiCpu:
            return {0.62f, 0.45f, 0.85f, 1};
        default:
            return {0.60f, 0.62f, 0.66f, 1};
    }
}

// Builds the steps shown from the tables of the load before when they cover the same devices,
// else reads the devices' files; keeps the tables for the next step unless they are large.
std::shared_ptr<MareyLoad> Load(const Cluster* cluster, const std::vector<RankId>& rankIds,
                                const std::vector<std::string>& steps,
                                std::shared_ptr<const MareyTables> cached) {
    auto load = std::make_shared<MareyLoad>();
    load->steps = steps;
    load->rankIds = rankIds;
    if (!cached || cached->rankIds != rankIds)
        cached = std::make_shared<const MareyTables>(
            LoadMareyTables(*cluster, rankIds, std::max(1u, std::thread::hardware_concurrency())));
    load->marey = BuildMareyStep(*cached, steps);
    if (cached->rows <= kMostCachedRows) load->tables = cached;
    for (const MareyDevice& device : load->marey.devices) {
        const std::optional<size_t> index = cluster->IndexOfRank(device.rankId);
        load->memory.push_back(!index ? MareyMemory()
                                      : LoadMareyMemory(cluster->ranks[*index].path,
                                                        device.stepStartNs, load->marey.spanNs));
    }
    for (const MareyDevice& device : load->marey.devices)
        load->runningEnds.push_back(MareyRunningEnds(device));
    load->slants = DeviceSlants(load->marey);
    load->matches = CountMatches(load->marey);
    load->instances = MareyInstances(load->marey, MareyRows(load->marey, {}));
    return load;
}

// The devices shown: the cluster's pipeline order, restricted to the chosen group.
std::vector<RankId> ShownRanks(const ClusterDocument& document) {
    std::vector<RankId> ranks;
    for (const RankId rank : MareyDeviceOrder(document.cluster))
        if (document.InGroup(rank) && ranks.size() < kMostDevices) ranks.push_back(rank);
    return ranks;
}

// Stages: the cluster's stage groups among the shown devices, else runs of 'devicesPerStage'.
std::vector<std::vector<size_t>> Stages(const ClusterDocument& document, const MareyStep& step,
                                        int devicesPerStage) {
    std::vector<std::vector<size_t>> stages;
    if (devicesPerStage <= 0) {
        for (const ClusterGroup& group : document.cluster.groups) {
            if (group.kind != "stage" && group.kind != "p2p") continue;
            std::vector<size_t> members;
            for (size_t d = 0; d < step.devices.size(); ++d)
                if (std::binary_search(group.ranks.begin(), group.ranks.end(),
                                       step.devices[d].rankId.value()))
                    members.push_back(d);
            if (members.size() > 1) stages.push_back(members);
        }
        return stages;
    }
    for (size_t d = 0; d < step.devices.size(); d += static_cast<size_t>(devicesPerStage)) {
        std::vector<size_t> members;
        for (size_t m = d;
             m < std::min(step.devices.size(), d + static_cast<size_t>(devicesPerStage)); ++m)
            members.push_back(m);
        if (members.size() > 1) stages.push_back(members);
    }
    return stages;
}

void Relayout(MareyState& state) {
    const MareyStep& step = state.load->marey;
    std::vector<std::vector<size_t>> collapsed;
    for (size_t s = 0; s < state.stages.size(); ++s)
        if (state.collapsed[s]) collapsed.push_back(state.stages[s]);
    state.rows = MareyRows(step, collapsed);
    ++state.layoutVersion;
}

}  // namespace

// Shows a finished load: the whole span, every device its own row.
void TakeLoad(const ClusterDocument& document, MareyState& state,
              std::shared_ptr<MareyLoad> loaded) {
    state.load = std::move(loaded);
    state.viewStartNs = 0,
    state.viewEndNs = static_cast<double>(std::max<TimeNs>(state.load->marey.spanNs, 1000));
    state.stages = Stages(document, state.load->marey, state.devicesPerStage);
    state.collapsed.assign(state.stages.size(), false);
    state.rows = MareyRows(state.load->marey, {});
    ++state.layoutVersion;
    state.selectedDevice = -1;
    std::map<RankId, const ClusterRank*> withFlops;
    state.mostMflops = state.mostGflopsPerS = 0;
    for (const ClusterRank& rank : document.cluster.ranks) {
        if (rank.flopsSource.empty()) continue;
        withFlops[rank.Id()] = &rank;
        state.mostMflops = std::max(state.mostMflops, rank.flops.mflops);
        state.mostGflopsPerS = std::max(state.mostGflopsPerS, rank.flops.gflopsPerS);
    }
    state.flopsRank.clear();
    for (const MareyDevice& device : state.load->marey.devices) {
        const auto found = withFlops.find(device.rankId);
        state.flopsRank.push_back(found != withFlops.end() ? found->second : nullptr);
    }
}

// [SECTION] Loading a step, navigation, the tooltip, the ruler and memory

namespace {

// Takes a finished load in and starts one when the step or the devices shown changed.
void Refresh(ClusterDocument& document, MareyState& state) {
    if (auto loaded = state.job.TakeResult()) TakeLoad(document, state, std::move(*loaded));
    const std::vector<std::string>& all = document.cluster.steps;
    if (all.empty()) return;
    const size_t first = static_cast<size_t>(std::max(0, ValueOr(document.selection.step, 0)));
    std::vector<std::string> steps;
    for (size_t i = first;
         i < all.size() && steps.size() < static_cast<size_t>(std::max(1, state.stepsShown)); ++i)
        steps.push_back(all[i]);
    const std::vector<RankId> ranks = ShownRanks(document);
    if (steps == state.requestedSteps && ranks == state.requestedRanks) return;
    state.requestedSteps = steps;
    state.requestedRanks = ranks;
    const Cluster* cluster = &document.cluster;
    std::shared_ptr<const MareyTables> cached = state.load ? state.load->tables : nullptr;
    state.job.Request(
        [cluster, ranks, steps, cached] { return Load(cluster, ranks, steps, cached); });
}

struct Plot {
    ImVec2 origin;  // top-left of the first row
    float width = 0, rowPx = 0, barPx = 0;
    double startNs = 0, nsPerPx = 1;
    float X(double ns) const { return origin.x + static_cast<float>((ns - startNs) / nsPerPx); }
    double Ns(float x) const { return startNs + (x - origin.x) * nsPerPx; }
};

void ClampView(MareyState& state) {
    const double span = static_cast<double>(std::max<TimeNs>(state.load->marey.spanNs, 1000));
    double width = std::clamp(state.viewEndNs - state.viewStartNs, kMinWindowNs, span * 1.05);
    double start = std::clamp(state.viewStartNs, -span * 0.025, span * 1.025 - width);
    state.viewStartNs = start, state.viewEndNs = start + width;
}

void Navigate(MareyState& state, const Plot& plot, bool hovered, bool doubleClicked,
              float frameDt) {
    const ImGuiIO& io = ImGui::GetIO();
    const double width = state.viewEndNs - state.viewStartNs;
    auto zoomAt = [&](double factor, float x) {
        const double at = plot.Ns(x);
        state.viewStartNs = at - (at - state.viewStartNs) * factor;
        state.viewEndNs = at + (state.viewEndNs - at) * factor;
    };
    const float mouseX = hovered ? io.MousePos.x : plot.origin.x + plot.width / 2;
    if (hovered && io.MouseWheel != 0) zoomAt(std::pow(0.8, io.MouseWheel), io.MousePos.x);
    // W/S and A/D as in the timeline, by the frame time the application gives every view.
    const bool typing = io.WantTextInput;
    const bool zoomIn = !typing && ImGui::IsKeyDown(GLFW_KEY_W);
    const bool zoomOut = !typing && ImGui::IsKeyDown(GLFW_KEY_S);
    state.zoomHeld = zoomIn != zoomOut ? state.zoomHeld + frameDt : 0;
    if (zoomIn != zoomOut) zoomAt(KeyZoomFactor(state.zoomHeld, frameDt, zoomIn), mouseX);
    const bool left = !typing && ImGui::IsKeyDown(GLFW_KEY_A);
    const bool right = !typing && ImGui::IsKeyDown(GLFW_KEY_D);
    state.panHeld = left != right ? state.panHeld + frameDt : 0;
    if (left != right) {
        const double panNs = (right ? 1.0 : -1.0) * width * KeyPanViews(state.panHeld, frameDt);
        state.viewStartNs += panNs, state.viewEndNs += panNs;
    }
    if (!typing && ImGui::IsKeyPressed(GLFW_KEY_HOME, false)) doubleClicked = true;
    if (doubleClicked)
        state.viewStartNs = 0, state.viewEndNs = static_cast<double>(state.load->marey.spanNs);
    ClampView(state);
}

// The operator under the mouse on row 'row', as a device index and an op index; false if none.
bool HitTest(const MareyState& state, size_t row, double ns, double slackNs, size_t* device,
             size_t* op) {
    for (const size_t d : state.rows[row].devices) {
        const int64_t found =
            MareyOpAt(state.load->marey.devices[d], state.load->runningEnds[d], ns, slackNs);
        if (found >= 0) {
            *device = d, *op = static_cast<size_t>(found);
            return true;
        }
    }
    return false;
}

void DrawTooltip(const MareyState& state, size_t device, size_t opIndex) {
    const MareyStep& step = state.load->marey;
    const MareyOp& op = step.devices[device].ops[opIndex];
    ImGui::BeginTooltip();
    ImGui::Text("%s", step.KeyLabel(op.key).c_str());
    ImGui::TextDisabled(
        "%s · times from %s of step %s", CoreClassName(step.keys[op.key].coreClass),
        step.sharedClock ? "the first operator on any device" : "each device's first operator",
        step.step.c_str());
    if (ImGui::BeginTable("devices", 4, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
        ImGui::TableSetupColumn("device");
        ImGui::TableSetupColumn("start");
        ImGui::TableSetupColumn("end");
        ImGui::TableSetupColumn("duration");
        ImGui::TableHeadersRow();
        size_t shown = 0;
        for (size_t d = 0; d < step.devices.size() && shown < 32; ++d, ++shown) {
            const int32_t at = step.devices[d].opOfKey[op.key];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (d == device)
                ImGui::TextColored(ImVec4(1, 1, 0.6f, 1), "rank %d",
                                   step.devices[d].rankId.value());
            else
                ImGui::Text("rank %d", step.devices[d].rankId.value());
            if (at < 0) {
                ImGui::TableNextColumn();
                ImGui::TextDisabled("not run");
                continue;
            }
            const MareyOp& other = step.devices[d].ops[at];
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(FormatDuration(other.startNs).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(FormatDuration(other.endNs).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(FormatDuration(other.endNs - other.startNs).c_str());
        }
        ImGui::EndTable();
        if (step.devices.size() > 32)
            ImGui::TextDisabled("and %zu more devices", step.devices.size() - 32);
    }
    ImGui::TextDisabled("click: open rank %d's timeline at it",
                        step.devices[device].rankId.value());
    ImGui::EndTooltip();
}

void DrawRuler(ImDrawList* draw, const Plot& plot, float top) {
    const RulerLayout ruler =
        LayoutRuler(plot.startNs, plot.startNs + plot.width * plot.nsPerPx, plot.width, 90,
                    [](const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; });
    for (const RulerTick& tick : ruler.ticks) {
        const float x = plot.origin.x + tick.x;
        const bool major = !tick.label.empty();
        draw->AddLine(ImVec2(x, top + (major ? 10 : 16)), ImVec2(x, top + kRuler),
                      IM_COL32(160, 165, 175, 255));
        if (major && tick.labelled)
            draw->AddText(ImVec2(x + 3, top), IM_COL32(190, 195, 205, 255), tick.label.c_str());
    }
}

// The FLOPs and FLOPS blocks left of each row, when the ranks have FLOPs summaries: each a bar as
// long as its value against the largest of all devices (the seeds' Marey view shades a block by
// that ratio; a length reads 0.74 from 1 where a shade does not). A folded row shows its largest
// device's.
void DrawFlopsBlocks(const MareyState& state, ImDrawList* draw, const Plot& plot, float gutterX) {
    if (std::none_of(state.flopsRank.begin(), state.flopsRank.end(),
                     [](const ClusterRank* rank) { return rank != nullptr; }))
        return;
    const double most[2] = {state.mostMflops, state.mostGflopsPerS};
    const float xs[2] = {gutterX + kFlopsX, gutterX + kFlopsRateX};
    const char* titles[2] = {"FLOPs", "FLOPS"};
    const ImU32 header = IM_COL32(190, 150, 230, 255);
    for (int k = 0; k < 2; ++k) {
        draw->AddText(ImVec2(xs[k], plot.origin.y - kRuler + 2), header, titles[k]);
        if (ImGui::IsMouseHoveringRect(ImVec2(xs[k], plot.origin.y - kRuler),
                                       ImVec2(xs[k] + kFlopsBlock, plot.origin.y)))
            ImGui::SetTooltip(k == 0 ? "FLOPs of each device (its flops_summary: the AI Core "
                                       "operators' MFLOPs summed), as a bar against the largest"
                                     : "FLOPS of each device (its flops_summary: the operators' "
                                       "mean GFLOPS), as a bar against the largest");
    }
    for (size_t r = 0; r < state.rows.size(); ++r) {
        const float y = plot.origin.y + static_cast<float>(r) * plot.rowPx;
        const ClusterRank* shown = nullptr;
        for (const size_t d : state.rows[r].devices) {
            const ClusterRank* rank = d < state.flopsRank.size() ? state.flopsRank[d] : nullptr;
            if (rank && (!shown || rank->flops.mflops > shown->flops.mflops)) shown = rank;
        }
        if (!shown) continue;
        const double values[2] = {shown->flops.mflops, shown->flops.gflopsPerS};
        for (int k = 0; k < 2; ++k) {
            if (values[k] < 0 || most[k] <= 0) continue;
            const float length = kFlopsBlock * static_cast<float>(values[k] / most[k]);
            draw->AddRectFilled(ImVec2(xs[k], y), ImVec2(xs[k] + kFlopsBlock, y + plot.barPx),
                                IM_COL32(150, 90, 210, 50));
            draw->AddRectFilled(ImVec2(xs[k], y), ImVec2(xs[k] + length, y + plot.barPx),
                                IM_COL32(150, 90, 210, 255));
        }
        if (ImGui::IsMouseHoveringRect(ImVec2(xs[0], y),
                                       ImVec2(xs[1] + kFlopsBlock, y + plot.barPx)))
            ImGui::SetTooltip("rank %d: %.1f GFLOPs, %.1f GFLOPS, %.2f %% utilisation (%s)",
                              shown->Id().value(), shown->flops.mflops / 1e3,
                              shown->flops.gflopsPerS, shown->flops.utilizationPercent,
                              shown->flopsSource.c_str());
    }
}

// Blocks left of each row: FLOPs and FLOPS when the ranks have FLOPs summaries, peak memory when
// recorded.
void DrawGutter(ClusterDocument& document, MareyState& state, ImDrawList* draw, const Plot& plot,
                float gutterX) {
    const MareyStep& step = state.load->marey;
    DrawFlopsBlocks(state, draw, plot, gutterX);
    double peak = 1;
    bool anyMemory = false;
    for (const MareyMemory& memory : state.load->memory)
        peak = std::max(peak, memory.peakMb), anyMemory = anyMemory || memory.present;
    if (anyMemory) {
        draw->AddText(ImVec2(gutterX + kGutter - 64, plot.origin.y - kRuler + 2),
                      IM_COL32(130, 170, 230, 255), "PeakMem");
        char text[48];
        std::snprintf(text, sizeof text, "longest: %.0f MB", peak);
        if (ImGui::IsMouseHoveringRect(ImVec2(gutterX + kGutter - 64, plot.origin.y - kRuler),
                                       ImVec2(gutterX + kGutter, plot.origin.y)))
            ImGui::SetTooltip(
                "peak allocated memory of each device (memory_record.csv), as a bar; %s", text);
    }
    // Rows thinner than a line of text are labelled every few rows (and the selected one always),
    // so that labels never write over each other.
    const size_t every = std::max<size_t>(
        1, static_cast<size_t>(std::ceil(ImGui::GetTextLineHeight() / std::max(plot.rowPx, 1.f))));
    size_t selectedRow = SIZE_MAX;
    for (size_t r = 0; r < state.rows.size(); ++r)
        if (state.rows[r].devices.size() == 1 &&
            document.selection.rank == step.devices[state.rows[r].devices[0]].rankId)
            selectedRow = r;
    for (size_t r = 0; r < state.rows.size(); ++r) {
        const float y = plot.origin.y + static_cast<float>(r) * plot.rowPx;
        const MareyRow& row = state.rows[r];
        const bool selected = r == selectedRow;
        const bool nearSelected = selectedRow != SIZE_MAX && !selected &&
                                  (r > selectedRow ? r - selectedRow : selectedRow - r) < every;
        if (selected || (r % every == 0 && !nearSelected))
            draw->AddText(ImVec2(gutterX + 4, y + plot.barPx / 2 - 7),
                          selected ? IM_COL32(255, 255, 255, 255) : IM_COL32(185, 190, 200, 255),
                          row.label.c_str());
        // PeakMem: a block whose width is the device's peak against the largest.
        double rowPeak = 0;
        for (const size_t d : row.devices)
            rowPeak = std::max(rowPeak, state.load->memory[d].peakMb);
        if (rowPeak > 0) {
            const float x0 = gutterX + kGutter - 58,
                        width = static_cast<float>(48 * rowPeak / peak);
            draw->AddRectFilled(ImVec2(x0, y), ImVec2(x0 + width, y + plot.barPx),
                                IM_COL32(90, 150, 220, 255));
        }
    }
}

void DrawMemoryChart(const MareyState& state, const Plot& plot, float top) {
    const int device = state.selectedDevice >= 0 ? state.selectedDevice : 0;
    if (device >= static_cast<int>(state.load->memory.size())) return;
    const MareyMemory& memory = state.load->memory[device];
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const std::string title =
        "memory allocated, rank " + ToString(state.load->marey.devices[device].rankId) +
        (state.selectedDevice < 0 ? " (click a row's label for another)" : "");
    draw->AddText(ImVec2(plot.origin.x - kGutter + 4, top), IM_COL32(170, 175, 185, 255),
                  title.c_str());
    if (!memory.present || memory.timeNs.empty()) {
        draw->AddText(ImVec2(plot.origin.x, top + 20), IM_COL32(150, 155, 165, 255),
                      memory.present ? "no memory sample inside this step"
                                     : "no memory_record.csv for this rank: the Ascend profiler "
                                       "writes it with profile_memory=True");
        return;
    }
    double lo = memory.megabytes.front(), hi = lo;
    for (const double mb : memory.megabytes) lo = std::min(lo, mb), hi = std::max(hi, mb);
    if (hi <= lo) hi = lo + 1;
    std::vector<ImVec2> points;
    const float bottom = top + kMemoryChart - 6;
    // Samples out of view are held just past the plot's edges and clipped there: the curve
    // enters at its level, without a vertical line at the edge.
    for (size_t i = 0; i < memory.timeNs.size(); ++i) {
        const float x = std::clamp(plot.X(static_cast<double>(memory.timeNs[i])), plot.origin.x - 8,
                                   plot.origin.x + plot.width + 8);
        const float y = bottom - static_cast<float>((memory.megabytes[i] - lo) / (hi - lo)) *
                                     (kMemoryChart - 30);
        if (!points.empty())
            points.push_back(
                ImVec2(x, points.back().y));  // a step curve: memory holds until the next sample
        points.push_back(ImVec2(x, y));
    }
    draw->PushClipRect(ImVec2(plot.origin.x, top), ImVec2(plot.origin.x + plot.width, bottom + 2),
                       true);
    draw->AddPolyline(points.data(), static_cast<int>(points.size()), IM_COL32(90, 150, 220, 255),
                      0, 1.5f);
    draw->PopClipRect();
    char range[96];
    std::snprintf(range, sizeof range, "%.0f … %.0f MB (peak of the run %.0f MB)", lo, hi,
                  memory.peakMb);
    draw->AddText(ImVec2(plot.origin.x - kGutter + 4, top + 18), IM_COL32(150, 155, 165, 255),
                  range);
}

}  // namespace

// [SECTION] Bars and bands as GPU instances

std::vector<MareyInstance> MareyInstances(const MareyStep& step,
                                          const std::vector<MareyRow>& rows) {
    // The class's colour, lighter or darker by the operator's name: neighbouring operators of one
    // class stay apart, and an operator keeps its shade on every device.
    std::vector<Rgba> colors;
    for (const MareyKey& key : step.keys) {
        const Rgba base = ClassColor(key.coreClass);
        const float shade =
            0.72f + 0.5f *
                        static_cast<float>(std::hash<std::string>{}(step.names[key.name]) % 1000) /
                        1000.0f;
        colors.push_back({std::min(1.0f, base.r * shade), std::min(1.0f, base.g * shade),
                          std::min(1.0f, base.b * shade), 1});
    }
    std::vector<MareyInstance> instances;
    const std::vector<MareyShape> shapes = MareyShapes(step, rows);
    instances.reserve(shapes.size());
    for (const MareyShape& shape : shapes) {
        const Rgba& color = colors[shape.key];
        instances.push_back(
            {static_cast<float>(shape.topStartNs), static_cast<float>(shape.topEndNs),
             static_cast<float>(shape.bottomStartNs), static_cast<float>(shape.bottomEndNs),
             static_cast<float>(shape.row), shape.band ? 1.0f : 0.0f, color.r, color.g, color.b,
             shape.band ? 0.42f : 1.0f});
    }
    return instances;
}

// [SECTION] The header, the summary, stages and row labels

namespace {

// The pickers and the load: false when there is nothing to plot (no steps, still reading, or no
// kernel_details.csv).
bool DrawHeader(ClusterDocument& document, MareyState& state) {
    DrawStepAndGroupPickers(document);
    SameLineIfRoom(ImGui::CalcTextSize("Steps shown").x + 130);  // else under the pickers
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Steps shown");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    ImGui::SliderInt("##steps", &state.stepsShown, 1, 8,
                     state.stepsShown == 1 ? "1 step" : "%d steps");
    if (!document.selection.step && !document.cluster.steps.empty()) {
        const std::string& first = document.cluster.steps.front();
        NoteAfter(document.cluster.steps.size() == 1
                      ? ("(step " + first + ")").c_str()
                      : ("(from step " + first + ": the average is not a step)").c_str(),
                  12);
    }
    Refresh(document, state);
    if (!state.load) {
        ImGui::TextDisabled(document.cluster.steps.empty()
                                ? "This cluster has no steps."
                                : "Reading the devices' kernel_details.csv…");
        return false;
    }
    const MareyStep& step = state.load->marey;
    if (state.job.Busy()) {
        ImGui::SameLine(0, 20);
        ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1), "loading…");
    }
    if (step.keys.empty()) {
        // Missing files, or files that hold nothing of this step: said apart, one line a reason.
        bool noFile = false;
        const std::vector<std::string> reasons = SummarizeDeviceProblems(step, 8, &noFile);
        if (noFile)
            DrawMissingFile(kKernelDetailsFile, "The Marey view");
        else
            ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.35f, 1.0f), "%s",
                               std::all_of(step.devices.begin(), step.devices.end(),
                                           [](const MareyDevice& d) { return !d.problem.empty(); })
                                   ? "No device's operators could be read"
                                   : "No operator of this step in the devices' kernel_details.csv");
        ImGui::PushTextWrapPos(0);
        for (const std::string& reason : reasons) ImGui::TextDisabled("%s", reason.c_str());
        ImGui::PopTextWrapPos();
        return false;
    }
    return true;
}

// The legend, the matching rule, the slowest device and what the bands count.
void DrawSummary(const MareyState& state) {
    const MareyStep& step = state.load->marey;
    // The legend, the matching rule and what the bands say.
    DrawLegend({{"Computing (AI Core, GPU)", 0, ClassColor(CoreClass::kAiCore)},
                {"Communication", 0, ClassColor(CoreClass::kCommunication)},
                {"AI CPU", 0, ClassColor(CoreClass::kAiCpu)},
                {"Other", 0, ClassColor(CoreClass::kOther)}});
    NoteAfter(
        "a band joins the k-th run of an operator on a device to its k-th run on the row below; "
        "none where a device lacks it");
    TimeNs excess = 0;
    const std::optional<RankId> slowest = SlowestDevice(state.load->slants, &excess);
    if (slowest && excess > 0) {
        TimeNs slant = 0;
        for (const DeviceSlant& s : state.load->slants)
            if (s.rankId == slowest) slant = s.slantNs;
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.5f, 0.45f, 1));
        ImGui::TextWrapped(
            "Step %s: rank %d adds the most slant: it ends its operators %s later "
            "than the device above it, %s more than the median device.",
            step.step.c_str(), slowest->value(), FormatDuration(slant).c_str(),
            FormatDuration(excess).c_str());
        ImGui::PopStyleColor();
    }
    char counts[160];
    std::snprintf(counts, sizeof counts,
                  "%zu operators · %llu bands · %llu runs without a partner below",
                  step.keys.size(), static_cast<unsigned long long>(state.load->matches.matched),
                  static_cast<unsigned long long>(state.load->matches.unmatched));
    if (slowest && excess > 0)
        NoteAfter(counts);
    else
        ImGui::TextDisabled("%s", counts);
}

// Stages: the cluster's stage groups, or runs of N devices, collapsed or not; opening the devices
// in one timeline; notes on what is shown.
void DrawStageControls(ClusterDocument& document, MareyState& state,
                       ClusterRequest& clusterRequest) {
    const MareyStep& step = state.load->marey;
    // Stages: the cluster's stage groups, or runs of N devices; a collapsed stage is one row.
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Stages");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(160);
    if (ImGui::SliderInt("##stage", &state.devicesPerStage, 0,
                         std::max<int>(2, static_cast<int>(step.devices.size())),
                         state.devicesPerStage == 0 ? "from the groups" : "%d devices each")) {
        state.stages = Stages(document, step, state.devicesPerStage);
        state.collapsed.assign(state.stages.size(), false);
        Relayout(state);
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(state.stages.empty());
    if (ImGui::SmallButton("Collapse all"))
        state.collapsed.assign(state.stages.size(), true), Relayout(state);
    ImGui::SameLine();
    if (ImGui::SmallButton("Expand all"))
        state.collapsed.assign(state.stages.size(), false), Relayout(state);
    ImGui::EndDisabled();
    // The same devices, in the same order, as one timeline of their every event.
    ImGui::SameLine(0, 20);
    constexpr size_t kMostRanksInOneTimeline = 64;
    ImGui::BeginDisabled(!document.CanOpenRanks());
    if (ImGui::SmallButton("Open in one timeline")) {
        ClusterRequest& request = clusterRequest;
        request.cluster = document.id;
        request.kind = ClusterRequest::kOpenRanksInOneTimeline;
        request.ranks.clear();
        for (size_t d = 0; d < step.devices.size() && d < kMostRanksInOneTimeline; ++d)
            request.ranks.push_back(step.devices[d].rankId);
        request.alignStep = step.step;
    }
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip(
            "Every event of these devices' traces, in this order, one foldable group per device, "
            "aligned on step %s "
            "(the first %zu devices at most)",
            step.step.c_str(), kMostRanksInOneTimeline);
    NoteAfter(state.stages.empty() ? "(no stage groups: choose a stage size)"
                                   : (CountText(state.stages.size(), "stage", "stages") +
                                      "; click a stage's bracket to collapse it")
                                         .c_str(),
              ImGui::GetStyle().ItemSpacing.x);
    size_t inGroup = 0;
    for (const ClusterRank& rank : document.cluster.ranks) inGroup += document.InGroup(rank.Id());
    if (inGroup > step.devices.size()) {
        ImGui::SameLine(0, 20);
        ImGui::TextColored(ImVec4(1, 0.75f, 0.35f, 1),
                           "the first %zu of %zu devices: choose a group or stage above",
                           step.devices.size(), inGroup);
    }
    NoteAfter(step.sharedClock ? "one clock for all devices"
                               : "each device from its own first operator (their clocks disagree)");
    if (std::none_of(state.flopsRank.begin(), state.flopsRank.end(),
                     [](const ClusterRank* rank) { return rank != nullptr; }))
        NoteAfter(
            "FLOPs, FLOPS: no flops_summary file (MindSpore's FLOPs analysis; torch_npu: "
            "with_flops=True)");
}

// Stage brackets in the gutter: click to collapse or expand.
void DrawStageBrackets(MareyState& state, ImDrawList* draw, const Plot& plot, float gutterX) {
    for (size_t s = 0; s < state.stages.size(); ++s) {
        size_t first = state.rows.size(), last = 0;
        for (size_t r = 0; r < state.rows.size(); ++r)
            for (const size_t d : state.rows[r].devices)
                if (std::find(state.stages[s].begin(), state.stages[s].end(), d) !=
                    state.stages[s].end())
                    first = std::min(first, r), last = std::max(last, r);
        if (first > last) continue;
        const float y0 = plot.origin.y + static_cast<float>(first) * plot.rowPx,
                    y1 = plot.origin.y + static_cast<float>(last) * plot.rowPx + plot.barPx;
        const float x = gutterX + 2;
        draw->AddLine(ImVec2(x, y0), ImVec2(x, y1), IM_COL32(150, 170, 210, 255), 2);
        ImGui::SetCursorScreenPos(ImVec2(x - 2, y0));
        ImGui::PushID(static_cast<int>(s));
        if (ImGui::InvisibleButton("stage", ImVec2(8, std::max(4.0f, y1 - y0)))) {
            state.collapsed[s] = !state.collapsed[s];
            Relayout(state);
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(state.collapsed[s] ? "expand this stage"
                                                 : "collapse this stage into one row");
        ImGui::PopID();
    }
}

// Row labels select the device whose memory the chart shows.
void DrawRowLabels(ClusterDocument& document, MareyState& state, const Plot& plot, float gutterX) {
    const MareyStep& step = state.load->marey;
    for (size_t r = 0; r < state.rows.size(); ++r) {
        ImGui::SetCursorScreenPos(
            ImVec2(gutterX + 10, plot.origin.y + static_cast<float>(r) * plot.rowPx));
        ImGui::PushID(static_cast<int>(r) + 100000);
        if (ImGui::InvisibleButton("row", ImVec2(kFlopsX - 14, std::max(3.0f, plot.barPx)))) {
            state.selectedDevice = static_cast<int>(state.rows[r].devices.front());
            SelectRank(document, RankId(step.devices[state.rows[r].devices.front()].rankId));
        }
        ImGui::PopID();
    }
}

// The tooltip of the operator under the mouse; a click opens its rank's timeline on it.
void DrawHoverAndClick(ClusterDocument& document, const MareyState& state, const Plot& plot,
                       bool hovered, ClusterRequest& clusterRequest) {
    const MareyStep& step = state.load->marey;
    const ImGuiIO& io = ImGui::GetIO();
    if (hovered && !state.brushing) {
        const int row = static_cast<int>((io.MousePos.y - plot.origin.y) / plot.rowPx);
        size_t device = 0, op = 0;
        if (row >= 0 && row < static_cast<int>(state.rows.size()) &&
            HitTest(state, static_cast<size_t>(row), plot.Ns(io.MousePos.x), plot.nsPerPx * 2,
                    &device, &op)) {
            DrawTooltip(state, device, op);
            if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) &&
                io.MouseDragMaxDistanceSqr[0] < 16 && document.CanOpenRanks()) {
                const MareyDevice& chosen = step.devices[device];
                ClusterRequest& request = clusterRequest;
                request.kind = ClusterRequest::kOpenRank, request.cluster = document.id,
                request.rankA = RankId(chosen.rankId);
                request.view = "timeline";
                request.startNs = chosen.stepStartNs + chosen.ops[op].startNs;
                request.endNs = chosen.stepStartNs + chosen.ops[op].endNs;
                request.label = step.KeyLabel(chosen.ops[op].key);
            }
        }
    }
}

}  // namespace

// [SECTION] MareyView

MareyView::MareyView(ClusterDocument& cluster) : m_document(cluster) {}

MareyView::~MareyView() = default;

bool MareyView::Busy() const {
    return m_state.job.Busy();
}

void MareyView::Wait() {
    if (auto loaded = m_state.job.Wait()) TakeLoad(m_document, m_state, std::move(*loaded));
}

void MareyView::BenchmarkFrame(int frame, int frameCount) {
    if (!m_state.load) return;
    // From the whole step into a hundredth of it, drifting right.
    const double span = static_cast<double>(m_state.load->marey.spanNs);
    const double width = span * std::pow(0.925, frame);
    m_state.viewStartNs = (span - width) * frame / frameCount,
    m_state.viewEndNs = m_state.viewStartNs + width;
}

void MareyView::Draw(ViewContext& context) {
    ClusterDocument& document = m_document;
    MareyState& state = m_state;
    if (!DrawHeader(document, state)) return;
    const MareyStep& step = state.load->marey;
    DrawSummary(state);
    DrawStageControls(document, state, context.clusterRequest);
    // The plot.
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    Plot plot;
    plot.origin = ImVec2(start.x + kGutter, start.y + kRuler);
    plot.width = std::max(100.0f, avail.x - kGutter - 8);
    const float rowsHeight = std::max(60.0f, avail.y - kRuler - kMemoryChart - 4);
    plot.rowPx = std::max(
        3.0f,
        std::min(40.0f, rowsHeight / static_cast<float>(std::max<size_t>(1, state.rows.size()))));
    plot.barPx = std::max(2.0f, plot.rowPx * 0.4f);
    ImGui::SetCursorScreenPos(plot.origin);
    ImGui::InvisibleButton("marey",
                           ImVec2(plot.width, plot.rowPx * static_cast<float>(state.rows.size())));
    const bool hovered = ImGui::IsItemHovered();
    plot.startNs = state.viewStartNs;
    plot.nsPerPx = (state.viewEndNs - state.viewStartNs) / plot.width;
    Navigate(state, plot, hovered, hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left),
             context.frameDt);
    plot.startNs = state.viewStartNs;
    plot.nsPerPx = (state.viewEndNs - state.viewStartNs) / plot.width;

    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float plotBottom = plot.origin.y + plot.rowPx * static_cast<float>(state.rows.size());
    draw->AddRectFilled(ImVec2(plot.origin.x, plot.origin.y),
                        ImVec2(plot.origin.x + plot.width, plotBottom), IM_COL32(22, 24, 28, 255));
    DrawRuler(draw, plot, start.y);
    const uint64_t tag = (static_cast<uint64_t>(document.id.value()) << 32) | state.layoutVersion;
    if (!context.marey.Holds(tag))
        context.marey.SetInstances(
            state.layoutVersion == 1 && state.rows.size() == step.devices.size()
                ? state.load->instances
                : MareyInstances(step, state.rows),
            tag);
    draw->PushClipRect(ImVec2(plot.origin.x, plot.origin.y),
                       ImVec2(plot.origin.x + plot.width, plotBottom), true);
    MareyTransform transform;
    transform.originX = plot.origin.x, transform.originY = plot.origin.y;
    transform.viewStartNs = static_cast<float>(plot.startNs),
    transform.nsPerPx = static_cast<float>(plot.nsPerPx);
    transform.rowPx = plot.rowPx, transform.barPx = plot.barPx;
    context.marey.Submit(draw, transform);
    // The brush: a drag selects the range to zoom into.
    const ImGuiIO& io = ImGui::GetIO();
    if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left))
        state.brushing = true, state.brushStartX = io.MousePos.x;
    if (state.brushing) {
        const float x0 = std::min(state.brushStartX, io.MousePos.x),
                    x1 = std::max(state.brushStartX, io.MousePos.x);
        draw->AddRectFilled(ImVec2(x0, plot.origin.y), ImVec2(x1, plotBottom),
                            IM_COL32(255, 255, 255, 40));
        if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            state.brushing = false;
            if (x1 - x0 > 4)
                state.viewStartNs = plot.Ns(x0), state.viewEndNs = plot.Ns(x1), ClampView(state);
        }
    }
    draw->PopClipRect();
    DrawGutter(document, state, draw, plot, start.x);
    DrawStageBrackets(state, draw, plot, start.x);
    DrawRowLabels(document, state, plot, start.x);
    DrawHoverAndClick(document, state, plot, hovered, context.clusterRequest);
    DrawMemoryChart(state, plot, plotBottom + 4);
    ImGui::SetCursorScreenPos(ImVec2(start.x, plotBottom + kMemoryChart));
}

}  // namespace marey

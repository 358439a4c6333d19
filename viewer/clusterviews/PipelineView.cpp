#include "clusterviews/PipelineView.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <thread>

#include "base/Colors.hpp"
#include "clusterviews/ClusterCommon.hpp"
#include "clusterviews/PipelinePanels.hpp"
#include "core/TextFormat.hpp"
#include "viewkit/ViewCommon.hpp"
#include "viewkit/ViewContext.hpp"
#include "workspace/ClusterDocument.hpp"

namespace marey {
namespace {

constexpr float kGutter = 150;  // the lanes' labels
constexpr float kRuler = 22;
constexpr float kMinLanePx = 8;
constexpr size_t kTypeColors = 9;     // the longest types get a colour each, the rest grey
constexpr size_t kMostArrows = 6000;  // more in the range shown: zoom in to see them
constexpr uint64_t kMostCachedRows = 4000000;

const Rgba kTypePalette[kTypeColors] = {
    {0.30f, 0.72f, 0.36f, 1}, {0.55f, 0.80f, 0.30f, 1}, {0.20f, 0.60f, 0.55f, 1},
    {0.75f, 0.70f, 0.25f, 1}, {0.62f, 0.42f, 0.28f, 1}, {0.70f, 0.50f, 0.80f, 1},
    {0.85f, 0.55f, 0.55f, 1}, {0.40f, 0.75f, 0.80f, 1}, {0.65f, 0.60f, 0.45f, 1},
};
constexpr Rgba kOtherType = {0.55f, 0.57f, 0.60f, 1};
constexpr Rgba kDenseColor = {0.78f, 0.80f, 0.74f, 1};  // several computations in a pixel
constexpr Rgba kLaneBackground = {0.13f, 0.14f, 0.16f, 1};
constexpr Rgba kSendColor = {0.30f, 0.55f, 1.00f, 1};
constexpr Rgba kReceiveColor = {0.95f, 0.40f, 0.45f, 1};
constexpr Rgba kCommunicationColor = {0.96f, 0.60f, 0.22f, 1};
constexpr ImU32 kForwardArrow = IM_COL32(150, 200, 255, 255);
constexpr ImU32 kBackwardArrow = IM_COL32(255, 150, 170, 255);

ImU32 U32(const Rgba& c) {
    return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a));
}

// Where the step's last operator on any stage ends (the gradient all-reduce after the
// pipeline's span included).
TimeNs WholeStepEndNs(const PipelineLoad& load) {
    TimeNs end = load.schedule.spanEndNs;
    for (const MareyDevice& device : load.marey.devices)
        for (const MareyOp& op : device.ops) end = std::max(end, op.endNs);
    return std::max(end, load.schedule.spanStartNs + 1);
}

// The step's operators typed and the types ordered by the time the stages spent in them.
void TypeOperators(PipelineLoad& load) {
    std::map<std::string, size_t> index;
    std::vector<std::string> typeNames;
    std::vector<uint32_t> typeOfKey(load.marey.keys.size());
    for (size_t k = 0; k < load.marey.keys.size(); ++k) {
        const std::string type = OperatorTypeOfName(load.marey.names[load.marey.keys[k].name]);
        const auto [it, added] = index.emplace(type, typeNames.size());
        if (added) typeNames.push_back(type);
        typeOfKey[k] = static_cast<uint32_t>(it->second);
    }
    std::vector<TimeNs> spent(typeNames.size(), 0);
    for (size_t s = 0; s < load.marey.devices.size(); ++s)
        for (size_t i = 0; i < load.marey.devices[s].ops.size(); ++i)
            if (load.schedule.stages[s].kinds[i] == PipeOpKind::kCompute) {
                const MareyOp& op = load.marey.devices[s].ops[i];
                spent[typeOfKey[op.key]] += op.endNs - op.startNs;
            }
    std::vector<size_t> order(typeNames.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return spent[a] > spent[b]; });
    std::vector<uint32_t> rankOf(order.size());
    for (size_t i = 0; i < order.size(); ++i) {
        rankOf[order[i]] = static_cast<uint32_t>(i);
        // Types only communication has (sends, receives) are coloured by their kind instead.
        if (spent[order[i]] > 0) load.types.push_back({typeNames[order[i]], spent[order[i]]});
    }
    for (uint32_t& type : typeOfKey) type = rankOf[type];
    load.typeOfKey = std::move(typeOfKey);
}

std::shared_ptr<PipelineLoad> Load(const Cluster* cluster, std::vector<RankId> ranks,
                                   std::string step, std::shared_ptr<const MareyTables> cached) {
    auto load = std::make_shared<PipelineLoad>();
    load->ranks = std::move(ranks);
    load->step = std::move(step);
    if (!cached || cached->rankIds != load->ranks)
        cached = std::make_shared<const MareyTables>(LoadMareyTables(
            *cluster, load->ranks, std::max(1u, std::thread::hardware_concurrency())));
    load->marey = BuildMareyStep(*cached, std::vector<std::string>{load->step});
    if (cached->rows <= kMostCachedRows) load->tables = cached;
    load->schedule = BuildPipelineSchedule(load->marey);
    bool noFile = false;
    load->problems = SummarizeDeviceProblems(load->marey, 3, &noFile);
    load->wholeStepEndNs = WholeStepEndNs(*load);
    TypeOperators(*load);
    for (const MareyDevice& device : load->marey.devices) {
        TimeNs longest = 0;
        for (const MareyOp& op : device.ops) longest = std::max(longest, op.endNs - op.startNs);
        load->longestOp.push_back(longest);
        load->runningEnds.push_back(MareyRunningEnds(device));
        const PipeStageFigures& figures = load->schedule.stages[load->transferOps.size()];
        // Receives, then Sends, each by start: the order they are drawn in.
        std::vector<uint32_t> transfers;
        for (const PipeOpKind kind : {PipeOpKind::kReceive, PipeOpKind::kSend})
            for (uint32_t i = 0; i < device.ops.size(); ++i)
                if (figures.kinds[i] == kind) transfers.push_back(i);
        load->transferOps.push_back(std::move(transfers));
    }
    return load;
}

Rgba OperatorColor(const PipelineLoad& load, size_t stage, size_t op) {
    switch (load.schedule.stages[stage].kinds[op]) {
        case PipeOpKind::kSend:
            return kSendColor;
        case PipeOpKind::kReceive:
            return kReceiveColor;
        case PipeOpKind::kOtherCommunication:
            return kCommunicationColor;
        default:
            break;
    }
    const uint32_t type = load.typeOfKey[load.marey.devices[stage].ops[op].key];
    return type < kTypeColors ? kTypePalette[type] : kOtherType;
}

struct Plot {
    ImVec2 origin;  // top left of the first lane
    float width = 0, lanePx = 0, barPx = 0;
    double startNs = 0, nsPerPx = 1, pxPerNs = 1;  // pxPerNs = 1 / nsPerPx: no division a call
    float X(double ns) const { return origin.x + static_cast<float>((ns - startNs) * pxPerNs); }
    double Ns(float x) const { return startNs + (x - origin.x) * nsPerPx; }
    float LaneTop(size_t lane) const {
        return origin.y + static_cast<float>(lane) * lanePx + (lanePx - barPx) / 2;
    }
};

// A tick's time in ms with as many decimals as the tick step needs, so neighbours never read
// alike ("22.870 ms", "22.875 ms" for a 5 µs step).
std::string TickLabel(double ns, double tickNs) {
    const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(tickNs / 1e6))), 0, 6);
    char text[48];
    std::snprintf(text, sizeof text, "%.*f ms", decimals, ns / 1e6);
    return text;
}

// The ruler above the lanes: round times from the step's start.
void DrawRuler(ImDrawList* draw, const Plot& plot, float lanesHeight) {
    const double range = plot.nsPerPx * plot.width;
    const double tick = NiceTickStep(range, std::max(2, static_cast<int>(plot.width / 110)));
    for (double ns = std::ceil(plot.startNs / tick) * tick; ns <= plot.startNs + range;
         ns += tick) {
        const float x = plot.X(ns);
        draw->AddLine(ImVec2(x, plot.origin.y - 6), ImVec2(x, plot.origin.y + lanesHeight),
                      IM_COL32(255, 255, 255, 28));
        const std::string label = TickLabel(ns, tick);
        if (x + 3 + ImGui::CalcTextSize(label.c_str()).x > plot.origin.x + plot.width) continue;
        draw->AddText(ImVec2(x + 3, plot.origin.y - kRuler + 2), IM_COL32(200, 200, 200, 255),
                      label.c_str());
    }
}

// A lane's Sends and Receives in the range shown, in the lower half of the lane and on top of the
// computations they overlap (a posted send runs beside the next computation), each at least a
// pixel wide and labelled with its microbatch where it has room. O(transfers of the lane).
void DrawTransfers(ImDrawList* draw, const Plot& plot, const PipelineLoad& load, size_t stage) {
    const MareyDevice& device = load.marey.devices[stage];
    const PipeStageFigures& figures = load.schedule.stages[stage];
    const double endNs = plot.Ns(plot.origin.x + plot.width);
    const float top = plot.LaneTop(stage), bottom = top + plot.barPx;
    // Receives first, in the lower half; Sends over them in the lowest quarter, so that a send
    // running beside a receive (a posted activation while the stage waits for a gradient) shows.
    const std::vector<uint32_t>& order = load.transferOps[stage];  // receives first (Load)
    for (const bool labels : {false, true})  // the labels last, over the sends
        for (const uint32_t op : order) {
            const MareyOp& transfer = device.ops[op];
            if (transfer.endNs < plot.startNs || transfer.startNs > endNs) continue;
            const bool send = figures.kinds[op] == PipeOpKind::kSend;
            const float y0 = top + plot.barPx * (send ? 0.75f : 0.45f);
            const float x0 = plot.X(static_cast<double>(transfer.startNs));
            const float x1 = std::max(x0 + 1, plot.X(static_cast<double>(transfer.endNs)));
            if (!labels) {
                draw->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, bottom),
                                    U32(OperatorColor(load, stage, op)));
                continue;
            }
            const int32_t t = figures.transferOf[op];
            // The label stays at the view's left edge while the transfer runs on past it.
            const float labelX = std::max(x0, plot.origin.x) + 2;
            if (t < 0 || send || x1 - labelX < 20 || plot.barPx < 12) continue;
            const std::string label =
                TransferLabel(load.schedule.transfers[static_cast<size_t>(t)]);
            draw->AddText(ImVec2(labelX, y0 + (bottom - y0 - ImGui::GetFontSize()) / 2),
                          IM_COL32(15, 15, 20, 255), label.c_str());
        }
}

// One lane's operators in the range shown. Computations narrower than a pixel that follow each
// other within a pixel merge into one bar of kDenseColor (their types cannot be told apart
// there): zoomed out, a lane costs a few bars, not its operators. True when it drew such a bar.
// O(operators in the range).
bool DrawLane(ImDrawList* draw, const Plot& plot, const PipelineLoad& load, size_t stage) {
    const MareyDevice& device = load.marey.devices[stage];
    const PipeStageFigures& figures = load.schedule.stages[stage];
    const double endNs = plot.Ns(plot.origin.x + plot.width);
    const auto first =
        std::lower_bound(device.ops.begin(), device.ops.end(),
                         static_cast<TimeNs>(plot.startNs) - load.longestOp[stage],
                         [](const MareyOp& op, TimeNs at) { return op.startNs < at; });
    const float top = plot.LaneTop(stage), bottom = top + plot.barPx;
    float denseFrom = 0, denseTo = -2;  // the merged run not drawn yet
    float denseBusyPx = 0;              // its computations' lengths, in pixels
    bool anyDense = false;
    // A merged run is as bright as it is busy: a pixel half idle in receives is half as bright,
    // so that a bubble made of many small waits still shows.
    auto drawDense = [&] {
        if (denseTo > denseFrom) {
            const float busy = std::min(1.0f, denseBusyPx / (denseTo - denseFrom));
            const float t = 0.25f + 0.75f * busy;
            const Rgba c = {kLaneBackground.r + (kDenseColor.r - kLaneBackground.r) * t,
                            kLaneBackground.g + (kDenseColor.g - kLaneBackground.g) * t,
                            kLaneBackground.b + (kDenseColor.b - kLaneBackground.b) * t, 1};
            draw->AddRectFilled(ImVec2(denseFrom, top), ImVec2(denseTo, bottom), U32(c));
            anyDense = true;
        }
        denseTo = -2;
        denseBusyPx = 0;
    };
    for (auto it = first; it != device.ops.end() && it->startNs <= endNs; ++it) {
        if (it->endNs < plot.startNs) continue;
        const size_t op = static_cast<size_t>(it - device.ops.begin());
        const float x0 = plot.X(static_cast<double>(it->startNs));
        const float xEnd = plot.X(static_cast<double>(it->endNs));
        const float x1 = std::max(x0 + 1, xEnd);
        const PipeOpKind kind = figures.kinds[op];
        // Transfers sit in the lower half, so that a computation they overlap stays seen.
        const bool transfer = kind == PipeOpKind::kSend || kind == PipeOpKind::kReceive;
        if (!transfer && xEnd - x0 < 1) {
            if (x0 > denseTo + 1) {
                drawDense();
                denseFrom = std::floor(x0);
            }
            denseTo = std::max(denseTo, x1);
            denseBusyPx += xEnd - x0;
            continue;
        }
        drawDense();
        if (transfer) continue;  // drawn after the computations, on top of them
        draw->AddRectFilled(ImVec2(x0, top), ImVec2(x1, bottom),
                            U32(OperatorColor(load, stage, op)));
    }
    drawDense();
    DrawTransfers(draw, plot, load, stage);
    return anyDense;
}

// An arrow from each Send's start to the end of the Receive that took it, when there are few
// enough in the range to read; false (none drawn) when there are more.
bool DrawArrows(ImDrawList* draw, const Plot& plot, const PipelineLoad& load) {
    const double endNs = plot.Ns(plot.origin.x + plot.width);
    // Kept between frames: a frame reuses the capacity instead of allocating again.
    static thread_local std::vector<const PipeTransfer*> shown;
    shown.clear();
    for (const PipeTransfer& transfer : load.schedule.transfers) {
        const MareyOp& send = load.marey.devices[transfer.fromStage].ops[transfer.fromOp];
        const MareyOp& receive = load.marey.devices[transfer.toStage].ops[transfer.toOp];
        if (receive.endNs < plot.startNs || send.startNs > endNs) continue;
        shown.push_back(&transfer);
        if (shown.size() > kMostArrows) break;
    }
    if (shown.size() > kMostArrows) return false;
    draw->PushClipRect(ImVec2(plot.origin.x, plot.origin.y - 4),
                       ImVec2(plot.origin.x + plot.width, plot.origin.y + 100000), true);
    for (const PipeTransfer* transfer : shown) {
        const MareyOp& send = load.marey.devices[transfer->fromStage].ops[transfer->fromOp];
        const MareyOp& receive = load.marey.devices[transfer->toStage].ops[transfer->toOp];
        const bool down = transfer->toStage > transfer->fromStage;
        const float fromY = down ? plot.LaneTop(transfer->fromStage) + plot.barPx
                                 : plot.LaneTop(transfer->fromStage);
        const float toY =
            down ? plot.LaneTop(transfer->toStage) : plot.LaneTop(transfer->toStage) + plot.barPx;
        const ImVec2 from(plot.X(static_cast<double>(send.startNs)), fromY);
        const ImVec2 to(plot.X(static_cast<double>(receive.endNs)), toY);
        const ImU32 color = transfer->forward ? kForwardArrow : kBackwardArrow;
        draw->AddLine(from, to, color, 1.2f);
        const float head = down ? -5.0f : 5.0f;
        draw->AddTriangleFilled(to, ImVec2(to.x - 3.5f, to.y + head),
                                ImVec2(to.x + 3.5f, to.y + head), color);
    }
    draw->PopClipRect();
    return true;
}

// The lanes' labels: stage, rank and bubble; the stage the verdict names in amber.
void DrawLaneLabels(ImDrawList* draw, const Plot& plot, const PipelineLoad& load) {
    const float font = ImGui::GetFontSize();
    for (size_t s = 0; s < load.schedule.stages.size(); ++s) {
        const PipeStageFigures& stage = load.schedule.stages[s];
        const float y = plot.origin.y + static_cast<float>(s) * plot.lanePx;
        const bool busiest = static_cast<int>(s) == load.schedule.namedStage;
        const ImU32 color = busiest ? IM_COL32(255, 200, 100, 255) : IM_COL32(220, 220, 220, 255);
        const std::string name = "stage " + std::to_string(s) + " · rank " + ToString(stage.rankId);
        if (plot.lanePx >= 2 * font + 2) {
            draw->AddText(ImVec2(plot.origin.x - kGutter + 6, y + plot.lanePx / 2 - font), color,
                          name.c_str());
            draw->AddText(ImVec2(plot.origin.x - kGutter + 6, y + plot.lanePx / 2),
                          IM_COL32(170, 170, 170, 255),
                          stage.bubble < 0 ? "no operators in the step"
                                           : ("bubble " + FormatPercent(stage.bubble)).c_str());
        } else if (plot.lanePx >= font) {
            draw->AddText(ImVec2(plot.origin.x - kGutter + 6, y + (plot.lanePx - font) / 2), color,
                          name.c_str());
        } else {
            // Thin lanes: every few a label, at its lane's top, and the named stage always; a
            // label that would run into the named stage's is left out. Hover names any lane.
            const size_t every = static_cast<size_t>(std::ceil(font / plot.lanePx));
            const float namedY =
                plot.origin.y + static_cast<float>(load.schedule.namedStage) * plot.lanePx;
            const bool clear = load.schedule.namedStage < 0 || std::abs(y - namedY) >= font;
            if (busiest || (s % every == 0 && clear))
                draw->AddText(ImVec2(plot.origin.x - kGutter + 6, y), color, name.c_str());
        }
    }
}

}  // namespace

// [SECTION] PipelineView

PipelineView::PipelineView(ClusterDocument& cluster) : m_document(cluster) {}

PipelineView::~PipelineView() = default;

bool PipelineView::Busy() const {
    return m_job.Busy() || m_settleFrames > 0;
}

void PipelineView::Wait() {
    if (auto loaded = m_job.Wait()) Take(std::move(*loaded));
}

void PipelineView::BenchmarkFrame(int frame, int frameCount) {
    if (!m_load) return;
    const double start = static_cast<double>(m_load->schedule.spanStartNs);
    const double span = static_cast<double>(m_load->schedule.spanEndNs) - start;
    const double width = span * std::pow(0.925, std::min(frame, 50));
    m_viewStartNs = start + (span - width) * frame / std::max(1, frameCount);
    m_viewEndNs = m_viewStartNs + width;
}

void PipelineView::Take(std::shared_ptr<PipelineLoad> load) {
    // A new pipeline or step shows whole; the same one keeps where a person zoomed.
    const bool same = m_load && m_load->ranks == load->ranks && m_load->step == load->step;
    m_load = std::move(load);
    if (same && m_viewEndNs > m_viewStartNs) return;
    m_selected = {};
    ShowWholeStep();
    m_settleFrames = 3;  // a table sizes its columns from a frame's contents: draw a few
}

void PipelineView::ShowWholeStep() {
    if (!m_load) return;
    m_viewStartNs = static_cast<double>(m_load->schedule.spanStartNs);
    m_viewEndNs = static_cast<double>(m_load->wholeStepEndNs);
}

void PipelineView::Refresh() {
    if (auto loaded = m_job.TakeResult()) Take(std::move(*loaded));
    const Cluster& cluster = m_document.cluster;
    if (cluster.steps.empty()) return;
    const size_t stepIndex = static_cast<size_t>(std::clamp(
        ValueOr(m_document.selection.step, 0), 0, static_cast<int>(cluster.steps.size()) - 1));
    const std::string& step = cluster.steps[stepIndex];
    if (!m_pipelineRank) return;
    const std::vector<RankId> ranks = PipelineRanks(cluster.parallel, *m_pipelineRank);
    if (ranks.empty() || (ranks == m_requestedRanks && step == m_requestedStep)) return;
    m_requestedRanks = ranks;
    m_requestedStep = step;
    std::shared_ptr<const MareyTables> cached = m_load ? m_load->tables : nullptr;
    const Cluster* source = &cluster;
    m_job.Request([source, ranks, step, cached] { return Load(source, ranks, step, cached); });
}

void PipelineView::DrawControls() {
    const ParallelLayout& layout = m_document.cluster.parallel;
    if (!m_pipelineRank || layout.StageOf(m_pipelineRank->value()) < 0) {
        const std::optional<RankId>& selected = m_document.selection.rank;
        m_pipelineRank = selected && layout.StageOf(selected->value()) >= 0
                             ? *selected
                             : RankId(layout.stages.front().ranks.front());
    }
    DrawStepAndGroupPickers(m_document);
    // A group chosen in the picker (a pipeline's p2p pair, a stage, a TP group) shows the
    // pipeline of its first rank that has a stage.
    if (m_document.selection.group != m_shownGroup) {
        m_shownGroup = m_document.selection.group;
        for (const int rank : m_document.GroupRanks())
            if (m_shownGroup && layout.StageOf(rank) >= 0) {
                m_pipelineRank = RankId(rank);
                break;
            }
    }
    SameLineIfRoom(ImGui::CalcTextSize("Pipeline of rank").x + 130);  // else under the pickers
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Pipeline of rank");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    int rank = m_pipelineRank->value();
    if (ImGui::InputInt("##pipelineRank", &rank, 1, 10) && layout.StageOf(rank) >= 0)
        m_pipelineRank = RankId(rank);
    SameLineIfRoom(ImGui::CalcTextSize("Whole step").x + 20, 12);
    if (ImGui::Button("Whole step")) ShowWholeStep();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show the whole step again (Home)");
    if (!m_document.selection.step && m_document.cluster.steps.size() > 1)
        NoteAfter(("(step " + m_document.cluster.steps.front() +
                   ": the average over steps has no operators)")
                      .c_str(),
                  12);
    Refresh();
}

// One line of figures: the microbatches and how they were found, the bubble against the ideal,
// the verdict (which stage holds the others up, or why the bubble is wider).
void PipelineView::DrawSummary() const {
    const PipelineSchedule& schedule = m_load->schedule;
    std::string line =
        CountText(schedule.stages.size(), "stage", "stages") + " · step " + m_load->step + " · ";
    if (schedule.microbatches > 0)
        line += CountText(schedule.microbatches, "microbatch", "microbatches") + " (" +
                schedule.markedBy + ")";
    else
        line += "no microbatches: " + schedule.markedBy;
    line += " · bubble " + FormatPercent(schedule.meanBubble) + " on average";
    if (schedule.microbatches > 0) line += ", 1F1B's ideal " + FormatPercent(schedule.idealBubble);
    ImGui::TextWrapped("%s", line.c_str());
    if (!schedule.verdict.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.4f, 1), "%s", schedule.verdict.c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "Computing: the union of a stage's computations within the pipeline's span.\n"
                "Bubble: the share of that span in which the stage computes nothing.\n"
                "1F1B's ideal: (p - 1) / (m + p - 1) for p stages and m microbatches.\n"
                "A stage computing 10 %% longer than the median stage holds the others up; else "
                "a bubble\n5 points over the ideal comes from the stage idling longest, neither "
                "computing nor receiving.");
    }
    // Stages without operators in the step: why, one line a reason (found once, in Load).
    for (const std::string& reason : m_load->problems)
        ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.35f, 1), "%s", reason.c_str());
    if (schedule.unpaired > 0)
        ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.35f, 1), "%s",
                           (CountText(schedule.unpaired, "Send or Receive", "Sends and Receives") +
                            " without a pair on a neighbouring stage")
                               .c_str());
}

// The colours: the longest operator types, then the transfers and other communication.
void PipelineView::DrawLegend() const {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    bool first = true;
    auto key = [&](const Rgba& color, const std::string& text) {
        // A key that would pass the window's edge starts the next line.
        if (!first) {
            ImGui::SameLine(0, 14);
            if (ImGui::GetCursorScreenPos().x + 16 + ImGui::CalcTextSize(text.c_str()).x > right)
                ImGui::NewLine();
        }
        first = false;
        const ImVec2 at = ImGui::GetCursorScreenPos();
        draw->AddRectFilled(ImVec2(at.x, at.y + 3), ImVec2(at.x + 12, at.y + 15), U32(color));
        ImGui::Dummy(ImVec2(14, 16));
        ImGui::SameLine();
        ImGui::TextUnformatted(text.c_str());
    };
    for (size_t t = 0; t < std::min(kTypeColors, m_load->types.size()); ++t)
        key(kTypePalette[t], m_load->types[t].type);
    if (m_load->types.size() > kTypeColors) key(kOtherType, "other types");
    key(kSendColor, "Send");
    key(kReceiveColor, "Receive");
    key(kCommunicationColor, "other communication");
    if (m_denseDrawn)
        key(kDenseColor, "several operators a pixel, as bright as they are busy (zoom in)");
    if (m_arrowsHidden) {
        const char* hint = "more sends than can be read: zoom in to see their arrows";
        ImGui::SameLine(0, 14);
        if (ImGui::GetCursorScreenPos().x + ImGui::CalcTextSize(hint).x > right) ImGui::NewLine();
        ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.4f, 1), "%s", hint);
    }
}

namespace {

// The operator under the mouse, with its description as a tooltip; none when no operator is.
PipeOperatorRef HoverOperator(const Plot& plot, const PipelineLoad& load, bool canOpen) {
    const ImVec2 mouse = ImGui::GetMousePos();
    if (mouse.y < plot.origin.y || mouse.x < plot.origin.x) return {};
    const size_t stage = static_cast<size_t>((mouse.y - plot.origin.y) / plot.lanePx);
    if (stage >= load.marey.devices.size()) return {};
    // The lower part of a lane shows the transfers on top: there the mouse means them.
    int64_t op = -1;
    const float depth = (mouse.y - plot.LaneTop(stage)) / plot.barPx;
    if (depth >= 0.45f) {
        // The lowest quarter shows the sends over the receives: there a send wins.
        const double at = plot.Ns(mouse.x), slack = 2 * plot.nsPerPx;
        for (const uint32_t t : load.transferOps[stage]) {
            const MareyOp& transfer = load.marey.devices[stage].ops[t];
            const bool send = load.schedule.stages[stage].kinds[t] == PipeOpKind::kSend;
            if (send && depth < 0.75f) continue;
            if (transfer.startNs - slack <= at && at <= transfer.endNs + slack && (op < 0 || send))
                op = t;
        }
    }
    if (op < 0)
        op = MareyOpAt(load.marey.devices[stage], load.runningEnds[stage], plot.Ns(mouse.x),
                       2 * plot.nsPerPx);
    if (op < 0) return {};
    const PipeOperatorRef ref{static_cast<int>(stage), op};
    ImGui::SetTooltip("%s%s", OperatorDescription(load, ref).c_str(),
                      canOpen
                          ? "\nClick to select it, double-click to open the rank's timeline at it"
                          : "\nClick to select it");
    return ref;
}

// A white frame around the operator selected, when it is in the range shown.
void DrawSelected(ImDrawList* draw, const Plot& plot, const PipelineLoad& load,
                  const PipeOperatorRef& selected) {
    if (!selected.Valid() || static_cast<size_t>(selected.stage) >= load.marey.devices.size())
        return;
    const MareyDevice& device = load.marey.devices[static_cast<size_t>(selected.stage)];
    if (static_cast<size_t>(selected.op) >= device.ops.size()) return;
    const MareyOp& op = device.ops[static_cast<size_t>(selected.op)];
    const float top = plot.LaneTop(static_cast<size_t>(selected.stage));
    const float x0 = plot.X(static_cast<double>(op.startNs));
    draw->AddRect(
        ImVec2(x0 - 1, top - 1),
        ImVec2(std::max(x0 + 2, plot.X(static_cast<double>(op.endNs))) + 1, top + plot.barPx + 1),
        IM_COL32(255, 255, 255, 255), 0, 0, 2);
}

// Wheel zooms around the mouse, a drag pans, a double click shows the whole span.
void ZoomAndPan(const Plot& plot, double& startNs, double& endNs, double spanStart, double spanEnd,
                bool& dragging, bool overOperator) {
    ImGuiIO& io = ImGui::GetIO();
    const double range = endNs - startNs;
    if (ImGui::IsItemHovered() && io.MouseWheel != 0) {
        const double at = plot.Ns(io.MousePos.x);
        const double factor = std::pow(0.8, io.MouseWheel);
        const double width = std::clamp(range * factor, 1000.0, (spanEnd - spanStart) * 1.2);
        startNs = at - (at - startNs) * width / range;
        endNs = startNs + width;
    }
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3)) {
        dragging = true;
        startNs -= io.MouseDelta.x * plot.nsPerPx;
        endNs -= io.MouseDelta.x * plot.nsPerPx;
    }
    if (ImGui::IsItemHovered() && !overOperator &&
        ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
        startNs = spanStart;
        endNs = spanEnd;
    }
    // Never far past the step: a tenth of it beyond either end at most.
    const double width = endNs - startNs, margin = (spanEnd - spanStart) * 0.1;
    if (startNs < spanStart - margin) startNs = spanStart - margin, endNs = startNs + width;
    if (endNs > spanEnd + margin) endNs = spanEnd + margin, startNs = endNs - width;
}

}  // namespace

void PipelineView::Draw(ViewContext& context) {
    const ParallelLayout& layout = m_document.cluster.parallel;
    if (layout.stages.empty()) {
        ImGui::TextWrapped(
            "No pipeline: the parallel layout of this cluster has no stages. The stages are read "
            "from the ranks' profiler_metadata.json (pipeline_model_parallel_size and its pp "
            "groups), a database's META_DATA, Kineto's distributedInfo, msprof-analyze's named "
            "groups or MindInsight's pipeline files; else inferred from the Send and Receive "
            "groups.");
        return;
    }
    DrawControls();
    if (!m_load) {
        ImGui::TextDisabled("Reading the pipeline's kernel_details.csv…");
        return;
    }
    if (m_job.Busy()) {
        ImGui::SameLine(0, 20);
        ImGui::TextColored(ImVec4(1, 0.8f, 0.4f, 1), "loading…");
    }
    const PipelineLoad& load = *m_load;
    if (load.marey.keys.empty()) {
        bool noFile = false;
        for (const std::string& reason : SummarizeDeviceProblems(load.marey, 8, &noFile))
            ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.35f, 1.0f), "%s", reason.c_str());
        return;
    }
    DrawSummary();
    DrawLegend();
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    Plot plot;
    plot.origin = ImVec2(start.x + kGutter, start.y + kRuler);
    plot.width = std::max(100.0f, avail.x - kGutter - 8);
    const size_t lanes = load.marey.devices.size();
    // The panels below take a third of the height, at least enough for a few rows.
    const float panelPx = std::clamp(avail.y * 0.3f, 120.0f, 240.0f);
    // Lanes of at least kMinLanePx: in a short window the view scrolls rather than squeeze them
    // into lines no one can read or point at.
    plot.lanePx = std::clamp((avail.y - kRuler - 18 - panelPx) / static_cast<float>(lanes),
                             kMinLanePx, 56.0f);
    plot.barPx = std::max(2.0f, plot.lanePx * 0.7f);
    if (m_viewEndNs <= m_viewStartNs) m_viewEndNs = m_viewStartNs + 1;
    plot.startNs = m_viewStartNs;
    plot.nsPerPx = (m_viewEndNs - m_viewStartNs) / plot.width;
    plot.pxPerNs = 1 / plot.nsPerPx;
    const float lanesHeight = plot.lanePx * static_cast<float>(lanes);
    ImGui::SetCursorScreenPos(plot.origin);
    ImGui::InvisibleButton("pipeline", ImVec2(plot.width, lanesHeight));
    const bool released = ImGui::IsItemDeactivated() && !m_dragging;
    const bool hovered = ImGui::IsItemHovered();
    const bool doubleClicked = hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left);
    if (!ImGui::IsItemActive()) m_dragging = false;
    const bool canOpen = m_document.CanOpenRanks();
    const PipeOperatorRef under =
        hovered && !m_dragging ? HoverOperator(plot, load, canOpen) : PipeOperatorRef{};
    ZoomAndPan(plot, m_viewStartNs, m_viewEndNs, static_cast<double>(load.schedule.spanStartNs),
               static_cast<double>(load.wholeStepEndNs), m_dragging, under.Valid());
    // A click on no operator clears the panel; the second click of a double click (which reset
    // the zoom) selects nothing.
    if (doubleClicked) m_doubleClickHeld = true;
    if (released && !m_doubleClickHeld) m_selected = under;
    if (released) m_doubleClickHeld = false;
    if (ImGui::IsWindowFocused() && ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) m_selected = {};
    if (ImGui::IsWindowFocused() && ImGui::IsKeyPressed(GLFW_KEY_HOME, false)) ShowWholeStep();
    if (m_settleFrames > 0) --m_settleFrames;
    if (doubleClicked && under.Valid() && canOpen)
        RequestOpenOperator(load, under, m_document, context.clusterRequest);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (size_t s = 0; s < lanes; s += 2)
        draw->AddRectFilled(
            ImVec2(plot.origin.x - kGutter, plot.origin.y + static_cast<float>(s) * plot.lanePx),
            ImVec2(plot.origin.x + plot.width,
                   plot.origin.y + static_cast<float>(s + 1) * plot.lanePx),
            IM_COL32(255, 255, 255, 10));
    DrawRuler(draw, plot, lanesHeight);
    draw->PushClipRect(ImVec2(plot.origin.x, plot.origin.y),
                       ImVec2(plot.origin.x + plot.width, plot.origin.y + lanesHeight), true);
    // The legend names the merged bars from the next frame on, once some are drawn.
    m_denseDrawn = false;
    for (size_t s = 0; s < lanes; ++s) m_denseDrawn |= DrawLane(draw, plot, load, s);
    DrawSelected(draw, plot, load, m_selected);
    draw->PopClipRect();
    m_arrowsHidden = !DrawArrows(draw, plot, load);
    DrawLaneLabels(draw, plot, load);
    // The gutter names the lane under the mouse, labelled or not.
    const ImVec2 mouse = ImGui::GetMousePos();
    if (ImGui::IsWindowHovered() && mouse.x >= plot.origin.x - kGutter && mouse.x < plot.origin.x &&
        mouse.y >= plot.origin.y && mouse.y < plot.origin.y + lanesHeight) {
        const size_t s = static_cast<size_t>((mouse.y - plot.origin.y) / plot.lanePx);
        if (s < lanes) {
            const PipeStageFigures& stage = load.schedule.stages[s];
            ImGui::SetTooltip("stage %zu · rank %d · %s", s, stage.rankId.value(),
                              stage.bubble < 0 ? "no operators in the step"
                                               : ("bubble " + FormatPercent(stage.bubble)).c_str());
        }
    }
    ImGui::SetCursorScreenPos(ImVec2(start.x, plot.origin.y + lanesHeight + 10));
    // Lanes at their tallest leave room: the panels take it.
    DrawPipelinePanels(load, m_selected, m_document, context.clusterRequest,
                       std::max(panelPx, ImGui::GetContentRegionAvail().y - 4));
}

}  // namespace marey

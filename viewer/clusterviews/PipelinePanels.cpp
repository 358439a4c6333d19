#include "clusterviews/PipelinePanels.hpp"

#include <imgui.h>

#include <cctype>

#include "clusterviews/ClusterCommon.hpp"
#include "core/TextFormat.hpp"
#include "workspace/ClusterDocument.hpp"

namespace marey {
namespace {

const char* SpecialName(PipeSpecial special) {
    switch (special) {
        case PipeSpecial::kRedistribution:
            return "redistribution (changes how a tensor is split between ranks)";
        case PipeSpecial::kGradientAggregation:
            return "gradient aggregation (an AllReduce after the stage's last computation)";
        default:
            return nullptr;
    }
}

std::string CountCell(const PipeSpecialCount& count) {
    if (count.operators == 0) return "-";
    return std::to_string(count.operators) + " · " + Ms(count.ns);
}

// Each stage's transfers and special operators, one row a stage.
void DrawSpecialTable(const PipelineLoad& load) {
    ImGui::TextUnformatted("Special operators by stage");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "The files do not say why a collective runs; its name and place do:\n"
            "AllGather, ReduceScatter, AllToAll, Broadcast and Redistribution operators "
            "redistribute a tensor;\nan AllReduce after the stage's last computation aggregates "
            "the gradients, one between computations\nreduces a split result "
            "(redistribution). Each cell: operators · their time.\n"
            "Idle: the part of the pipeline's span in which none of the stage's operators runs.");
    // Columns keep their widths in a narrow window: the table scrolls sideways instead.
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                  ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("special", 8, flags, ImVec2(0, ImGui::GetContentRegionAvail().y)))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* column : {"stage", "rank", "computing", "bubble", "idle", "sends / receives",
                               "redistribution", "gradient aggregation"})
        ImGui::TableSetupColumn(column);
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(load.schedule.stages.size()));
    while (clipper.Step())
        for (int s = clipper.DisplayStart; s < clipper.DisplayEnd; ++s) {
            const PipeStageFigures& stage = load.schedule.stages[static_cast<size_t>(s)];
            ImGui::TableNextRow();
            const std::string cells[] = {
                std::to_string(s),
                ToString(stage.rankId),
                Ms(stage.computingNs),
                stage.bubble < 0 ? "-" : FormatPercent(stage.bubble),
                stage.bubble < 0 ? "-" : Ms(stage.idleNs),
                std::to_string(stage.sends) + " / " + std::to_string(stage.receives),
                CountCell(stage.redistribution),
                CountCell(stage.aggregation)};
            for (const std::string& cell : cells) {
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(cell.c_str());
            }
        }
    ImGui::EndTable();
}

}  // namespace

std::string OperatorTypeOfName(const std::string& name) {
    size_t end = name.size();
    while (end > 0 && std::isdigit(static_cast<unsigned char>(name[end - 1]))) --end;
    if (end == name.size() || end == 0) return name;
    if (name[end - 1] == '_') return name.substr(0, end - 1);
    if (end >= 3 && name.compare(end - 3, 3, "-op") == 0) return name.substr(0, end - 3);
    return name;
}

const char* PipeOpKindName(PipeOpKind kind) {
    switch (kind) {
        case PipeOpKind::kSend:
            return "Send";
        case PipeOpKind::kReceive:
            return "Receive";
        case PipeOpKind::kOtherCommunication:
            return "communication";
        default:
            return "computation";
    }
}

std::string OperatorDescription(const PipelineLoad& load, const PipeOperatorRef& ref) {
    const size_t stage = static_cast<size_t>(ref.stage), op = static_cast<size_t>(ref.op);
    const MareyDevice& device = load.marey.devices[stage];
    const MareyOp& chosen = device.ops[op];
    const PipeStageFigures& figures = load.schedule.stages[stage];
    const std::string& name = load.marey.names[load.marey.keys[chosen.key].name];
    std::string text = load.marey.KeyLabel(chosen.key) + "\ntype " + OperatorTypeOfName(name) +
                       ", " + PipeOpKindName(figures.kinds[op]) + ", on " +
                       CoreClassName(load.marey.keys[chosen.key].coreClass) + "\nstage " +
                       std::to_string(stage) + ", rank " + ToString(device.rankId) + "\nstarts " +
                       Ms(chosen.startNs) + " into the step, lasts " +
                       FormatDuration(chosen.endNs - chosen.startNs);
    if (const char* special = SpecialName(figures.special[op])) text += "\n" + std::string(special);
    const int32_t t = figures.transferOf[op];
    if (t >= 0) {
        const PipeTransfer& transfer = load.schedule.transfers[static_cast<size_t>(t)];
        const bool sends = transfer.fromStage == stage;
        text += "\n" + TransferLabel(transfer) + ": microbatch " +
                std::to_string(transfer.microbatch + 1) +
                (transfer.forward ? "'s activation" : "'s gradient") +
                (sends ? ", to stage " + std::to_string(transfer.toStage)
                       : ", from stage " + std::to_string(transfer.fromStage)) +
                " (" + load.schedule.markedBy + ")";
    } else if (figures.kinds[op] == PipeOpKind::kSend ||
               figures.kinds[op] == PipeOpKind::kReceive) {
        text += "\nno pair found on a neighbouring stage";
    }
    return text;
}

void RequestOpenOperator(const PipelineLoad& load, const PipeOperatorRef& ref,
                         const ClusterDocument& document, ClusterRequest& request) {
    const MareyDevice& device = load.marey.devices[static_cast<size_t>(ref.stage)];
    const MareyOp& chosen = device.ops[static_cast<size_t>(ref.op)];
    request.kind = ClusterRequest::kOpenRank, request.cluster = document.id,
    request.rankA = RankId(device.rankId);
    request.view = "timeline";
    request.startNs = device.stepStartNs + chosen.startNs;
    request.endNs = device.stepStartNs + chosen.endNs;
    request.label = load.marey.KeyLabel(chosen.key);
}

void DrawPipelinePanels(const PipelineLoad& load, const PipeOperatorRef& selected,
                        const ClusterDocument& document, ClusterRequest& request, float height) {
    const float width = ImGui::GetContentRegionAvail().x;
    ImGui::BeginChild("special operators", ImVec2(width * 0.62f, height), false);
    DrawSpecialTable(load);
    ImGui::EndChild();
    ImGui::SameLine(0, 12);
    ImGui::BeginChild("operator attributes", ImVec2(0, height), true);
    ImGui::TextUnformatted("Operator");
    ImGui::Separator();
    const bool valid = selected.Valid() &&
                       static_cast<size_t>(selected.stage) < load.marey.devices.size() &&
                       static_cast<size_t>(selected.op) <
                           load.marey.devices[static_cast<size_t>(selected.stage)].ops.size();
    if (!valid) {
        ImGui::TextDisabled("Click an operator to see its attributes here.");
    } else {
        ImGui::TextWrapped("%s", OperatorDescription(load, selected).c_str());
        if (document.CanOpenRanks() && ImGui::Button("Open in the rank's timeline"))
            RequestOpenOperator(load, selected, document, request);
    }
    ImGui::EndChild();
}

}  // namespace marey

#include "views/CommunicationView.hpp"
#include "viewkit/ViewContext.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "core/TextFormat.hpp"
#include "workspace/Document.hpp"

namespace marey {
namespace {

enum Column {
    kStep,
    kName,
    kStart,
    kElapse,
    kTransit,
    kWait,
    kSync,
    kIdle,
    kWaitRatio,
    kSyncRatio,
    kColumnCount
};

std::string Fixed(double value, const char* unit) {
    char text[48];
    std::snprintf(text, sizeof text, "%.2f %s", value, unit);
    return text;
}

std::string Ratio(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", value);
    return text;
}

// The cells of how an operator's time split; dashes when the source does not say (a trace alone
// records when an operator ran, not what it waited for).
void SplitCells(const CommunicationOp& op, bool split) {
    const std::string cells[] = {FormatDuration(op.transitNs), FormatDuration(op.waitNs),
                                 FormatDuration(op.syncNs),    FormatDuration(op.idleNs),
                                 Ratio(op.waitRatio),          Ratio(op.syncRatio)};
    for (const std::string& cell : cells) {
        ImGui::TableNextColumn();
        RightAligned(split ? cell : "–");
    }
}

}  // namespace

void CommunicationView::DrawOperators(const RankAnalysis& analysis, TimelineRequest& request) {
    const std::vector<CommunicationOp>& ops = analysis.communication->ops;
    const bool elapseOnly = analysis.communication->elapseOnly;
    const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("ops", kColumnCount, flags,
                           ImVec2(0, ImGui::GetContentRegionAvail().y * 0.5f)))
        return;
    ImGui::TableSetupScrollFreeze(2, 1);
    ImGui::TableSetupColumn("Step", ImGuiTableColumnFlags_DefaultSort, 70, kStep);
    ImGui::TableSetupColumn("Operator", ImGuiTableColumnFlags_WidthStretch, 0, kName);
    ImGui::TableSetupColumn(analysis.hasTrace ? "Start (timeline)" : "Start (from the first)", 0,
                            100, kStart);
    ImGui::TableSetupColumn("Elapse", ImGuiTableColumnFlags_PreferSortDescending, 90, kElapse);
    ImGui::TableSetupColumn("Transit", ImGuiTableColumnFlags_PreferSortDescending, 90, kTransit);
    ImGui::TableSetupColumn("Wait", ImGuiTableColumnFlags_PreferSortDescending, 90, kWait);
    ImGui::TableSetupColumn("Synchronisation", ImGuiTableColumnFlags_PreferSortDescending, 125,
                            kSync);
    ImGui::TableSetupColumn("Idle", ImGuiTableColumnFlags_PreferSortDescending, 90, kIdle);
    ImGui::TableSetupColumn("Wait ratio", ImGuiTableColumnFlags_PreferSortDescending, 80,
                            kWaitRatio);
    ImGui::TableSetupColumn("Sync. ratio", ImGuiTableColumnFlags_PreferSortDescending, 80,
                            kSyncRatio);
    ImGui::TableHeadersRow();
    if (TakeSortSpecs(&m_sortColumn, &m_sortAscending)) m_orderValid = false;  // re-sort
    if (!m_orderValid) {
        m_order.clear();
        for (size_t i = 0; i < ops.size(); ++i)
            if (!ops[i].isTotal) m_order.push_back(i);
        auto key = [&](const CommunicationOp& op) -> double {
            switch (m_sortColumn) {
                case kStart:
                    return static_cast<double>(op.startNs);
                case kElapse:
                    return static_cast<double>(op.elapseNs);
                case kTransit:
                    return static_cast<double>(op.transitNs);
                case kWait:
                    return static_cast<double>(op.waitNs);
                case kSync:
                    return static_cast<double>(op.syncNs);
                case kIdle:
                    return static_cast<double>(op.idleNs);
                case kWaitRatio:
                    return op.waitRatio;
                case kSyncRatio:
                    return op.syncRatio;
                default:
                    return 0;
            }
        };
        std::stable_sort(m_order.begin(), m_order.end(), [&](size_t a, size_t b) {
            const CommunicationOp& x = ops[a];
            const CommunicationOp& y = ops[b];
            if (m_sortColumn == kStep || m_sortColumn == kName) {
                // "step9" before "step10": by length, then text.
                const std::string& p = m_sortColumn == kStep ? x.step : x.name;
                const std::string& q = m_sortColumn == kStep ? y.step : y.name;
                const bool less = p.size() != q.size() ? p.size() < q.size() : p < q;
                const bool greater = p.size() != q.size() ? p.size() > q.size() : p > q;
                return m_sortAscending ? less : greater;
            }
            return m_sortAscending ? key(x) < key(y) : key(x) > key(y);
        });
        m_orderValid = true;
    }
    // Starts are shown on the timeline's axis (from the trace's first timestamp: the file's clock
    // is the trace's); without a trace, from the first operator, as the column header says.
    TimeNs firstStart = INT64_MAX;
    for (const CommunicationOp& op : ops)
        if (op.hasStart) firstStart = std::min(firstStart, op.startNs);
    if (analysis.hasTrace) firstStart = analysis.traceStartNs;
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(m_order.size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const size_t index = m_order[static_cast<size_t>(i)];
            const CommunicationOp& op = ops[index];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(i);
            if (ImGui::Selectable(op.step.c_str(), index == m_selected,
                                  ImGuiSelectableFlags_SpanAllColumns)) {
                m_selected = index;
                if (op.hasStart) {
                    request.kind = TimelineRequest::kShowRange;
                    request.startNs = op.startNs;
                    request.endNs = op.startNs + std::max<TimeNs>(op.elapseNs, 1000);
                    request.switchToTimeline = true;
                    request.label = op.name;
                    request.selectName = op.name;
                }
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s@%s (%s)\nclick: show it in the timeline", op.name.c_str(),
                                  op.group.c_str(), op.kind.c_str());
            ImGui::PopID();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(op.name.c_str());
            ImGui::TableNextColumn();
            if (op.hasStart) RightAligned("+" + FormatDuration(op.startNs - firstStart));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(op.elapseNs));
            SplitCells(op, !elapseOnly);
        }
    }
    ImGui::EndTable();
}

void CommunicationView::DrawPackets(const TransportTotal& transport, float width, float height) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(width, height));
    if (transport.sizes.empty()) {
        draw->AddText(ImVec2(origin.x + 8, origin.y + height / 2 - 8), IM_COL32(150, 150, 160, 255),
                      ("no packets over " + transport.transport).c_str());
        return;
    }
    uint64_t most = 1;
    for (const PacketSizeBucket& bucket : transport.sizes) most = std::max(most, bucket.count);
    const float plotHeight = height - 34;
    const float slot = width / static_cast<float>(transport.sizes.size());
    const float barWidth = std::min(60.0f, slot * 0.7f);
    for (size_t i = 0; i < transport.sizes.size(); ++i) {
        const PacketSizeBucket& bucket = transport.sizes[i];
        const float h = static_cast<float>(bucket.count) / static_cast<float>(most) * plotHeight;
        const float x = origin.x + slot * (static_cast<float>(i) + 0.5f) - barWidth / 2;
        const float bottom = origin.y + 16 + plotHeight;
        draw->AddRectFilled(ImVec2(x, bottom - h), ImVec2(x + barWidth, bottom),
                            PackColor(OverlappedColor()), 2.0f);
        const std::string count = std::to_string(bucket.count);
        draw->AddText(
            ImVec2(x + barWidth / 2 - ImGui::CalcTextSize(count.c_str()).x / 2, bottom - h - 16),
            IM_COL32(210, 214, 222, 255), count.c_str());
        char label[32];
        std::snprintf(label, sizeof label, "%.3g MB", bucket.sizeMb);
        if (ImGui::CalcTextSize(label).x < slot - 2)
            draw->AddText(ImVec2(x + barWidth / 2 - ImGui::CalcTextSize(label).x / 2, bottom + 3),
                          IM_COL32(160, 165, 175, 255), label);
        if (ImGui::IsMouseHoveringRect(ImVec2(x, origin.y), ImVec2(x + barWidth, bottom)))
            ImGui::SetTooltip("%s packets of %.6g MB: %llu, %s in total",
                              transport.transport.c_str(), bucket.sizeMb,
                              static_cast<unsigned long long>(bucket.count),
                              FormatDuration(bucket.totalNs).c_str());
    }
}

void CommunicationView::DrawTransports(const RankAnalysis& analysis) {
    const std::vector<TransportTotal>& transports = analysis.communicationTotals.transports;
    const float tableWidth = std::min(560.0f, ImGui::GetContentRegionAvail().x * 0.5f);
    ImGui::BeginChild("transports", ImVec2(tableWidth, 0));
    SectionTitle("Bandwidth per transport (all operators)");
    if (ImGui::BeginTable("transport", 5,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                              ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("Transport", 0, 90);
        ImGui::TableSetupColumn("Transit size", 0, 110);
        ImGui::TableSetupColumn("Transit time", 0, 100);
        ImGui::TableSetupColumn("Bandwidth", 0, 100);
        ImGui::TableSetupColumn("Packets", 0, 70);
        ImGui::TableHeadersRow();
        for (size_t i = 0; i < transports.size(); ++i) {
            const TransportTotal& t = transports[i];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(static_cast<int>(i));
            if (ImGui::Selectable(t.transport.c_str(), m_transport == static_cast<int>(i),
                                  ImGuiSelectableFlags_SpanAllColumns))
                m_transport = static_cast<int>(i);
            ImGui::PopID();
            ImGui::TableNextColumn();
            RightAligned(Fixed(t.transitSizeMb, "MB"));
            ImGui::TableNextColumn();
            RightAligned(FormatDuration(t.transitNs));
            ImGui::TableNextColumn();
            RightAligned(Fixed(t.bandwidthGBps, "GB/s"));
            ImGui::TableNextColumn();
            uint64_t packets = 0;
            for (const PacketSizeBucket& bucket : t.sizes) packets += bucket.count;
            RightAligned(std::to_string(packets));
        }
        ImGui::EndTable();
    }
    ImGui::EndChild();
    ImGui::SameLine(0, 16);
    ImGui::BeginChild("packets", ImVec2(0, 0));
    if (m_transport >= static_cast<int>(transports.size())) m_transport = 0;
    if (!transports.empty()) {
        SectionTitle(("Packet sizes over " +
                      transports[static_cast<size_t>(m_transport)].transport + " (count per size)")
                         .c_str());
        DrawPackets(transports[static_cast<size_t>(m_transport)], ImGui::GetContentRegionAvail().x,
                    std::max(120.0f, std::min(220.0f, ImGui::GetContentRegionAvail().y * 0.5f)));
    }
    DrawLinks(analysis);
    ImGui::EndChild();
}

void CommunicationView::DrawLinks(const RankAnalysis& analysis) {
    SectionTitle(analysis.database.empty() ? "Links of this rank (communication_matrix.json)"
                                           : "Links of this rank (analysis.db CommAnalyzerMatrix)");
    if (!analysis.matrix) {
        DrawMissingFile(kCommunicationMatrixFile, "The link table");
        return;
    }
    // Totals per (source, destination, transport) over every step and group.
    struct LinkTotal {
        int src, dst;
        std::string transport;
        double sizeMb = 0;
        TimeNs ns = 0;
    };
    std::vector<LinkTotal> totals;
    for (const CommunicationLink& link : analysis.matrix->links) {
        auto it = std::find_if(totals.begin(), totals.end(), [&](const LinkTotal& t) {
            return t.src == link.srcRank && t.dst == link.dstRank && t.transport == link.transport;
        });
        if (it == totals.end())
            totals.push_back({link.srcRank, link.dstRank, link.transport}), it = totals.end() - 1;
        it->sizeMb += link.transitSizeMb;
        it->ns += link.transitNs;
    }
    if (!ImGui::BeginTable(
            "links", 5,
            ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Link", 0, 80);
    ImGui::TableSetupColumn("Transport", 0, 80);
    ImGui::TableSetupColumn("Transit size", 0, 110);
    ImGui::TableSetupColumn("Transit time", 0, 100);
    ImGui::TableSetupColumn("Bandwidth", 0, 100);
    ImGui::TableHeadersRow();
    for (const LinkTotal& t : totals) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%d → %d", t.src, t.dst);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(t.transport.c_str());
        ImGui::TableNextColumn();
        RightAligned(Fixed(t.sizeMb, "MB"));
        ImGui::TableNextColumn();
        RightAligned(FormatDuration(t.ns));
        ImGui::TableNextColumn();
        RightAligned(t.ns > 0 ? Fixed(t.sizeMb / (static_cast<double>(t.ns) / 1e6), "GB/s")
                              : std::string("-"));
    }
    ImGui::EndTable();
}

void CommunicationView::Draw(const RankAnalysis& analysis, TimelineRequest& request) {
    if (!analysis.communication && analysis.kernelsFromTrace) {  // a trace alone, searched
        ImGui::TextDisabled(
            "No communication in this trace: no NCCL, RCCL or HCCL kernel ran on its device "
            "streams, and it records no HCCL operator.");
        return;
    }
    if (!analysis.communication) {
        DrawMissingFile(kCommunicationFile, "The communication view");
        return;
    }
    const CommunicationTotals& t = analysis.communicationTotals;
    if (analysis.communication->elapseOnly) {
        DrawFromTrace(analysis, request);
        return;
    }
    ImGui::Text("%llu communication operators", static_cast<unsigned long long>(t.operators));
    ImGui::SameLine(0, 24);
    ImGui::TextDisabled(
        "elapse %s = transit %s + wait %s + idle %s  (synchronisation %s is part of the wait)",
        FormatDuration(t.elapseNs).c_str(), FormatDuration(t.transitNs).c_str(),
        FormatDuration(t.waitNs).c_str(), FormatDuration(t.idleNs).c_str(),
        FormatDuration(t.syncNs).c_str());
    const std::vector<BarSegment> segments = {
        {"Transit", static_cast<double>(t.transitNs), OverlappedColor()},
        {"Wait", static_cast<double>(t.waitNs), NotOverlappedColor()},
        {"Idle", static_cast<double>(t.idleNs), FreeColor()},
    };
    DrawStackedBar(segments, ImGui::GetContentRegionAvail().x, 22);
    DrawLegend(segments);
    SectionTitle("Operators (click one to see it in the timeline)");
    DrawOperators(analysis, request);
    DrawTransports(analysis);
}

// Operators found in the trace alone: when each ran and for how long, the communication
// kernels' (GPU) or HCCL's operator slices (Ascend); no transit or wait split, no links.
void CommunicationView::DrawFromTrace(const RankAnalysis& analysis, TimelineRequest& request) {
    const CommunicationTotals& t = analysis.communicationTotals;
    ImGui::Text("%s, elapse %s in all",
                CountText(t.operators, "communication operator", "communication operators").c_str(),
                FormatDuration(t.elapseNs).c_str());
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled(
        "From the trace alone: each operator's start and length. How its time splits into "
        "transit, wait and idle, and its links, are in the Ascend profiler's communication.json "
        "and communication_matrix.json; across a cluster of rank traces the cluster views "
        "estimate the waits.");
    ImGui::PopTextWrapPos();
    SectionTitle("Operators (click one to see it in the timeline)");
    DrawOperators(analysis, request);
}

void CommunicationView::Draw(ViewContext& context) {
    Draw(context.document->analysis(), context.request);
}

}  // namespace marey

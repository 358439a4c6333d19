// Once both readers of a profiler database have run: the arrows joined across their tables, the
// Overlap Analysis process, the kernel table finished and every track's slices in order.
#include <algorithm>
#include <thread>

#include "db/DbTimelineReader.hpp"

namespace marey {

void DbTimelineReader::Finish(DbTimelineReader& host, DbTimelineReader& device, bool twoThreads) {
    DbTimeline& out = host.m_out;
    out.arrows = std::move(host.m_arrows);
    out.rowsRead = std::move(device.m_rowsRead);
    out.rowsRead.insert(out.rowsRead.begin(), host.m_rowsRead.begin(), host.m_rowsRead.end());
    out.schemaVersion = device.m_schemaVersion;
    // One count for both parts' rows, said by the part whose problems come first.
    device.m_missingStrings += host.m_missingStrings;
    device.ReportMissingStrings();
    out.farRowids = {std::move(host.m_farRowids), {}};
    auto shapeSlices = [&device] {
        if (!device.m_computing.empty() || !device.m_communication.empty()) device.AddOverlap();
        device.SortSlices();
        device.m_timing.Report("database: overlap analysis, device slices sorted");
    };
    std::thread shapes;
    if (twoThreads)
        shapes = std::thread(shapeSlices);
    else
        shapeSlices();
    device.FinishKernels();
    device.LinkFlows(host);
    device.m_timing.Report("database: operators, arrows joined");
    if (shapes.joinable()) shapes.join();
    out.farRowids[1] = std::move(device.m_farRowids);
}

void DbTimelineReader::LinkFlows(DbTimelineReader& host) {
    auto byConnection = [](const PendingEnd& a, const PendingEnd& b) {
        return a.connection < b.connection;
    };
    // Each list by connection id, each id's ends in table order (mostly so already).
    // Whichever part read CANN_API and CONNECTION_IDS (the split is a matter of balance).
    std::vector<PendingEnd>& cannApis = m_cannApis.empty() ? host.m_cannApis : m_cannApis;
    for (auto* list : {&cannApis, &m_deviceTargets})
        if (!std::is_sorted(list->begin(), list->end(), byConnection))
            std::stable_sort(list->begin(), list->end(), byConnection);
    const std::vector<std::pair<int64_t, int64_t>>& connectionIds =
        m_connectionIds.empty() ? host.m_connectionIds : m_connectionIds;
    // HostToDevice arrows on a thread of their own while the others are joined here.
    std::vector<DbArrow> hostToDevice;
    std::thread launches([&] {
        hostToDevice.reserve(m_deviceTargets.size());
        for (const PendingEnd& target : m_deviceTargets)
            if (const PendingEnd* api = FirstOf(cannApis, target.connection))
                hostToDevice.push_back({api->end, target.end, DbFlowKind::kHostToDevice});
    });
    m_out.arrows.reserve(m_out.arrows.size() + host.m_operators.size() + host.m_enqueues.size() +
                         m_deviceTargets.size());
    uint64_t operatorsToNothing = 0;
    // Operators, their connections and the device rows are each mostly in connection order:
    // each lookup starts where the one before ended.
    size_t idHint = 0, targetHint = 0;
    auto idOf = [](const std::pair<int64_t, int64_t>& entry) { return entry.first; };
    auto connectionOf = [](const PendingEnd& end) { return end.connection; };
    for (const PendingEnd& op : host.m_operators) {
        size_t c = LowerBoundFrom(connectionIds, op.connection, idHint, idOf);
        idHint = c;
        if (c == connectionIds.size() || connectionIds[c].first != op.connection)
            ++operatorsToNothing;
        for (; c < connectionIds.size() && connectionIds[c].first == op.connection; ++c) {
            size_t t =
                LowerBoundFrom(m_deviceTargets, connectionIds[c].second, targetHint, connectionOf);
            targetHint = t;
            for (; t < m_deviceTargets.size() &&
                   m_deviceTargets[t].connection == connectionIds[c].second;
                 ++t)
                m_out.arrows.push_back({op.end, m_deviceTargets[t].end, DbFlowKind::kAsyncNpu});
        }
    }
    // A queue row's connection: the first CONNECTION_IDS entry of its own connectionId.
    size_t queueHint = 0;
    auto queueConnection = [&](const PendingEnd& row) -> std::optional<int64_t> {
        const size_t c = LowerBoundFrom(connectionIds, row.connection, queueHint, idOf);
        queueHint = c;
        if (c == connectionIds.size() || connectionIds[c].first != row.connection)
            return std::nullopt;
        return connectionIds[c].second;
    };
    std::vector<PendingEnd> dequeues;
    dequeues.reserve(host.m_dequeues.size());
    for (const PendingEnd& dequeue : host.m_dequeues)
        if (const auto connection = queueConnection(dequeue))
            dequeues.push_back({*connection, dequeue.end});
    if (!std::is_sorted(dequeues.begin(), dequeues.end(), byConnection))
        std::stable_sort(dequeues.begin(), dequeues.end(), byConnection);
    size_t dequeueHint = 0;
    queueHint = 0;
    for (const PendingEnd& enqueue : host.m_enqueues) {
        const auto connection = queueConnection(enqueue);
        if (!connection) continue;
        const size_t d = LowerBoundFrom(dequeues, *connection, dequeueHint, connectionOf);
        dequeueHint = d;
        if (d < dequeues.size() && dequeues[d].connection == *connection)
            m_out.arrows.push_back({enqueue.end, dequeues[d].end, DbFlowKind::kAsyncTaskQueue});
    }
    launches.join();
    m_out.arrows.insert(m_out.arrows.end(), hostToDevice.begin(), hostToDevice.end());
    if (operatorsToNothing)
        Problem(std::to_string(operatorsToNothing) +
                " PYTORCH_API rows name a connectionId that CONNECTION_IDS does not hold: they "
                "have no arrow to the device");
    // Tasks without a launching API (profiling markers, tasks of a graph) simply have no arrow.
}

void DbTimelineReader::AddOverlap() {
    const int64_t pid = DevicePid(kOverlapSort);
    const char* const names[] = {"Computing", "Communication", "Communication(Not Overlapped)",
                                 "Free"};
    uint32_t tracks[4];
    for (int t = 0; t < 4; ++t)
        tracks[t] = Track(pid, t, "Overlap Analysis", kOverlapSort, "NPU", names[t], t);
    std::vector<std::pair<TimeNs, TimeNs>> steps;
    for (const DbStep& step : m_out.steps) steps.push_back({step.startNs, step.endNs});
    m_out.overlap = AnalyzeOverlap(m_computing, m_communication, steps);
    const OverlapAnalysis& overlap = m_out.overlap;
    const std::vector<TimeRange>* parts[] = {&overlap.computing, &overlap.communication,
                                             &overlap.notOverlapped, &overlap.free};
    uint64_t index = 0;
    for (int t = 0; t < 4; ++t) {
        const StringId name = Intern(names[t]);
        for (const TimeRange& range : *parts[t]) {
            m_events.AddSlice(tracks[t], range.startNs, range.endNs - range.startNs,
                              DbRef(DbTable::kComputed, index++), name);
            ++m_events.eventCount;
            ++m_events.phases.byChar['X'];
        }
    }
}

void DbTimelineReader::FinishKernels() {
    auto& rows = m_out.kernels.rows;
    std::stable_sort(rows.begin(), rows.end(),
                     [](const KernelRow& a, const KernelRow& b) { return a.startNs < b.startNs; });
    for (KernelRow& row : rows) {
        // The step that holds the row's start: the "Step Id" of kernel_details.csv.
        const auto after =
            std::upper_bound(m_out.steps.begin(), m_out.steps.end(), row.startNs,
                             [](TimeNs start, const DbStep& step) { return start < step.startNs; });
        if (after != m_out.steps.begin() && row.startNs <= std::prev(after)->endNs)
            row.step = StepName(static_cast<size_t>(std::prev(after) - m_out.steps.begin()));
    }
}

void DbTimelineReader::ReportMissingStrings() {
    // Without the table every name is missing, and "no table STRING_IDS" says so already.
    if (m_missingStrings && m_db.HasTable("STRING_IDS"))
        Problem(std::to_string(m_missingStrings) +
                " string ids have no row in STRING_IDS: shown as <string N>");
}

void DbTimelineReader::SortSlices() {
    for (ChunkTrack& track : m_events.tracks) {
        SortMostlySorted(track.slices);
        SortMostlySorted(track.wideSlices);
    }
    std::stable_sort(m_events.counters.begin(), m_events.counters.end(),
                     [](const RawCounter& a, const RawCounter& b) { return a.ts < b.ts; });
}

}  // namespace marey

// libFuzzer target: any bytes as communication.json, as msprof-analyze's
// cluster_communication.json, as communication_matrix.json, and as a rank summary file. Every
// problem must have a place inside the text; a summary that reads back must write what it read.
#include <simdjson.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cluster/ClusterRankFile.hpp"
#include "load/CommunicationJson.hpp"
#include "rank/CommunicationStats.hpp"

using namespace marey;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    text.resize(size + simdjson::SIMDJSON_PADDING, '\0');
    const std::string_view view(text.data(), size);
    CommunicationOps ops;
    (void)ParseCommunicationJson(view, "fuzz.json", ops);
    for (const ImportProblem& problem : ops.problems)
        if (problem.byteOffset > size || problem.line == 0) __builtin_trap();
    // A time, size or bandwidth kept is never negative: a negative one leaves its operator out.
    for (const CommunicationOp& op : ops.ops) {
        if (op.elapseNs < 0 || op.transitNs < 0 || op.waitNs < 0 || op.syncNs < 0 || op.idleNs < 0)
            __builtin_trap();
        for (const TransportBandwidth& b : op.bandwidth)
            if (b.transitSizeMb < 0 || b.transitNs < 0) __builtin_trap();
    }
    const CommunicationTotals totals = SumCommunication(ops.ops);
    for (const TransportTotal& transport : totals.transports)
        if (std::isnan(transport.bandwidthGBps))
            (void)transport;  // NaN sizes are allowed in, never a crash
    CommunicationMatrix matrix;
    (void)ParseCommunicationMatrixJson(view, "fuzz.json", matrix);
    for (const ImportProblem& problem : matrix.problems)
        if (problem.byteOffset > size || problem.line == 0) __builtin_trap();
    for (const CommunicationLink& link : matrix.links)
        if (link.srcRank < 0 || link.dstRank < 0 || link.transitNs < 0 || link.transitSizeMb < 0)
            __builtin_trap();
    CommunicationOps clusterOps;
    (void)ParseClusterCommunicationJson(view, "fuzz.json", clusterOps);
    for (const ImportProblem& problem : clusterOps.problems)
        if (problem.byteOffset > size || problem.line == 0) __builtin_trap();
    for (const CommunicationOp& op : clusterOps.ops)
        if (op.rank < 0) __builtin_trap();
    auto summary = ReadRankSummary(view, "fuzz.json");
    if (summary.ok()) {
        // Every index into the names table was checked on the way in.
        for (const RankCollective& c : summary.value().collectives)
            if (c.name >= summary.value().names.size() || c.group >= summary.value().names.size())
                __builtin_trap();
        for (const StepRow& step : summary.value().steps)
            for (const TimeNs ns : step.ns)
                if (ns < 0) __builtin_trap();
        (void)WriteRankSummary(summary.value());
    }
    return 0;
}

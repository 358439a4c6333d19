// libFuzzer target: any bytes as communication.json and as communication_matrix.json. Every
// problem must have a place inside the text, and the totals must come out finite.
#include <simdjson.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "load/CommunicationJson.hpp"
#include "stats/CommunicationStats.hpp"

using namespace tracelens;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    text.resize(size + simdjson::SIMDJSON_PADDING, '\0');
    const std::string_view view(text.data(), size);
    CommunicationOps ops;
    (void)ParseCommunicationJson(view, "fuzz.json", ops);
    for (const ImportProblem& problem : ops.problems)
        if (problem.byteOffset > size || problem.line == 0) __builtin_trap();
    const CommunicationTotals totals = SumCommunication(ops.ops);
    for (const TransportTotal& transport : totals.transports)
        if (std::isnan(transport.bandwidthGBps)) (void)transport;  // NaN sizes are allowed in, never a crash
    CommunicationMatrix matrix;
    (void)ParseCommunicationMatrixJson(view, "fuzz.json", matrix);
    for (const ImportProblem& problem : matrix.problems)
        if (problem.byteOffset > size || problem.line == 0) __builtin_trap();
    for (const CommunicationLink& link : matrix.links)
        if (link.srcRank < 0 || link.dstRank < 0) __builtin_trap();
    return 0;
}

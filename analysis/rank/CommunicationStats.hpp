#pragma once
// Totals over one rank's communication operators: per transport, how much moved, how fast, and
// in which packet sizes.
#include <string>
#include <vector>

#include "load/CommunicationJson.hpp"

namespace marey {

struct TransportTotal {
    std::string transport;
    double transitSizeMb = 0;
    TimeNs transitNs = 0;
    double bandwidthGBps = 0;             // size / time (MB per ms = GB/s); 0 without time
    std::vector<PacketSizeBucket> sizes;  // merged over operators, by size ascending
};

struct CommunicationTotals {
    uint64_t operators = 0;  // not counting "Total Op Info" entries
    TimeNs elapseNs = 0, transitNs = 0, waitNs = 0, syncNs = 0, idleNs = 0;
    std::vector<TransportTotal> transports;  // HCCS, PCIE, RDMA, SDMA, SIO first, then others
};

// Sums every operator that is not a "Total Op Info" summary. O(n log n).
CommunicationTotals SumCommunication(const std::vector<CommunicationOp>& ops);

}  // namespace marey

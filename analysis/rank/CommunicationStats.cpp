#include "rank/CommunicationStats.hpp"

#include <algorithm>
#include <map>

namespace marey {

CommunicationTotals SumCommunication(const std::vector<CommunicationOp>& ops) {
    CommunicationTotals totals;
    std::vector<TransportTotal> transports;
    for (const char* known : {"HCCS", "PCIE", "RDMA", "SDMA", "SIO"})
        transports.push_back(TransportTotal{known, 0, 0, 0, {}});
    std::vector<std::map<double, PacketSizeBucket>> buckets(transports.size());
    for (const CommunicationOp& op : ops) {
        if (op.isTotal) continue;
        ++totals.operators;
        totals.elapseNs = SaturatingAdd(totals.elapseNs, op.elapseNs);
        totals.transitNs = SaturatingAdd(totals.transitNs, op.transitNs);
        totals.waitNs = SaturatingAdd(totals.waitNs, op.waitNs);
        totals.syncNs = SaturatingAdd(totals.syncNs, op.syncNs);
        totals.idleNs = SaturatingAdd(totals.idleNs, op.idleNs);
        for (const TransportBandwidth& bandwidth : op.bandwidth) {
            size_t index = 0;
            while (index < transports.size() && transports[index].transport != bandwidth.transport)
                ++index;
            if (index == transports.size()) {
                transports.push_back(TransportTotal{bandwidth.transport, 0, 0, 0, {}});
                buckets.emplace_back();
            }
            transports[index].transitSizeMb += bandwidth.transitSizeMb;
            transports[index].transitNs =
                SaturatingAdd(transports[index].transitNs, bandwidth.transitNs);
            for (const PacketSizeBucket& size : bandwidth.sizes) {
                PacketSizeBucket& bucket = buckets[index][size.sizeMb];
                bucket.sizeMb = size.sizeMb;
                bucket.count += size.count;
                bucket.totalNs = SaturatingAdd(bucket.totalNs, size.totalNs);
            }
        }
    }
    for (size_t i = 0; i < transports.size(); ++i) {
        TransportTotal& total = transports[i];
        if (total.transitNs > 0)
            total.bandwidthGBps =
                total.transitSizeMb / (static_cast<double>(total.transitNs) / 1e6);
        for (const auto& [size, bucket] : buckets[i]) total.sizes.push_back(bucket);
    }
    totals.transports = std::move(transports);
    return totals;
}

}  // namespace marey

#include "cluster/ClusterLinks.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/RobustStats.hpp"

namespace marey {

std::vector<MatrixCell> BuildMatrix(const Cluster& cluster, const std::string& op) {
    // Every link entry, sorted by (source, destination), then summed per cell: a sort of a flat
    // array, not a tree of cells, so that a 1024 × 1024 full mesh builds in a fraction of a second.
    struct Entry {
        int src, dst;
        const std::string* transport;
        double sizeMb;
        TimeNs transitNs;
    };
    std::vector<Entry> entries;
    for (const ClusterRank& rank : cluster.ranks)
        for (const RankLink& link : rank.links)
            if (op.empty() || rank.Name(link.op) == op)
                entries.push_back({link.srcRank, link.dstRank, &link.transport, link.transitSizeMb,
                                   link.transitNs});
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.src != b.src   ? a.src < b.src
               : a.dst != b.dst ? a.dst < b.dst
                                : *a.transport < *b.transport;
    });
    std::vector<MatrixCell> out;
    for (size_t i = 0; i < entries.size();) {
        MatrixCell cell;
        cell.srcRank = entries[i].src, cell.dstRank = entries[i].dst;
        double most = -1;
        size_t j = i;
        while (j < entries.size() && entries[j].src == cell.srcRank &&
               entries[j].dst == cell.dstRank) {
            // Entries of one transport lie together: sum them, keep the transport that moved most.
            const std::string& transport = *entries[j].transport;
            double size = 0;
            for (; j < entries.size() && entries[j].src == cell.srcRank &&
                   entries[j].dst == cell.dstRank && *entries[j].transport == transport;
                 ++j) {
                size += entries[j].sizeMb;
                cell.transitNs = SaturatingAdd(cell.transitNs, entries[j].transitNs);
            }
            cell.transitSizeMb += size;
            if (size > most) most = size, cell.transport = transport;
        }
        out.push_back(std::move(cell));
        i = j;
    }
    return out;
}

std::vector<std::string> MatrixOperators(const Cluster& cluster) {
    std::map<std::string, double> sizes;
    for (const ClusterRank& rank : cluster.ranks)
        for (const RankLink& link : rank.links) sizes[rank.Name(link.op)] += link.transitSizeMb;
    std::vector<std::pair<std::string, double>> sorted(sizes.begin(), sizes.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::vector<std::string> names;
    for (auto& [name, size] : sorted) names.push_back(name);
    return names;
}

namespace {

// The links that are judged against their peers: between two ranks, not LOCAL, with a time.
bool Comparable(const MatrixCell& cell) {
    return cell.srcRank != cell.dstRank && cell.transport != "LOCAL" && cell.transitNs > 0;
}

}  // namespace

std::vector<char> TooSmallToJudge(const std::vector<MatrixCell>& cells) {
    std::map<std::string, std::vector<double>> sizes;
    for (const MatrixCell& cell : cells)
        if (Comparable(cell)) sizes[cell.transport].push_back(cell.transitSizeMb);
    std::map<std::string, double> floorMb;
    for (auto& [transport, list] : sizes)
        floorMb[transport] = std::max(kMinJudgedSizeMb, MedianAndMad(list).median / 2);
    std::vector<char> small(cells.size(), 0);
    for (size_t i = 0; i < cells.size(); ++i) {
        const MatrixCell& cell = cells[i];
        const double floor = Comparable(cell) ? floorMb[cell.transport] : kMinJudgedSizeMb;
        small[i] = cell.transitSizeMb < floor;
    }
    return small;
}

std::vector<SlowLink> FindSlowLinks(const std::vector<MatrixCell>& cells) {
    const std::vector<char> small = TooSmallToJudge(cells);
    std::map<std::string, std::vector<const MatrixCell*>> byTransport, judged;
    for (size_t i = 0; i < cells.size(); ++i) {
        if (!Comparable(cells[i])) continue;
        byTransport[cells[i].transport].push_back(&cells[i]);
        if (!small[i]) judged[cells[i].transport].push_back(&cells[i]);
    }
    std::vector<SlowLink> slow;
    for (const auto& [transport, links] : judged) {
        // Too few links of this type (or of a comparable size) to know what normal is.
        if (byTransport[transport].size() < 3 || links.size() < 3) continue;
        std::vector<double> bandwidths;
        for (const MatrixCell* cell : links) bandwidths.push_back(cell->BandwidthGBps());
        const double median = MedianAndMad(bandwidths).median;
        for (const MatrixCell* cell : links) {
            if (cell->BandwidthGBps() >= kSlowLinkRatio * median) continue;
            slow.push_back({cell->srcRank, cell->dstRank, transport, cell->BandwidthGBps(), median,
                            cell->transitSizeMb});
        }
    }
    std::sort(slow.begin(), slow.end(), [](const SlowLink& a, const SlowLink& b) {
        return a.bandwidthGBps / a.medianGBps < b.bandwidthGBps / b.medianGBps;
    });
    return slow;
}

std::string DescribeSlowLink(const SlowLink& slow) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "link %d → %d (%s): %.2f GB/s against a median of %.2f GB/s for %s links",
                  slow.srcRank, slow.dstRank, slow.transport.c_str(), slow.bandwidthGBps,
                  slow.medianGBps, slow.transport.c_str());
    return text;
}

}  // namespace marey

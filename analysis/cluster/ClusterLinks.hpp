#pragma once
// The communication matrix across ranks: every (source, destination) link with what it carried,
// summed over steps and over the operators chosen, and the links that are slow for their
// transport type.
#include <string>
#include <vector>

#include "cluster/Cluster.hpp"

namespace marey {

struct MatrixCell {
    int srcRank = -1, dstRank = -1;
    std::string transport;  // of the most bytes, when a link used several
    double transitSizeMb = 0;
    TimeNs transitNs = 0;

    double BandwidthGBps() const {
        return transitNs > 0 ? transitSizeMb / (static_cast<double>(transitNs) / 1e6) : 0.0;
    }
};

// Every link of the cluster, one cell per (source, destination), sorted by source then
// destination. 'op' (when not empty) keeps only the links of that operator. O(links log links).
std::vector<MatrixCell> BuildMatrix(const Cluster& cluster, const std::string& op = {});

// The operators of the matrix (link operator names), largest transit size first.
std::vector<std::string> MatrixOperators(const Cluster& cluster);

// A link well below its peers: bandwidth under kSlowLinkRatio of the median bandwidth of links
// of the same transport type that carried a comparable size (at least half the median size of
// that transport: small transfers never reach full bandwidth and are not judged). Links to the
// rank itself and LOCAL copies are not judged. Once per direction.
struct SlowLink {
    int srcRank = -1, dstRank = -1;
    std::string transport;
    double bandwidthGBps = 0, medianGBps = 0;
    double transitSizeMb = 0;
};

inline constexpr double kSlowLinkRatio = 0.5;

// A link that carried too little for its bandwidth to mean anything: under kMinJudgedSizeMb
// (1 KB: the matrix shows it as 0.000 MB) whatever its peers, or, between ranks, under half the
// median size of the links of its transport (small transfers never reach full bandwidth). Such a
// link is never slow, and the matrix draws it as too small to judge, not as a dark cell.
inline constexpr double kMinJudgedSizeMb = 0.001;

// One flag per cell of 'cells', in order: 1 when the cell is too small to judge (see above).
// O(cells).
std::vector<char> TooSmallToJudge(const std::vector<MatrixCell>& cells);

// Slowest first.
std::vector<SlowLink> FindSlowLinks(const std::vector<MatrixCell>& cells);

// "link 3 → 11 (RDMA): 5.1 GB/s against a median of 23.9 GB/s for RDMA links".
std::string DescribeSlowLink(const SlowLink& slow);

}  // namespace marey

#pragma once
// The communication matrix as a grid the view can draw at any zoom: one value per (source,
// destination) cell, and coarser levels where each cell stands for a block of 2^k × 2^k links
// (the slowest bandwidth, or the largest size or time, of the block), so that a frame draws at
// most a few pixels' worth of instances however many ranks there are.
#include <cstdint>
#include <string>
#include <vector>

#include "cluster/ClusterLinks.hpp"

namespace marey {

enum class MatrixMetric : int { kBandwidth = 0, kSize, kTime, kTransport };

// HCCS, PCIE, RDMA, SDMA, SIO, LOCAL, then any other.
inline constexpr const char* kTransportNames[] = {"HCCS", "PCIE",  "RDMA", "SDMA",
                                                  "SIO",  "LOCAL", "other"};
inline constexpr int kTransportCount = 7;
int TransportIndex(const std::string& transport);

class MatrixGrid {
public:
    struct Level {
        int dim = 0;                     // cells per side
        int block = 1;                   // links per cell per side
        std::vector<float> value;        // NaN: no link in the cell
        std::vector<uint8_t> transport;  // TransportIndex of the cell's first link
        // Bandwidth only: 1 when every link of the cell is too small to judge (TooSmallToJudge);
        // its value is then left off the colour scale and off its blocks' slowest.
        std::vector<uint8_t> unjudged;
    };

    // Builds every level from 'cells'. The axis holds every rank id of 'rankIds' and of the
    // links, ascending. O(dim² + cells).
    void Build(const std::vector<MatrixCell>& cells, const std::vector<int>& rankIds,
               MatrixMetric metric);

    int Dim() const { return m_levels.empty() ? 0 : m_levels.front().dim; }
    const std::vector<int>& RankIds() const { return m_rankIds; }
    // Index of 'rankId' on the axis, or -1.
    int IndexOf(int rankId) const;
    // The coarsest level whose cells are still at least 'minPx' pixels wide at 'cellPx' pixels
    // per link.
    const Level& LevelFor(double cellPx, double minPx) const;
    // Smallest and largest value over the links between ranks (a rank's links to itself only
    // when there is nothing else); 0, 0 without links. Values outside are drawn at the ends.
    float MinValue() const { return m_min; }
    float MaxValue() const { return m_max; }
    MatrixMetric metric() const { return m_metric; }

private:
    std::vector<Level> m_levels;
    std::vector<int> m_rankIds;
    float m_min = 0, m_max = 0;
    MatrixMetric m_metric = MatrixMetric::kBandwidth;
};

// The value of 'cell' in 'metric' (GB/s, MB, ms, or the transport index).
float MetricValue(const MatrixCell& cell, MatrixMetric metric);

}  // namespace marey

#include "cluster/MatrixGrid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marey {

int TransportIndex(const std::string& transport) {
    for (int i = 0; i < kTransportCount - 1; ++i)
        if (transport == kTransportNames[i]) return i;
    return kTransportCount - 1;
}

float MetricValue(const MatrixCell& cell, MatrixMetric metric) {
    switch (metric) {
        case MatrixMetric::kBandwidth:
            return static_cast<float>(cell.BandwidthGBps());
        case MatrixMetric::kSize:
            return static_cast<float>(cell.transitSizeMb);
        case MatrixMetric::kTime:
            return static_cast<float>(static_cast<double>(cell.transitNs) / 1e6);
        case MatrixMetric::kTransport:
            return static_cast<float>(TransportIndex(cell.transport));
    }
    return 0;
}

void MatrixGrid::Build(const std::vector<MatrixCell>& cells, const std::vector<int>& rankIds,
                       MatrixMetric metric) {
    m_metric = metric;
    // The axis through a table indexed by rank id: a full mesh of 1024 ranks has a million
    // links, and a sort or a search per link would cost a visible frame.
    int largest = rankIds.empty() ? -1 : *std::max_element(rankIds.begin(), rankIds.end());
    for (const MatrixCell& cell : cells) largest = std::max({largest, cell.srcRank, cell.dstRank});
    std::vector<int> indexOf(static_cast<size_t>(largest + 1), -1);
    for (const int id : rankIds) indexOf[id] = 0;
    for (const MatrixCell& cell : cells) indexOf[cell.srcRank] = indexOf[cell.dstRank] = 0;
    m_rankIds.clear();
    for (int id = 0; id <= largest; ++id)
        if (indexOf[id] == 0)
            indexOf[id] = static_cast<int>(m_rankIds.size()), m_rankIds.push_back(id);
    // The levels' arrays are refilled in place: fresh pages cost a fault each on first write,
    // more than the fill itself for a million cells.
    const int dim = static_cast<int>(m_rankIds.size());
    constexpr float kEmpty = std::numeric_limits<float>::quiet_NaN();
    size_t levels = 1;
    for (int d = dim; d > 1; d = (d + 1) / 2) ++levels;
    m_levels.resize(dim > 0 ? levels : 0);
    if (dim == 0) return;
    Level& base = m_levels[0];
    base.dim = dim;
    base.block = 1;
    base.value.assign(static_cast<size_t>(dim) * dim, kEmpty);
    base.transport.assign(static_cast<size_t>(dim) * dim, 0);
    const bool bandwidth = metric == MatrixMetric::kBandwidth;
    const std::vector<char> small = bandwidth ? TooSmallToJudge(cells) : std::vector<char>();
    base.unjudged.assign(bandwidth ? static_cast<size_t>(dim) * dim : 0, 0);
    // The colour scale spans the links between ranks: a rank's copies to itself (hundreds of GB/s)
    // would otherwise push every real link into the dark end.
    const bool anyBetween = std::any_of(cells.begin(), cells.end(),
                                        [](const MatrixCell& c) { return c.srcRank != c.dstRank; });
    m_min = std::numeric_limits<float>::max(), m_max = std::numeric_limits<float>::lowest();
    const std::string* lastTransport =
        nullptr;  // neighbouring cells mostly share one: name it once
    uint8_t transportIndex = 0;
    for (size_t i = 0; i < cells.size(); ++i) {
        const MatrixCell& cell = cells[i];
        const size_t at = static_cast<size_t>(indexOf[cell.srcRank]) * dim +
                          static_cast<size_t>(indexOf[cell.dstRank]);
        if (!lastTransport || cell.transport != *lastTransport)
            transportIndex = static_cast<uint8_t>(TransportIndex(cell.transport)),
            lastTransport = &cell.transport;
        base.value[at] = metric == MatrixMetric::kTransport ? static_cast<float>(transportIndex)
                                                            : MetricValue(cell, metric);
        base.transport[at] = transportIndex;
        if (bandwidth && small[i]) base.unjudged[at] = 1;
        if ((anyBetween && cell.srcRank == cell.dstRank) || (bandwidth && small[i])) continue;
        m_min = std::min(m_min, base.value[at]), m_max = std::max(m_max, base.value[at]);
    }
    if (m_min > m_max) m_min = m_max = 0;
    // The slowest link of a block shows for bandwidth; the largest size or time otherwise.
    const bool keepLeast = metric == MatrixMetric::kBandwidth;
    for (size_t level = 1; level < m_levels.size(); ++level) {
        const Level& fine = m_levels[level - 1];
        Level& coarse = m_levels[level];
        coarse.dim = (fine.dim + 1) / 2;
        coarse.block = fine.block * 2;
        coarse.value.assign(static_cast<size_t>(coarse.dim) * coarse.dim, kEmpty);
        coarse.transport.assign(static_cast<size_t>(coarse.dim) * coarse.dim, 0);
        coarse.unjudged.assign(bandwidth ? coarse.value.size() : 0, 0);
        for (int y = 0; y < fine.dim; ++y) {
            for (int x = 0; x < fine.dim; ++x) {
                const size_t from = static_cast<size_t>(y) * fine.dim + x;
                const float v = fine.value[from];
                if (std::isnan(v)) continue;
                const size_t at =
                    static_cast<size_t>(y / 2) * coarse.dim + static_cast<size_t>(x / 2);
                float& out = coarse.value[at];
                // A judged link wins over any unjudged one; among equals the slowest or largest.
                const bool vSmall = bandwidth && fine.unjudged[from];
                const bool outSmall = bandwidth && coarse.unjudged[at];
                const bool better = std::isnan(out) || (outSmall && !vSmall) ||
                                    (outSmall == vSmall && (keepLeast ? v < out : v > out));
                if (!better) continue;
                out = v;
                coarse.transport[at] = fine.transport[from];
                if (bandwidth) coarse.unjudged[at] = vSmall;
            }
        }
    }
}

int MatrixGrid::IndexOf(int rankId) const {
    const auto it = std::lower_bound(m_rankIds.begin(), m_rankIds.end(), rankId);
    return it != m_rankIds.end() && *it == rankId ? static_cast<int>(it - m_rankIds.begin()) : -1;
}

const MatrixGrid::Level& MatrixGrid::LevelFor(double cellPx, double minPx) const {
    static const Level kNone;
    if (m_levels.empty()) return kNone;
    size_t level = 0;
    while (level + 1 < m_levels.size() && cellPx * m_levels[level].block < minPx) ++level;
    return m_levels[level];
}

}  // namespace marey

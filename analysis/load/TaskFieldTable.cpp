#include "load/TaskFieldTable.hpp"

#include <algorithm>
#include <numeric>

#include "core/GallopingSearch.hpp"

namespace marey {

uint8_t TaskFieldTable::CodeOf(std::string_view taskType) {
    if (taskType.empty()) return 0;
    // Rows of one type follow each other: the last code answers most lookups.
    if (m_taskTypes[m_lastCode] == taskType) return m_lastCode;
    for (size_t code = 1; code < m_taskTypes.size(); ++code)
        if (m_taskTypes[code] == taskType) return m_lastCode = static_cast<uint8_t>(code);
    if (m_taskTypes.size() == 255) {
        // A database with more kinds than a code holds: the rest share one, which no rule of
        // the analyses names.
        m_taskTypes.push_back("other");
        return m_lastCode = 255;
    }
    if (m_taskTypes.size() > 255) return m_lastCode = 255;
    m_taskTypes.emplace_back(taskType);
    return m_lastCode = static_cast<uint8_t>(m_taskTypes.size() - 1);
}

void TaskFieldTable::Append(uint64_t ref, uint8_t taskTypeCode, int64_t connection) {
    m_refAndType.push_back(ref << 8 | taskTypeCode);
    m_connection.push_back(connection < 0 ? -1 : connection);
}

void TaskFieldTable::Finish() {
    const auto refAt = [&](size_t i) { return m_refAndType[i] >> 8; };
    bool sorted = true;
    for (size_t i = 1; i < size() && sorted; ++i) sorted = refAt(i - 1) <= refAt(i);
    if (sorted) return;
    std::vector<uint32_t> order(size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return refAt(a) < refAt(b); });
    PodArray<uint64_t> refs;
    PodArray<int64_t> connections;
    refs.reserve(size());
    connections.reserve(size());
    for (const uint32_t i : order) {
        refs.push_back(m_refAndType[i]);
        connections.push_back(m_connection[i]);
    }
    m_refAndType = std::move(refs);
    m_connection = std::move(connections);
}

std::optional<ActivityFields> TaskFieldTable::Find(uint64_t ref, size_t& hint) const {
    const auto refAt = [&](size_t i) { return m_refAndType[i] >> 8; };
    const size_t at = GallopingLowerBound(size(), ref, hint, refAt);
    if (at >= size() || refAt(at) != ref) return std::nullopt;
    ActivityFields fields;
    fields.taskType = m_taskTypes[m_refAndType[at] & 0xFF];
    fields.hasCorrelation = m_connection[at] >= 0;
    fields.correlation = fields.hasCorrelation ? m_connection[at] : 0;
    return fields;
}

}  // namespace marey

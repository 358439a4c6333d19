#pragma once
// How many bytes each device copy and fill moved, kept by a reader whose source cannot be read
// again at a slice's reference (an Nsight Systems export): a JSON trace's copies say it in their
// args, which the device counters read from the text instead.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "core/PodArray.hpp"

namespace marey {

// By the rows' references, ascending (the reader appends them in that order).
class CopyBytesTable {
public:
    void Append(uint64_t ref, uint64_t bytes) {
        m_refs.push_back(ref);
        m_bytes.push_back(bytes);
    }
    bool empty() const { return m_refs.empty(); }
    size_t size() const { return m_refs.size(); }
    // The bytes of the row of 'ref', or nullopt when none were kept. O(log n).
    std::optional<uint64_t> Find(uint64_t ref) const {
        const uint64_t* it = std::lower_bound(m_refs.begin(), m_refs.end(), ref);
        if (it == m_refs.end() || *it != ref) return std::nullopt;
        return m_bytes[static_cast<size_t>(it - m_refs.begin())];
    }

private:
    PodArray<uint64_t> m_refs;
    PodArray<uint64_t> m_bytes;
};

}  // namespace marey

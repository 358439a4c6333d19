#pragma once
// The fields the device analyses read of each kernel, copy, fill, annotation, synchronisation
// and runtime call of a PyTorch profiler trace (its category and correlation id), kept by the
// loader while it decodes them: the events are in cache then, on every core, whereas reading
// millions of them again from the text afterwards cost more than every analysis together.
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/PodArray.hpp"
#include "load/EventFields.hpp"

namespace marey {

// The categories kept (Kineto's, with their 2021 names), as codes.
enum class KeptCategory : uint8_t {
    kNone,
    kKernel,
    kGpuMemcpy,
    kGpuMemset,
    kKernel2021,
    kMemcpy2021,
    kMemset2021,
    kGpuUserAnnotation,
    kCudaSync,
    kCudaRuntime,
    kCudaDriver,
    kRuntime2021,
    kDriver2021,
};

// The code of a "cat" JSON token as written, quotes included; kNone for any other category.
KeptCategory KeptCategoryOf(std::string_view catToken);
std::string_view KeptCategoryName(KeptCategory category);

// By byte offset in the text, in file order (the order chunks decode them in).
class ActivityFieldTable {
public:
    void Append(uint64_t offset, KeptCategory category, int64_t correlation) {
        m_offsetAndCategory.push_back(offset << 8 | static_cast<uint8_t>(category));
        m_correlation.push_back(correlation);
    }
    void Append(const ActivityFieldTable& other);
    void Reserve(size_t size);
    size_t size() const { return m_correlation.size(); }
    bool empty() const { return m_correlation.empty(); }
    bool IsSorted() const;

    // The fields of the event at 'offset' (category and correlation id; no task type), or
    // nullopt when the loader kept none for it. Searched from 'hint', the previous answer for the
    // same caller: amortised O(1) when offsets grow, O(log n) otherwise.
    std::optional<ActivityFields> Find(uint64_t offset, size_t& hint) const;

    // Its arrays as stored (the index cache writes them), and a table from such arrays: empty
    // when they are not a table (sizes that differ, offsets out of order, an unknown category).
    const PodArray<uint64_t>& OffsetsAndCategories() const { return m_offsetAndCategory; }
    const PodArray<int64_t>& Correlations() const { return m_correlation; }
    static std::optional<ActivityFieldTable> FromArrays(PodArray<uint64_t> offsetsAndCategories,
                                                        PodArray<int64_t> correlations);

private:
    PodArray<uint64_t> m_offsetAndCategory;  // offset << 8 | category
    PodArray<int64_t> m_correlation;         // -1: none
};

}  // namespace marey

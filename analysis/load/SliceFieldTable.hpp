#pragma once
// What a model keeps of a slice beyond its name and times, filled by every importer as it reads
// the slice: its category (the device and runtime categories of Kineto, which an Nsight Systems
// export's rows are given too), its task type (an Ascend task) and the id that pairs a launch
// call with the work it launched (Kineto's "correlation", Ascend's "connection_id", CUPTI's
// correlationId). The device analyses read these of millions of slices: reading them again from
// the text would cost more than every analysis together, and a database cannot be read again at
// a slice's reference at all.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// By the slices' references (a byte offset in a text, a table and rowid in a database), ascending
// once Finish has run. A reference must be below 2^40, as a model keeps them.
class SliceFieldTable {
public:
    // A slice of a kept category. A correlation id below 0 means none.
    void Append(uint64_t ref, KeptCategory category, int64_t correlation) {
        m_refAndCodes.push_back(ref << 16 | uint64_t{static_cast<uint8_t>(category)} << 8);
        m_correlation.push_back(correlation < 0 ? -1 : correlation);
    }
    // A slice with a task type, by its code from TaskTypeCode (0: none, as for a CANN call).
    void AppendTask(uint64_t ref, uint8_t taskTypeCode, int64_t connection) {
        m_refAndCodes.push_back(ref << 16 | taskTypeCode);
        m_correlation.push_back(connection < 0 ? -1 : connection);
    }
    // The code of a task type's text ("AI_CORE", "SDMA"); 0 for empty. A reader that knows its
    // rows' types by id looks each one up once. At most 255 kinds: any later one reads as "other".
    uint8_t TaskTypeCode(std::string_view taskType);
    // Every slice of 'other' after these (its task types coded again in this table's codes).
    void Append(const SliceFieldTable& other);
    void Reserve(size_t size);
    // Sorts by reference when the slices came in another order. O(n) when they did not.
    void Finish();
    size_t size() const { return m_correlation.size(); }
    bool empty() const { return m_correlation.empty(); }
    size_t TaskTypeCount() const { return m_taskTypes.size() - 1; }

    // The fields of the slice of 'ref', or nullopt when none were kept. Searched from 'hint', the
    // previous answer for the same caller: amortised O(1) when refs grow, O(log n) otherwise.
    // Only after Finish.
    std::optional<ActivityFields> Find(uint64_t ref, size_t& hint) const;

    // Its arrays as stored (the index cache writes them), and a table from such arrays: nullopt
    // when they are not a table (sizes that differ, refs out of order, an unknown category or
    // task type code, a row with neither a category, a task type nor an id, a first task type
    // that is not empty, more than 256 of them).
    const PodArray<uint64_t>& RefsAndCodes() const { return m_refAndCodes; }
    const PodArray<int64_t>& Correlations() const { return m_correlation; }
    const std::vector<std::string>& TaskTypes() const { return m_taskTypes; }  // by code
    static std::optional<SliceFieldTable> FromArrays(PodArray<uint64_t> refsAndCodes,
                                                     PodArray<int64_t> correlations,
                                                     std::vector<std::string> taskTypes);

private:
    bool IsSorted() const;

    PodArray<uint64_t> m_refAndCodes;  // ref << 16 | category << 8 | task type code
    PodArray<int64_t> m_correlation;   // -1: none
    std::vector<std::string> m_taskTypes = {std::string()};  // by code
    uint8_t m_lastCode = 0;                                  // the code of the previous row's type
};

}  // namespace marey

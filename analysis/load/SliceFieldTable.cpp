#include "load/SliceFieldTable.hpp"

#include <algorithm>
#include <array>
#include <numeric>

#include "core/GallopingSearch.hpp"

namespace marey {
namespace {

constexpr std::array<std::string_view, 13> kNames = {
    "",          "kernel",       "gpu_memcpy",  "gpu_memset",
    "Kernel",    "Memcpy",       "Memset",      "gpu_user_annotation",
    "cuda_sync", "cuda_runtime", "cuda_driver", "Runtime",
    "Driver"};

uint64_t RefOf(uint64_t refAndCodes) {
    return refAndCodes >> 16;
}
uint8_t CategoryCodeOf(uint64_t refAndCodes) {
    return static_cast<uint8_t>(refAndCodes >> 8);
}
uint8_t TaskCodeOf(uint64_t refAndCodes) {
    return static_cast<uint8_t>(refAndCodes);
}

}  // namespace

KeptCategory KeptCategoryOf(std::string_view catToken) {
    while (!catToken.empty() && (catToken.back() == ' ' || catToken.back() == '\n' ||
                                 catToken.back() == '\r' || catToken.back() == '\t'))
        catToken.remove_suffix(1);
    if (catToken.size() < 3 || catToken.front() != '"' || catToken.back() != '"')
        return KeptCategory::kNone;
    const std::string_view text = catToken.substr(1, catToken.size() - 2);
    // Every event of the trace comes here: most categories ("cpu_op", "python_function",
    // "user_annotation") are told apart by their first letter and length before any compare.
    switch (text[0]) {
        case 'k':
        case 'g':
        case 'K':
        case 'M':
        case 'c':
        case 'R':
        case 'D':
            break;
        default:
            return KeptCategory::kNone;
    }
    for (size_t code = 1; code < kNames.size(); ++code)
        if (text.size() == kNames[code].size() && text[0] == kNames[code][0] &&
            text == kNames[code])
            return static_cast<KeptCategory>(code);
    return KeptCategory::kNone;
}

std::string_view KeptCategoryName(KeptCategory category) {
    return kNames[static_cast<size_t>(category)];
}

uint8_t SliceFieldTable::TaskTypeCode(std::string_view taskType) {
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

void SliceFieldTable::Append(const SliceFieldTable& other) {
    std::vector<uint8_t> codeOf(other.m_taskTypes.size(), 0);
    for (size_t code = 1; code < other.m_taskTypes.size(); ++code)
        codeOf[code] = TaskTypeCode(other.m_taskTypes[code]);
    for (size_t i = 0; i < other.size(); ++i) {
        const uint64_t value = other.m_refAndCodes[i];
        m_refAndCodes.push_back((value & ~uint64_t{0xFF}) | codeOf[TaskCodeOf(value)]);
        m_correlation.push_back(other.m_correlation[i]);
    }
}

void SliceFieldTable::Reserve(size_t size) {
    m_refAndCodes.reserve(size);
    m_correlation.reserve(size);
}

bool SliceFieldTable::IsSorted() const {
    for (size_t i = 1; i < size(); ++i)
        if (RefOf(m_refAndCodes[i]) < RefOf(m_refAndCodes[i - 1])) return false;
    return true;
}

void SliceFieldTable::Finish() {
    if (IsSorted()) return;
    std::vector<uint32_t> order(size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return RefOf(m_refAndCodes[a]) < RefOf(m_refAndCodes[b]);
    });
    PodArray<uint64_t> refs;
    PodArray<int64_t> correlations;
    refs.reserve(size());
    correlations.reserve(size());
    for (const uint32_t i : order) {
        refs.push_back(m_refAndCodes[i]);
        correlations.push_back(m_correlation[i]);
    }
    m_refAndCodes = std::move(refs);
    m_correlation = std::move(correlations);
}

std::optional<SliceFieldTable> SliceFieldTable::FromArrays(PodArray<uint64_t> refsAndCodes,
                                                           PodArray<int64_t> correlations,
                                                           std::vector<std::string> taskTypes) {
    if (taskTypes.empty() || !taskTypes.front().empty() || taskTypes.size() > 256)
        return std::nullopt;
    SliceFieldTable table;
    table.m_refAndCodes = std::move(refsAndCodes);
    table.m_correlation = std::move(correlations);
    table.m_taskTypes = std::move(taskTypes);
    if (table.m_refAndCodes.size() != table.m_correlation.size() || !table.IsSorted())
        return std::nullopt;
    for (size_t i = 0; i < table.size(); ++i) {
        const uint64_t value = table.m_refAndCodes[i];
        const uint8_t category = CategoryCodeOf(value);
        const uint8_t task = TaskCodeOf(value);
        const int64_t correlation = table.m_correlation[i];
        if (category >= kNames.size() || task >= table.m_taskTypes.size() || correlation < -1 ||
            (category == 0 && task == 0 && correlation < 0))
            return std::nullopt;
    }
    return table;
}

std::optional<ActivityFields> SliceFieldTable::Find(uint64_t ref, size_t& hint) const {
    const auto refAt = [&](size_t i) { return RefOf(m_refAndCodes[i]); };
    const size_t at = GallopingLowerBound(size(), ref, hint, refAt);
    if (at >= size() || refAt(at) != ref) return std::nullopt;
    const uint64_t value = m_refAndCodes[at];
    ActivityFields fields;
    fields.category = KeptCategoryName(static_cast<KeptCategory>(CategoryCodeOf(value)));
    fields.taskType = m_taskTypes[TaskCodeOf(value)];
    fields.hasCorrelation = m_correlation[at] >= 0;
    fields.correlation = fields.hasCorrelation ? m_correlation[at] : 0;
    return fields;
}

}  // namespace marey

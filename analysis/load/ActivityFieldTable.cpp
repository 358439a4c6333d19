#include "load/ActivityFieldTable.hpp"

#include <algorithm>
#include <array>

#include "core/GallopingSearch.hpp"

namespace marey {
namespace {

constexpr std::array<std::string_view, 13> kNames = {
    "",          "kernel",       "gpu_memcpy",  "gpu_memset",
    "Kernel",    "Memcpy",       "Memset",      "gpu_user_annotation",
    "cuda_sync", "cuda_runtime", "cuda_driver", "Runtime",
    "Driver"};

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

void ActivityFieldTable::Append(const ActivityFieldTable& other) {
    for (size_t i = 0; i < other.size(); ++i) {
        m_offsetAndCategory.push_back(other.m_offsetAndCategory[i]);
        m_correlation.push_back(other.m_correlation[i]);
    }
}

bool ActivityFieldTable::IsSorted() const {
    for (size_t i = 1; i < size(); ++i)
        if ((m_offsetAndCategory[i] >> 8) <= (m_offsetAndCategory[i - 1] >> 8)) return false;
    return true;
}

std::optional<ActivityFieldTable> ActivityFieldTable::FromArrays(
    PodArray<uint64_t> offsetsAndCategories, PodArray<int64_t> correlations) {
    ActivityFieldTable table;
    table.m_offsetAndCategory = std::move(offsetsAndCategories);
    table.m_correlation = std::move(correlations);
    if (table.m_offsetAndCategory.size() != table.m_correlation.size() || !table.IsSorted())
        return std::nullopt;
    for (size_t i = 0; i < table.size(); ++i) {
        const uint64_t category = table.m_offsetAndCategory[i] & 0xFF;
        if (category == 0 || category >= kNames.size() || table.m_correlation[i] < -1)
            return std::nullopt;
    }
    return table;
}

void ActivityFieldTable::Reserve(size_t size) {
    m_offsetAndCategory.reserve(size);
    m_correlation.reserve(size);
}

std::optional<ActivityFields> ActivityFieldTable::Find(uint64_t offset, size_t& hint) const {
    const auto offsetAt = [&](size_t i) { return m_offsetAndCategory[i] >> 8; };
    const size_t at = GallopingLowerBound(size(), offset, hint, offsetAt);
    if (at >= size() || offsetAt(at) != offset) return std::nullopt;
    ActivityFields fields;
    fields.category = KeptCategoryName(static_cast<KeptCategory>(m_offsetAndCategory[at] & 0xFF));
    fields.correlation = m_correlation[at];
    fields.hasCorrelation = fields.correlation >= 0;
    if (!fields.hasCorrelation) fields.correlation = 0;
    return fields;
}

}  // namespace marey

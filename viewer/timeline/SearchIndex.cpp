#include "timeline/SearchIndex.hpp"

#include <algorithm>
#include <cctype>

namespace marey {
namespace {

bool ContainsIgnoringCase(std::string_view haystack, const std::string& lowerNeedle) {
    if (lowerNeedle.size() > haystack.size()) return false;
    for (size_t i = 0; i + lowerNeedle.size() <= haystack.size(); ++i) {
        size_t k = 0;
        while (k < lowerNeedle.size() &&
               std::tolower(static_cast<unsigned char>(haystack[i + k])) ==
                   static_cast<unsigned char>(lowerNeedle[k]))
            ++k;
        if (k == lowerNeedle.size()) return true;
    }
    return false;
}

}  // namespace

void SearchIndex::Run(const TraceModel& model, const std::string& query, uint32_t document) {
    m_query = query;
    m_matches.clear();
    m_rowMatchStarts.clear();
    m_count = 0;
    m_nameMatches.assign(model.strings.size(), 0);
    if (query.empty()) return;
    std::string lower(query);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    bool any = false;
    for (StringId id = 1; id < model.strings.size(); ++id)
        if (ContainsIgnoringCase(model.strings.Get(id), lower)) m_nameMatches[id] = 1, any = true;
    if (any) CollectMatches(model, document);
}

void SearchIndex::RunNames(const TraceModel& model, const std::vector<std::string>& names,
                           const std::string& label, uint32_t document) {
    m_query = label;
    m_matches.clear();
    m_rowMatchStarts.clear();
    m_count = 0;
    m_nameMatches.assign(model.strings.size(), 0);
    bool any = false;
    for (const std::string& name : names)
        if (const StringId id = model.strings.Find(name)) m_nameMatches[id] = 1, any = true;
    if (any) CollectMatches(model, document);
}

void SearchIndex::CollectMatches(const TraceModel& model, uint32_t document) {
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        const Track& track = model.tracks[t];
        for (uint32_t r = 0; r < track.rows.size(); ++r) {
            const Row& row = track.rows[r];
            std::vector<TimeNs>* rowStarts = nullptr;
            for (uint32_t i = 0; i < row.size(); ++i) {
                if (!m_nameMatches[row.name[i]]) continue;
                ++m_count;
                if (m_matches.size() < kMaxListed)
                    m_matches.push_back({row.start[i], {t, r, i, document}});
                if (m_count > kMaxIndexed) continue;
                if (!rowStarts) rowStarts = &m_rowMatchStarts[uint64_t{t} << 32 | r];
                rowStarts->push_back(row.start[i]);
            }
        }
    }
    if (m_count > kMaxIndexed) m_rowMatchStarts.clear();
    std::sort(m_matches.begin(), m_matches.end(), [](const SearchMatch& a, const SearchMatch& b) {
        if (a.startNs != b.startNs) return a.startNs < b.startNs;
        return a.slice.track < b.slice.track;
    });
}

size_t SearchIndex::FirstAtOrAfter(TimeNs t) const {
    const auto it =
        std::lower_bound(m_matches.begin(), m_matches.end(), t,
                         [](const SearchMatch& m, TimeNs value) { return m.startNs < value; });
    return it == m_matches.end() ? 0 : static_cast<size_t>(it - m_matches.begin());
}

bool SearchIndex::RowHasMatchIn(uint32_t track, uint32_t row, TimeNs startNs, TimeNs endNs) const {
    if (m_count > kMaxIndexed) return true;
    const auto it = m_rowMatchStarts.find(uint64_t{track} << 32 | row);
    if (it == m_rowMatchStarts.end()) return false;
    const auto first = std::lower_bound(it->second.begin(), it->second.end(), startNs);
    return first != it->second.end() && *first <= endNs;
}

}  // namespace marey

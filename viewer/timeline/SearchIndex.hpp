#pragma once
// Case-insensitive substring search over slice names: which names match, and every matching
// slice in time order for next / previous.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/ViewState.hpp"
#include "model/TraceModel.hpp"

namespace marey {

struct SearchMatch {
    TimeNs startNs;
    SliceRef slice;
};

class SearchIndex {
public:
    // Runs the search. O(distinct names · length + slices). Keeps at most kMaxListed matches
    // in the list; the count is always exact.
    // 'document' is stamped on the matches' SliceRefs.
    void Run(const TraceModel& model, const std::string& query, uint32_t document = 0);
    // Matches slices named exactly one of 'names' (an operator picked in another view);
    // 'label' is what the search box shows. Same cost as Run.
    void RunNames(const TraceModel& model, const std::vector<std::string>& names,
                  const std::string& label, uint32_t document = 0);
    bool Active() const { return !m_query.empty(); }
    bool NameMatches(StringId name) const {
        return name < m_nameMatches.size() && m_nameMatches[name];
    }
    uint64_t Count() const { return m_count; }
    const std::vector<SearchMatch>& Matches() const { return m_matches; }
    const std::string& Query() const { return m_query; }
    // Index of the first match starting at or after 't' (wrapping), for next / previous.
    size_t FirstAtOrAfter(TimeNs t) const;
    // Whether a match of row 'row' of 'track' starts in [startNs, endNs]: a merged run of
    // sub-pixel slices that holds one is drawn as a match. O(log matches of the row); true for
    // any run when there are more than kMaxIndexed matches (not indexed).
    bool RowHasMatchIn(uint32_t track, uint32_t row, TimeNs startNs, TimeNs endNs) const;

    static constexpr uint64_t kMaxIndexed = 4000000;

    static constexpr size_t kMaxListed = 1000000;

private:
    void CollectMatches(const TraceModel& model, uint32_t document);

    std::string m_query;
    std::vector<char> m_nameMatches;
    std::vector<SearchMatch> m_matches;
    uint64_t m_count = 0;
    // Start times of the matches of each (track, row), in row order (rows are sorted by start).
    std::unordered_map<uint64_t, std::vector<TimeNs>> m_rowMatchStarts;
};

}  // namespace marey

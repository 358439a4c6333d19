#include "db/DbReadProgress.hpp"

#include <algorithm>
#include <string_view>

namespace marey {

TableReadProgress::TableReadProgress(const SqliteFile& db, const std::string& table,
                                     std::atomic<uint64_t>* done) {
    if (!done) return;
    if (std::none_of(std::begin(kProgressTables), std::end(kProgressTables),
                     [&](const char* name) { return table == name; }))
        return;
    m_done = done;
    if (!db.HasTable(table)) return;
    auto span = db.Prepare("SELECT min(rowid), max(rowid) FROM \"" + table + "\"");
    if (span.ok() && span.value().Step() && !span.value().IsNull(0))
        m_firstRowid = span.value().Int(0), m_lastRowid = span.value().Int(1);
}

TableReadProgress::~TableReadProgress() {
    if (m_done && m_reported < kProgressPerTable) *m_done += kProgressPerTable - m_reported;
}

void TableReadProgress::Advance(int64_t rowid) {
    if (m_lastRowid <= m_firstRowid) return;
    // In double: CANN_API's rowids are connection ids past 2^42, and their span times a share
    // would not fit 64 bits.
    const double part =
        static_cast<double>(std::clamp(rowid, m_firstRowid, m_lastRowid) - m_firstRowid) /
        static_cast<double>(m_lastRowid - m_firstRowid);
    const uint64_t reached = static_cast<uint64_t>(part * static_cast<double>(kProgressPerTable));
    if (reached <= m_reported) return;
    *m_done += reached - m_reported;
    m_reported = reached;
}

}  // namespace marey

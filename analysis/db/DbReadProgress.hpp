#pragma once
// How far the reading of a profiler database has come, for a progress bar: each of its large
// tables (PYTORCH_API, CANN_API, TASK, COMMUNICATION_OP) an equal share of the bar, advanced as
// its rows arrive in rowid order (SQLite scans a table by rowid) from its smallest rowid to its
// largest. Two look-ups of O(log n) a table; no count of the rows, which would read them all.
#include <atomic>
#include <cstdint>
#include <string>

#include "db/SqliteFile.hpp"

namespace marey {

// The tables that move the bar, and what each is worth in LoadProgress units.
inline constexpr const char* kProgressTables[] = {"PYTORCH_API", "CANN_API", "TASK",
                                                  "COMMUNICATION_OP"};
inline constexpr uint64_t kProgressPerTable = 1000000;

class TableReadProgress {
public:
    // 'done' is advanced (null: nothing is); a table not in kProgressTables moves nothing.
    TableReadProgress(const SqliteFile& db, const std::string& table, std::atomic<uint64_t>* done);
    // Gives the table its whole share, whatever was read.
    ~TableReadProgress();
    TableReadProgress(const TableReadProgress&) = delete;
    TableReadProgress& operator=(const TableReadProgress&) = delete;

    // One row read. O(1).
    void Row(int64_t rowid) {
        if (m_done && (++m_rows & 4095) == 0) Advance(rowid);
    }

private:
    void Advance(int64_t rowid);
    std::atomic<uint64_t>* m_done = nullptr;
    int64_t m_firstRowid = 0, m_lastRowid = 0;
    uint64_t m_rows = 0, m_reported = 0;  // m_reported: of kProgressPerTable
};

}  // namespace marey

#pragma once
// The tables of `marey sql` that hold a rank folder's own tables, as the rank views read them:
// kernel (kernel_details: one row per device task), step (step_trace_time: each step's phases)
// and communication_op (communication.json: each communication operator's times).
#include <memory>
#include <vector>

#include "rank/RankAnalysis.hpp"
#include "sql/SqlRows.hpp"

namespace marey {

// A table for each of the rank's tables that was read. 'rank' must outlive them.
std::vector<std::unique_ptr<SqlRows>> MakeRankSqlTables(const RankAnalysis& rank);

}  // namespace marey

#pragma once
// The tables of `marey sql` that hold the trace analyses (docs/trace-analyses.md), computed with
// the same rule and default thresholds as `marey stats --json` the first time a query names one
// of them: device_activity (each kernel, copy, fill and task with its class and step, and its
// launch's CPU time and delay), launch (the host calls that launched them), idle_gap (each
// stream's idle time between activities, by cause) and queue_sample (each stream's queue of
// launched, unfinished activities over time).
#include <memory>
#include <vector>

#include "model/TraceModel.hpp"
#include "sql/SliceRows.hpp"
#include "sql/SqlRows.hpp"

namespace marey {

// 'model' and 'slices' (the model's slice table, for slice ids) must outlive them.
std::vector<std::unique_ptr<SqlRows>> MakeAnalysisSqlTables(const TraceModel& model,
                                                            const SliceRows& slices);

}  // namespace marey

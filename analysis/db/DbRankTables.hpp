#pragma once
// The rank views' tables read from a profiler database and its analysis.db: what
// step_trace_time.csv, communication.json, communication_matrix.json, memory_record.csv and
// operator_memory.csv hold in a text export, with the same units and the same rules for bad values.
#include <optional>
#include <string>
#include <vector>

#include "db/DbTimeline.hpp"
#include "db/SqliteFile.hpp"
#include "load/RankTables.hpp"

namespace marey {

// Reads analysis.db's StepTraceTime (µs), CommAnalyzerTime and CommAnalyzerBandwidth (ms, MB) and
// CommAnalyzerMatrix into 'tables'. A missing table leaves its member empty, and is a problem
// naming what that changes when the run had what it holds (the CommAnalyzer tables only when
// 'profilerDb', the same run's database, has communication operators).
void ReadAnalysisDb(const SqliteFile& analysisDb, const SqliteFile& profilerDb, RankTables& tables);

// step_trace_time.csv's figures for each STEP_TIME row, from the Overlap Analysis of the tasks:
// what analysis.db's StepTraceTime holds when there is none (equal to it on the real sample).
StepTrace StepsFromTimeline(const DbTimeline& timeline);

// Reads MEMORY_RECORD and OP_MEMORY of a profiler database into 'tables'.
void ReadDbMemory(const SqliteFile& profilerDb, RankTables& tables);

}  // namespace marey

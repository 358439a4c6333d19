#pragma once
// The tables of one rank, whatever its source wrote them as: kernel_details.csv,
// step_trace_time.csv, op_statistic.csv, communication.json and _matrix.json, memory_record.csv
// and operator_memory.csv of a text export, the same tables of a profiler database and its
// analysis.db, or tables made from a trace's device activities. Every importer fills this one set
// (the rank's analysis holds it), so that every view and analysis reads a rank one way.
#include <optional>
#include <string>
#include <vector>

#include "load/CommunicationJson.hpp"
#include "load/KernelTable.hpp"
#include "load/MemoryCsv.hpp"
#include "load/OpStatisticCsv.hpp"
#include "load/StepTraceCsv.hpp"

namespace marey {

struct RankTables {
    std::optional<KernelTable> kernels;
    std::optional<StepTrace> steps;
    std::optional<OpStatistic> opStatistic;
    std::optional<CommunicationOps> communication;
    std::optional<CommunicationMatrix> matrix;
    std::optional<MemoryRecord> memoryRecord;
    std::optional<OperatorMemory> operatorMemory;
    // The kernels' file could not all be read (a truncated gzip): the rows before the cut.
    bool kernelsCut = false;
    // "file:line:column: error: message" (or "file: error: table T, row N: …") for every problem
    // met in these tables' files (at most 100 per file, then a count), and the errors of files
    // that could not be read at all.
    std::vector<std::string> problems;
};

}  // namespace marey

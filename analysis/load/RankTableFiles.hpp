#pragma once
// The one reader of a text export's tables: kernel_details.csv, step_trace_time.csv (else
// MindSpore's step_trace_raw), op_statistic.csv, communication.json and its matrix,
// memory_record.csv and operator_memory.csv, into the rank's one set of tables (RankTables). A
// rank opened alone and the same rank summarised inside its cluster read its files here.
#include "load/RankDirectory.hpp"
#include "load/RankTables.hpp"

namespace marey {

// What to read of each table: a cluster's summary of a thousand ranks reads leaner tables than a
// rank opened alone, from the same files by the same parsers.
struct RankTableSelection {
    bool kernelNames = true;             // off: each kernel row's type, times, core class, step
    bool opStatistic = true;             // op_statistic.csv
    bool communicationBandwidth = true;  // each operator's bandwidth table (checked either way)
    bool operatorMemory = true;          // operator_memory.csv
    // Off: the matrix's entries summed over the steps as they are read (one link per operator,
    // group, source, destination and transport; CommunicationLink::entries counts them), as a
    // cluster's summary keeps them.
    bool matrixByStep = true;
};

// Reads the tables 'files' names (a file that is not there leaves its table unset); every
// problem of their files goes to tables.problems as "file:line:column: error: message" (those of
// finding the files, files.problems, are not repeated).
// O(bytes of the files read).
RankTables ReadRankTableFiles(const RankFiles& files, const RankTableSelection& selection = {});

}  // namespace marey

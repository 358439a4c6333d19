#pragma once
// `marey summarize JOB_DIR --out SUMMARY.jsonl`, on one process or as an MPI program: the node
// leaders list the ranks their node sees, process 0 hands each rank to a process on the node that
// holds it (cluster/SummaryPlan.hpp), every process summarises its share on its cores and streams
// each summary to process 0, which writes it to the summary file as it arrives.
#include <string>

#include "JobProcesses.hpp"

namespace marey {

struct SummarizeJobOptions {
    std::string job;       // the job folder (a cluster folder, or one rank folder)
    std::string out;       // the summary file
    bool resume = false;   // keep the ranks the file already summarises, make only the others
    std::string nodeRule;  // --ranks-of-node: which node a path belongs to ("{node}" in it)
    unsigned threads = 0;  // per process; 0: the node's cores shared by its processes
};

// Returns the exit code: 0 every rank summarised, 1 some are missing (named in the file and on
// stderr) or the file cannot be written, 2 no ranks at all.
int RunSummarizeJob(const SummarizeJobOptions& options, JobProcesses& processes);

}  // namespace marey

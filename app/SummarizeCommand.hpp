#pragma once
// `marey summarize`: a whole job summarised where its data lives into one cluster summary file
// (SummarizeJob.hpp, also as an MPI program), or each rank folder's summary as its own file
// (rank_summary_<rank>.json). Either opens as the job's cluster without the ranks' own files.

namespace marey {

// Returns the process exit code: 0 every summary written, 1 a folder or file failed, 2 usage.
int RunSummarizeCommand(int argc, char** argv);

}  // namespace marey

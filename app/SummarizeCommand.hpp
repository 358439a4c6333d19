#pragma once
// `marey summarize RANK_DIR... [--out DIR]`: writes each rank folder's small cluster summary
// (rank_summary_<rank>.json), so that a cluster can be summarised where its data lives, one
// process per node, and opened from the summary files alone.

namespace marey {

// Returns the process exit code: 0 every summary written, 1 a folder or file failed, 2 usage.
int RunSummarizeCommand(int argc, char** argv);

}  // namespace marey

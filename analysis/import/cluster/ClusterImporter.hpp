#pragma once
// Several ranks at once: a folder of rank folders (text or database) or of rank traces, rank
// summary files, a cluster summary of `marey summarize`, msprof-analyze's cluster_analysis_output
// (text or cluster_analysis.db), MindInsight's step_trace_raw files. Which of these, and how each
// rank is read, is the cluster loader's (loading/ClusterLoader, cluster/ClusterSource).
#include "import/Importer.hpp"

namespace marey {

Importer ClusterImporter();

}  // namespace marey

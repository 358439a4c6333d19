#pragma once
// msprof-analyze's cluster_analysis.db (written with --export_type db in place of the text files
// of cluster_analysis_output): its step, communication, matrix and group tables read read-only
// into one ClusterRank per rank, as AnalysisOutputReader reads the text files. Table and column
// names and units are in docs/profiler-database.md, section "cluster_analysis.db".
#include <string>

#include "cluster/Cluster.hpp"
#include "core/Status.hpp"

namespace marey {

// The cluster_analysis.db inside the cluster_analysis_output folder 'folder', or "" when there is
// none. O(1).
std::string ClusterAnalysisDbPath(const std::string& folder);

// Fills cluster.ranks and cluster.groups from the database 'path', opened read-only and
// immutable: ClusterStepTraceTime (µs), ClusterCommAnalyzerTime or ClusterCommunicationTime (ms,
// start in µs), ClusterCommAnalyzerMatrix or ClusterCommunicationMatrix (MB, ms) and
// CommunicationGroupMapping or CommunicationGroup. A missing table or column, and a row with a
// value that cannot be (negative, infinite, text in a number column, a rank id that is not an
// integer), is a problem in cluster.problems naming the file, the table and the row; the rest
// loads. Fails when the file is not a SQLite database or no table gives a rank; cluster.ranks and
// cluster.groups are then left as they were. O(rows log rows).
Status ReadClusterAnalysisDb(const std::string& path, Cluster& cluster);

}  // namespace marey

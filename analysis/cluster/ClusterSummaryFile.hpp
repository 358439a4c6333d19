#pragma once
// One file for a whole job's rank summaries (`marey summarize JOB --out SUMMARY.jsonl`), in JSON
// Lines: a header line (what the job folder held and which process reads which rank), then one
// line per rank as its process sent it, in any order, then an end line. Each line is written
// whole and flushed as it arrives, so a job that dies leaves every summary received so far
// readable, and `--resume` only summarises what is not there. The viewer opens the file as the
// cluster the job folder is.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/Cluster.hpp"
#include "cluster/ClusterFolder.hpp"
#include "cluster/RankInput.hpp"
#include "core/Status.hpp"

namespace marey {

// Bump when a line's meaning changes: a reader refuses other versions by name.
constexpr int kClusterSummaryVersion = 1;

struct ClusterSummaryHeader {
    int version = kClusterSummaryVersion;
    std::string job;                     // the job folder as given
    RankInputList ranks;                 // the source, the layout and every input, in reading order
    std::vector<int> process;            // per input: the process that reads it
    std::vector<std::string> hosts;      // per process: its node
    std::vector<std::string> problems;   // the folder walk's: rank folders that cannot be read
    std::vector<SkippedFolder> skipped;  // folders not read although they may hold a rank
};

// The lines, each ending in '\n'. A rank line holds the rank's summary (ClusterRankFile.hpp) with
// its folder relative to 'summaryFolder' and absolute, and the input it was read from; a missing
// line names an input whose summary could not be made, and why.
std::string WriteSummaryHeader(const ClusterSummaryHeader& header);
std::string WriteSummaryRankLine(const ClusterRank& rank, const RankInput& input,
                                 const std::string& summaryFolder);
std::string WriteSummaryMissingLine(const RankInput& input,
                                    const std::vector<std::string>& problems);
std::string WriteSummaryEndLine(size_t ranks, size_t missing);

// Reads a header line (what WriteSummaryHeader wrote, with or without its '\n'). Fails, naming
// 'name' and the field, when it is not the header of a summary of this version.
Result<ClusterSummaryHeader> ReadSummaryHeader(std::string_view line, const std::string& name);

// Whether 'path' is a file that starts as a cluster summary does (any version). Reads 64 bytes.
bool IsClusterSummaryFile(const std::string& path);

struct ClusterSummaryContents {
    ClusterSummaryHeader header;
    // The inputs that have a line, in the header's order: the summary read from a rank line, or
    // from a missing line a rank marked unreadable whose problems say why (the cluster leaves it
    // out and names it).
    std::vector<ClusterRank> ranks;
    std::vector<int> rankOfInput;    // per input: its index in 'ranks', or -1 when it has no line
    std::vector<std::string> lines;  // per input: its line's text, for --resume (else empty)
    bool complete = false;           // the end line is there
    std::vector<std::string> problems;  // "file:line: error: …" for damaged or foreign lines
};

// Reads a cluster summary file, its rank lines on 'threads' threads. Fails, naming the file,
// only when it cannot be read or its header is not a summary of this version; a damaged line is a
// problem and the rest is read. 'keepLines' fills ClusterSummaryContents::lines. O(bytes).
Result<ClusterSummaryContents> ReadClusterSummary(const std::string& path, unsigned threads,
                                                  bool keepLines = false);

}  // namespace marey

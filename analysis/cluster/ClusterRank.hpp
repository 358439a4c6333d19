#pragma once
// The small summary of one rank that every cluster view works on: its step phases, overview
// figures, communication operators, its row of the communication matrix and its operator
// totals by type. Kilobytes, read from the rank folder's small files (never its trace), and a
// plain value that can be written to a file and read back (ClusterRankFile.hpp), so that
// summarising thousands of ranks can run where the data lives, one process per node.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/Ids.hpp"
#include "core/StringPool.hpp"
#include "core/Time.hpp"
#include "load/CommunicationJson.hpp"
#include "load/KernelTable.hpp"
#include "load/MemoryCsv.hpp"
#include "load/ParallelMetadata.hpp"
#include "load/RankDirectory.hpp"
#include "load/StepTraceCsv.hpp"
#include "rank/DataPreparation.hpp"
#include "rank/RankFlops.hpp"
#include "rank/RankOverview.hpp"

namespace marey {

// One communication operator as one rank saw it (communication.json, "Communication Time Info").
struct RankCollective {
    std::string step;    // "50": the step key without its "step" prefix
    uint32_t name = 0;   // index into ClusterRank::names: "hcom_allReduce__586_0_1"
    uint32_t group = 0;  // index into ClusterRank::names: the hash after '@' (empty when none)
    bool p2p = false;
    TimeNs startNs = 0;  // absolute, on the rank's clock; 0 when the file has none
    TimeNs elapseNs = 0, transitNs = 0, waitNs = 0, syncNs = 0, idleNs = 0;
};

// One link from this rank, summed over every step and every entry of the same operator.
struct RankLink {
    uint32_t op = 0;     // index into ClusterRank::names: "allreduce-top1", "hcom_broadcast__483_0"
    uint32_t group = 0;  // index into ClusterRank::names
    int srcRank = -1, dstRank = -1;
    std::string transport;  // HCCS, PCIE, RDMA, SDMA, SIO, LOCAL
    double transitSizeMb = 0;
    TimeNs transitNs = 0;
    uint32_t count = 0;  // entries summed

    // MB per ms = GB/s; 0 without time.
    double BandwidthGBps() const {
        return transitNs > 0 ? transitSizeMb / (static_cast<double>(transitNs) / 1e6) : 0.0;
    }
};

struct RankOperatorType {
    std::string type;
    uint64_t count = 0;
    TimeNs totalNs = 0;
};

struct ClusterRank {
    // Empty only while its files are read: the cluster gives a rank of no id one after the others.
    std::optional<RankId> rankId;
    std::string path;        // the rank folder or summary file it was read from
    std::string rankSource;  // where the rank id came from
    std::string profilerLevel;
    int worldSize = 0;           // the job's rank count as this rank's metadata says; 0 unknown
    RankParallelInfo parallel;   // the parallel job as this rank's files describe it
    std::vector<StepRow> steps;  // step_trace_time.csv, in file order
    std::array<bool, kStepPhaseCount> hasPhase{};
    OverviewFigures overview;  // from the step phases, else from kernel_details.csv
    std::vector<std::string>
        names;  // operator and group names the collectives and links point into
    std::vector<RankCollective> collectives;  // in file order; "Total Op Info" left out
    std::vector<RankLink> links;  // this rank's links (src = rank, or any for older files)
    std::vector<RankOperatorType> operatorTypes;  // by type, largest total first
    // Problems met in this rank's files, "file:line:column: error: message".
    std::vector<std::string> problems;
    // Its summary file could not be read at all: the rank is left out of the cluster (never shown
    // under an invented id) and its problems come first.
    bool unreadable = false;
    // Its kernel table (kernel_details.csv, its database's tasks or its trace's device
    // activities) as read for the summary, kept when RankReadOptions::keepKernelTable asked for
    // it, and always for a trace (reading a trace again costs far more than keeping its table):
    // the Marey view's figures then need no second read. Never written to a summary file.
    std::shared_ptr<const KernelTable> kernels;
    // What MindSpore's data queues say of this rank's input (rank/DataPreparation.hpp); kNoRecord
    // without its queue files.
    DataVerdict dataVerdict;
    // Its FLOPs summary (rank/RankFlops.hpp), and the file it came from; empty source: none.
    FlopsSummary flops;
    std::string flopsSource;
    // Its device's peak allocated memory (load/MemoryCsv.hpp's rule); bytes -1 without a
    // memory_record.csv.
    PeakMemory peakMemory;

    // Its id once it is in a cluster (which numbers a rank of no id after the others).
    RankId Id() const { return rankId.value(); }
    const std::string& Name(uint32_t index) const { return names[index]; }
    // The index of 'name' in 'names', added when new. O(names).
    uint32_t Intern(const std::string& name);
    // The step row named 'step', or null.
    const StepRow* FindStep(const std::string& step) const;
};

// The collectives of 'ops' ("Total Op Info" left out) appended to rank.collectives.
void AddRankCollectives(const std::vector<CommunicationOp>& ops, ClusterRank& rank);

// 'links', summed over the steps already (one per operator key, transport, source and
// destination: MatrixLinkSums), into rank.links, the file's own "Total Op Info" left out: each
// key split into its operator and group names (interned into rank.names in the order their first
// link came), ordered by operator, group, source, destination and transport as text.
// O(links log links).
void AddRankLinks(const std::vector<CommunicationLink>& links, ClusterRank& rank);

// What reading a rank keeps besides its summary.
struct RankReadOptions {
    // The kernel table in ClusterRank::kernels (about 40 bytes a task): for `marey stats` of a
    // cluster, which derives the Marey view's figures from every rank's table right after. A
    // rank read from its trace keeps it whatever this says.
    bool keepKernelTable = false;
    // Nsight Systems exports: the NVTX range that marks a step (--step-range); empty: PyTorch's
    // ProfilerStep#N ranges.
    std::string stepRange;
    // Which export of a rank folder that holds both is read (--source): the database unless
    // kText; a folder without the export asked for is read from the other, and says so.
    RankSource source = RankSource::kAuto;
};

// Reads the summary of the rank folder 'files' from step_trace_time.csv, communication.json,
// communication_matrix.json and kernel_details.csv, each once. Never fails: what cannot be read is
// in 'problems'. O(size of those files).
ClusterRank SummarizeRankFolder(const RankFiles& files, const RankReadOptions& options = {});

// The summary of a rank from its tables, whatever they were read from (a text export, a database,
// a trace's device activities): steps and phases, collectives, links, operator types, the overview
// by the rank's one rule (OverviewInputsOf, as the rank opened alone) and the peak memory, with
// the tables' problems. The kernel table itself is left to the caller. O(rows of the tables).
void SummarizeRankTables(const RankTables& tables, const RankTableOrigin& origin,
                         ClusterRank& rank);

// The verdict of the MindData queue files 'files' names into rank.dataVerdict, their problems
// into rank.problems; nothing without a queue file. O(size of those files).
void ReadDataVerdict(const DataPreparationFiles& files, ClusterRank& rank);

// The device's peak allocated memory from memory_record.csv (PeakAllocatedMemory) into
// rank.peakMemory; its problems into rank.problems. Nothing when 'memoryRecord' is empty.
void ReadPeakMemory(const std::string& memoryRecord, ClusterRank& rank);

// The FLOPs summary of the files 'files' names into rank.flops, by the rank's own rule
// (ReadRankFlops: flops_N.txt read only without flops_summary_N.json, the scopes never), their
// problems into rank.problems. O(size of the files read).
void ReadFlopsSummary(const FlopsFiles& files, ClusterRank& rank);

// "step50" → "50"; any other text unchanged.
std::string StepFromKey(const std::string& key);

}  // namespace marey

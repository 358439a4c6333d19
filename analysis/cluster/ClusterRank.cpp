#include "cluster/ClusterRank.hpp"

#include "load/MemoryCsv.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/Problem.hpp"
#include "core/TextFormat.hpp"
#include "db/DbParallelMetadata.hpp"
#include "load/MatrixLinkSums.hpp"
#include "db/DbRankTables.hpp"
#include "db/DbTimeline.hpp"
#include "load/AnalysisFile.hpp"
#include "load/CommunicationJson.hpp"
#include "load/KernelTable.hpp"
#include "load/RankTableFiles.hpp"

namespace marey {

namespace {

// rank.names with a hash index over them, for the many names of a rank's files (each repeats
// once a step): ClusterRank::Intern looks through every name.
class RankNames {
public:
    explicit RankNames(ClusterRank& rank) : m_rank(rank) {
        for (uint32_t i = 0; i < rank.names.size(); ++i)
            if (uint32_t& slot = Slot(rank.names[i]); slot == kNone) slot = i;
    }
    uint32_t Intern(std::string_view name) {
        uint32_t& slot = Slot(name);
        if (slot == kNone) {
            slot = static_cast<uint32_t>(m_rank.names.size());
            m_rank.names.emplace_back(name);
        }
        return slot;
    }

private:
    static constexpr uint32_t kNone = UINT32_MAX;
    uint32_t& Slot(std::string_view name) {
        const StringId id = m_pool.Intern(name);
        if (id >= m_slots.size()) m_slots.resize(id + 1, kNone);
        return m_slots[id];
    }
    ClusterRank& m_rank;
    StringPool m_pool;
    std::vector<uint32_t> m_slots;  // per pool id: its index in rank.names, kNone when not there
};

}  // namespace

void AddRankCollectives(const std::vector<CommunicationOp>& ops, ClusterRank& rank) {
    RankNames names(rank);
    rank.collectives.reserve(rank.collectives.size() + ops.size());
    for (const CommunicationOp& op : ops) {
        if (op.isTotal) continue;
        RankCollective collective;
        collective.step = StepFromKey(op.step);
        collective.name = names.Intern(op.name);
        collective.group = names.Intern(op.group);
        collective.p2p = op.kind == "p2p";
        collective.startNs = op.hasStart ? op.startNs : 0;
        collective.elapseNs = op.elapseNs, collective.transitNs = op.transitNs,
        collective.waitNs = op.waitNs;
        collective.syncNs = op.syncNs, collective.idleNs = op.idleNs;
        rank.collectives.push_back(std::move(collective));
    }
}

void AddRankLinks(const std::vector<CommunicationLink>& links, ClusterRank& rank) {
    RankNames names(rank);
    std::vector<RankLink> added;
    added.reserve(links.size());
    for (const CommunicationLink& link : links) {
        const size_t at = link.group.rfind('@');
        const std::string_view key(link.group);
        const std::string_view op = key.substr(0, at);
        // The file's own sum of the others, with "@<group>" in msprof-analyze's newer files.
        if (op == "Total Op Info") continue;
        RankLink sum;
        sum.op = names.Intern(op);
        sum.group =
            names.Intern(at == std::string_view::npos ? std::string_view() : key.substr(at + 1));
        sum.srcRank = link.srcRank, sum.dstRank = link.dstRank;
        sum.transport = link.transport;
        sum.transitSizeMb = link.transitSizeMb;
        sum.transitNs = link.transitNs;
        sum.count = link.entries;
        added.push_back(std::move(sum));
    }
    const auto text = [&](const RankLink& l) {
        return std::make_tuple(std::string_view(rank.names[l.op]),
                               std::string_view(rank.names[l.group]), l.srcRank, l.dstRank,
                               std::string_view(l.transport));
    };
    std::stable_sort(added.begin(), added.end(),
                     [&](const RankLink& a, const RankLink& b) { return text(a) < text(b); });
    rank.links.reserve(rank.links.size() + added.size());
    for (RankLink& link : added) rank.links.push_back(std::move(link));
}

namespace {

// Operator count and time per type, largest total first (then by type): OperatorsFromKernels'
// byType table without its per-name table and cores, which the summary does not keep.
void AddOperatorTypes(const KernelTable& kernels, ClusterRank& rank) {
    std::vector<uint32_t> slotOfType(kernels.strings.size(), UINT32_MAX);
    std::vector<RankOperatorType> types;
    for (const KernelRow& row : kernels.rows) {
        uint32_t& slot = slotOfType[row.type];
        if (slot == UINT32_MAX) {
            slot = static_cast<uint32_t>(types.size());
            types.push_back({std::string(kernels.strings.Get(row.type)), 0, 0});
        }
        ++types[slot].count;
        types[slot].totalNs = SaturatingAdd(types[slot].totalNs, row.durNs);
    }
    std::sort(types.begin(), types.end(), [](const RankOperatorType& a, const RankOperatorType& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.type < b.type;
    });
    for (RankOperatorType& type : types) rank.operatorTypes.push_back(std::move(type));
}

}  // namespace

uint32_t ClusterRank::Intern(const std::string& name) {
    for (uint32_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return i;
    names.push_back(name);
    return static_cast<uint32_t>(names.size() - 1);
}

const StepRow* ClusterRank::FindStep(const std::string& step) const {
    for (const StepRow& row : steps)
        if (row.step == step) return &row;
    return nullptr;
}

std::string StepFromKey(const std::string& key) {
    if (key.size() > 4 && key.compare(0, 4, "step") == 0) return key.substr(4);
    return key;
}

namespace {

// The summary of a rank exported as a database: analysis.db's steps, communication and links,
// the tasks' operator types and overview; steps computed from the tasks when analysis.db has none.
void SummarizeDatabase(const RankFiles& files, const RankReadOptions& options, ClusterRank& rank) {
    auto opened = SqliteFile::OpenReadOnly(files.profilerDb);
    if (!opened.ok()) {
        rank.unreadable = true;
        return rank.problems.push_back(opened.message());
    }
    if (!opened.value()->Salvaged().empty())
        rank.problems.push_back(files.profilerDb + ": error: " + opened.value()->Salvaged());
    // An empty file opens as an empty database: as the rank opened alone, it is no profiler's.
    if (Status profiler = CheckProfilerDatabase(*opened.value()); !profiler.ok()) {
        rank.unreadable = true;  // left out of the cluster and named, never a rank of zeros
        return rank.problems.push_back(profiler.message());
    }
    RankTables tables;
    if (!files.analysisDb.empty()) {
        auto analysis = SqliteFile::OpenReadOnly(files.analysisDb);
        if (analysis.ok() && !analysis.value()->Salvaged().empty())
            tables.problems.push_back(files.analysisDb +
                                      ": error: " + analysis.value()->Salvaged());
        if (analysis.ok())
            ReadAnalysisDb(*analysis.value(), *opened.value(), tables);
        else
            tables.problems.push_back(analysis.message());
    }
    // torch_npu copies profiler_metadata.json into the database: read there when the folder
    // has no such file.
    if (rank.parallel.Empty())
        rank.parallel = ReadDbParallelInfo(*opened.value(), files.profilerDb, rank.problems);
    DbTimeline timeline = ReadDbOperators(*opened.value());
    for (const ChunkEvents& chunk : timeline.chunks)
        for (const ImportProblem& problem : chunk.problems.kept)
            rank.problems.push_back(FormatProblem(files.profilerDb, problem));
    if (!tables.steps) tables.steps = StepsFromTimeline(timeline);
    tables.kernels = std::move(timeline.kernels);
    RankTableOrigin origin;
    origin.database = true;
    SummarizeRankTables(tables, origin, rank);
    if (options.keepKernelTable)
        rank.kernels = std::make_shared<const KernelTable>(std::move(*tables.kernels));
}

// Kernel rows of steps that the step file does not list are in no step's figures, and the Marey
// view (whose steps are the step file's) never shows them: said once, with those steps.
void NameStepsNotInStepFile(const std::string& path, const KernelTable& table, ClusterRank& rank) {
    if (rank.steps.empty()) return;
    std::vector<int8_t> listed(table.strings.size(), -1);  // by the table's string id; -1: unseen
    std::map<std::string, size_t> unlisted;                // step → its rows
    for (const KernelRow& row : table.rows) {
        if (row.step == 0) continue;
        int8_t& state = listed[row.step];
        if (state < 0) state = rank.FindStep(std::string(table.strings.Get(row.step))) ? 1 : 0;
        if (state == 0) ++unlisted[std::string(table.strings.Get(row.step))];
    }
    if (unlisted.empty()) return;
    size_t rows = 0;
    std::string steps;
    for (const auto& [step, count] : unlisted) {
        rows += count;
        if (steps.size() < 60) steps += (steps.empty() ? "" : ", ") + step;
    }
    rank.problems.push_back(path + ": " + CountText(rows, "row", "rows") + " of " +
                            CountText(unlisted.size(), "step", "steps") + " (" + steps +
                            (steps.size() >= 60 ? ", …" : "") +
                            ") that step_trace_time.csv does not list: in no step's figures");
}

}  // namespace

void ReadDataVerdict(const DataPreparationFiles& files, ClusterRank& rank) {
    if (files.hostQueue.empty() && files.deviceQueue.empty()) return;
    // Only the queues decide the verdict: the pipeline's files are left to the rank's own view.
    DataPreparationFiles queues;
    queues.hostQueue = files.hostQueue;
    queues.deviceQueue = files.deviceQueue;
    queues.deviceQueueInNs = files.deviceQueueInNs;
    DataPreparation input = AnalyzeDataPreparation(queues, nullptr);
    rank.dataVerdict = std::move(input.verdict);
    rank.problems.insert(rank.problems.end(), input.problems.begin(), input.problems.end());
}

void ReadFlopsSummary(const FlopsFiles& files, ClusterRank& rank) {
    if (!files.Any()) return;
    // Only what the summary needs: the operators only without a summary file, never the scopes
    // (those are the rank's own view's).
    FlopsFiles needed;
    needed.summary = files.summary;
    if (files.summary.empty()) needed.operators = files.operators;
    RankFlops flops = ReadRankFlops(needed);
    rank.flops = flops.summary;
    rank.flopsSource = std::move(flops.summarySource);
    rank.problems.insert(rank.problems.end(), flops.problems.begin(), flops.problems.end());
}

void ReadPeakMemory(const std::string& memoryRecord, ClusterRank& rank) {
    ReadAnalysisFile(memoryRecord, rank.problems, [&](std::string_view text) {
        auto record = ParseMemoryRecordCsv(text, memoryRecord);
        if (!record.ok()) return rank.problems.push_back(record.message());
        AddFileProblems(memoryRecord, record.value().problems, rank.problems);
        rank.peakMemory = PeakAllocatedMemory(record.value());
    });
}

void SummarizeRankTables(const RankTables& tables, const RankTableOrigin& origin,
                         ClusterRank& rank) {
    rank.problems.insert(rank.problems.end(), tables.problems.begin(), tables.problems.end());
    if (tables.steps) {
        rank.steps = tables.steps->rows;
        rank.hasPhase = tables.steps->hasColumn;
    }
    if (tables.communication) AddRankCollectives(tables.communication->ops, rank);
    if (tables.matrix)
        AddRankLinks(tables.matrix->linksSummed ? tables.matrix->links
                                                : SumMatrixLinks(tables.matrix->links),
                     rank);
    if (tables.kernels) AddOperatorTypes(*tables.kernels, rank);
    rank.overview = RankOverviewFigures(OverviewInputsOf(tables, origin));
    if (tables.memoryRecord) rank.peakMemory = PeakAllocatedMemory(*tables.memoryRecord);
}

ClusterRank SummarizeRankFolder(const RankFiles& files, const RankReadOptions& options) {
    ClusterRank rank;
    rank.rankId = files.rankId;
    rank.path = files.root;
    rank.rankSource = files.rankSource;
    rank.profilerLevel = files.profilerLevel;
    rank.worldSize = files.parallel.worldSize;
    rank.parallel = files.parallel;
    rank.problems = files.problems;
    ReadDataVerdict(files.dataPreparation, rank);
    ReadFlopsSummary(files.flops, rank);
    // A folder with both exports is read from its database, as a single rank is (its memory
    // still from memory_record.csv), unless its text is asked for.
    const bool text = options.source == RankSource::kText;
    if (!files.profilerDb.empty() &&
        (!text || !(files.HasTextExport() || !files.stepTrace.empty()))) {
        if (text)
            rank.problems.push_back(files.root +
                                    ": --source text: no text export in this folder; its "
                                    "database was read");
        ReadPeakMemory(files.memoryRecord, rank);
        SummarizeDatabase(files, options, rank);
        return rank;
    }
    // The tables as the rank opened alone reads them, leaner: the summary needs each kernel's
    // type, times and core class, not its name, and no bandwidth, op_statistic or operator memory.
    RankTableSelection selection;
    selection.kernelNames = options.keepKernelTable;
    selection.opStatistic = selection.communicationBandwidth = selection.operatorMemory = false;
    selection.matrixByStep = false;
    RankTables tables = ReadRankTableFiles(files, selection);
    RankTableOrigin origin;
    origin.stepTraceRaw = files.stepTrace.empty() && !files.stepTraceRaw.empty();
    SummarizeRankTables(tables, origin, rank);
    if (tables.kernels) {
        NameStepsNotInStepFile(files.kernelDetails, *tables.kernels, rank);
        // A file whose bytes could not all be read (a truncated gzip) is not kept: the Marey view
        // reads it again and names the problem itself.
        if (options.keepKernelTable && !tables.kernelsCut) {
            tables.kernels->rows.shrink_to_fit();  // a thousand ranks keep theirs side by side
            rank.kernels = std::make_shared<const KernelTable>(std::move(*tables.kernels));
        }
    }
    return rank;
}

}  // namespace marey

#include "cluster/ClusterRank.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/Problem.hpp"
#include "db/DbRankTables.hpp"
#include "db/DbTimeline.hpp"
#include "load/AnalysisFile.hpp"
#include "load/CommunicationJson.hpp"
#include "load/KernelTable.hpp"

namespace marey {

OverviewFigures OverviewFromSteps(const std::vector<StepRow>& steps) {
    OverviewFigures figures;
    for (const StepRow& row : steps) {
        figures.computingNs = SaturatingAdd(figures.computingNs, row.ns[kStepComputing]);
        figures.commOverlappedNs = SaturatingAdd(figures.commOverlappedNs, row.ns[kStepOverlapped]);
        figures.commNotOverlappedNs =
            SaturatingAdd(figures.commNotOverlappedNs, row.ns[kStepCommNotOverlapped]);
        figures.freeNs = SaturatingAdd(figures.freeNs, row.ns[kStepFree]);
    }
    figures.pureComputingNs = std::max<TimeNs>(0, figures.computingNs - figures.commOverlappedNs);
    figures.totalNs =
        SaturatingAdd(SaturatingAdd(figures.pureComputingNs, figures.commOverlappedNs),
                      SaturatingAdd(figures.commNotOverlappedNs, figures.freeNs));
    figures.source = "step_trace_time.csv";
    figures.valid = figures.totalNs > 0;
    return figures;
}

void AddRankCollectives(const std::vector<CommunicationOp>& ops, ClusterRank& rank) {
    rank.collectives.reserve(rank.collectives.size() + ops.size());
    for (const CommunicationOp& op : ops) {
        if (op.isTotal) continue;
        RankCollective collective;
        collective.step = StepFromKey(op.step);
        collective.name = rank.Intern(op.name);
        collective.group = rank.Intern(op.group);
        collective.p2p = op.kind == "p2p";
        collective.startNs = op.hasStart ? op.startNs : 0;
        collective.elapseNs = op.elapseNs, collective.transitNs = op.transitNs,
        collective.waitNs = op.waitNs;
        collective.syncNs = op.syncNs, collective.idleNs = op.idleNs;
        rank.collectives.push_back(std::move(collective));
    }
}

// Links summed over steps, per (operator, source, destination, transport): the matrix a person
// reads is per operator or summed, and one entry per step would make a thousand-rank cluster's
// summaries a thousand times larger.
void AddRankLinks(const std::vector<CommunicationLink>& links, ClusterRank& rank) {
    std::map<std::tuple<std::string, std::string, int, int, std::string>, RankLink> summed;
    for (const CommunicationLink& link : links) {
        const size_t at = link.group.rfind('@');
        const std::string op = at == std::string::npos ? link.group : link.group.substr(0, at);
        // The file's own sum of the others, with "@<group>" in msprof-analyze's newer files.
        if (op == "Total Op Info") continue;
        const std::string group =
            at == std::string::npos ? std::string() : link.group.substr(at + 1);
        RankLink& sum = summed[{op, group, link.srcRank, link.dstRank, link.transport}];
        sum.srcRank = link.srcRank, sum.dstRank = link.dstRank, sum.transport = link.transport;
        sum.transitSizeMb += link.transitSizeMb;
        sum.transitNs = SaturatingAdd(sum.transitNs, link.transitNs);
        ++sum.count;
        if (sum.count == 1) sum.op = rank.Intern(op), sum.group = rank.Intern(group);
    }
    rank.links.reserve(summed.size());
    for (auto& [key, link] : summed) rank.links.push_back(std::move(link));
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
    if (!rank.overview.valid) rank.overview = OverviewFromKernels(kernels);
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
// the operator types of its tasks; steps computed from the tasks when analysis.db has none.
void SummarizeDatabase(const RankFiles& files, const RankReadOptions& options, ClusterRank& rank) {
    auto opened = SqliteFile::OpenReadOnly(files.profilerDb);
    if (!opened.ok()) return rank.problems.push_back(opened.message());
    DbRankTables tables;
    if (!files.analysisDb.empty()) {
        auto analysis = SqliteFile::OpenReadOnly(files.analysisDb);
        if (analysis.ok())
            ReadAnalysisDb(*analysis.value(), tables);
        else
            tables.problems.push_back(analysis.message());
    }
    DbTimeline timeline = ReadDbOperators(*opened.value());
    for (const ChunkEvents& chunk : timeline.chunks)
        for (const ImportProblem& problem : chunk.problems.kept)
            rank.problems.push_back(FormatProblem(files.profilerDb, problem));
    if (!tables.steps) tables.steps = StepsFromTimeline(timeline);
    for (std::string& problem : tables.problems) rank.problems.push_back(std::move(problem));
    rank.steps = std::move(tables.steps->rows);
    rank.hasPhase = tables.steps->hasColumn;
    rank.overview = OverviewFromSteps(rank.steps);
    if (tables.communication) AddRankCollectives(tables.communication->ops, rank);
    if (tables.matrix) AddRankLinks(tables.matrix->links, rank);
    AddOperatorTypes(timeline.kernels, rank);
    if (options.keepKernelTable)
        rank.kernels = std::make_shared<const KernelTable>(std::move(timeline.kernels));
}

}  // namespace

ClusterRank SummarizeRankFolder(const RankFiles& files, const RankReadOptions& options) {
    ClusterRank rank;
    rank.rankId = files.rankId;
    rank.path = files.root;
    rank.rankSource = files.rankSource;
    rank.profilerLevel = files.profilerLevel;
    rank.worldSize = files.worldSize;
    rank.problems = files.problems;
    // A folder with both exports is read from its database, as a single rank is.
    if (!files.profilerDb.empty()) {
        SummarizeDatabase(files, options, rank);
        return rank;
    }
    ReadAnalysisFile(files.stepTrace, rank.problems, [&](std::string_view text) {
        auto steps = ParseStepTraceCsv(text, files.stepTrace);
        if (!steps.ok()) return rank.problems.push_back(steps.message());
        AddFileProblems(files.stepTrace, steps.value().problems, rank.problems);
        rank.steps = std::move(steps.value().rows);
        rank.hasPhase = steps.value().hasColumn;
        rank.overview = OverviewFromSteps(rank.steps);
    });
    ReadAnalysisFile(files.communication, rank.problems, [&](std::string_view text) {
        CommunicationOps ops;
        const Status status = ParseCommunicationJson(text, files.communication, ops);
        AddFileProblems(files.communication, ops.problems, rank.problems);
        if (!status.ok()) return rank.problems.push_back(status.message());
        AddRankCollectives(ops.ops, rank);
    });
    ReadAnalysisFile(files.communicationMatrix, rank.problems, [&](std::string_view text) {
        CommunicationMatrix matrix;
        const Status status = ParseCommunicationMatrixJson(text, files.communicationMatrix, matrix);
        AddFileProblems(files.communicationMatrix, matrix.problems, rank.problems);
        if (!status.ok()) return rank.problems.push_back(status.message());
        AddRankLinks(matrix.links, rank);
    });
    const size_t problemsBefore = rank.problems.size();
    ReadAnalysisFile(files.kernelDetails, rank.problems, [&](std::string_view text) {
        auto table = ParseKernelTable(text, files.kernelDetails);
        if (!table.ok()) return rank.problems.push_back(table.message());
        // A file whose bytes could not all be read (a truncated gzip) is not kept: the Marey view
        // reads it again and names the problem itself.
        const bool textWhole = rank.problems.size() == problemsBefore;
        AddFileProblems(files.kernelDetails, table.value().problems, rank.problems);
        AddOperatorTypes(table.value(), rank);
        if (options.keepKernelTable && textWhole) {
            table.value().rows.shrink_to_fit();  // a thousand ranks keep theirs side by side
            rank.kernels = std::make_shared<const KernelTable>(std::move(table.value()));
        }
    });
    return rank;
}

}  // namespace marey

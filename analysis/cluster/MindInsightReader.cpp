#include "cluster/MindInsightReader.hpp"

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <map>

#include "core/Problem.hpp"
#include "load/AnalysisFile.hpp"
#include "load/CsvReader.hpp"
#include "load/ParallelMetadata.hpp"
#include "load/RankDirectory.hpp"

namespace marey {
namespace {

namespace fs = std::filesystem;

// Reads the CSV at 'path' and hands each record, with the header's column indexes, to 'row'.
template <typename Row>
void ReadCsv(const std::string& path, ClusterRank& rank, const std::vector<const char*>& columns,
             const Row& row) {
    ReadAnalysisFile(path, rank.problems, [&](std::string_view text) {
        CsvReader reader(text);
        const std::vector<std::string> header = ReadCsvHeader(reader);
        std::vector<int> at;
        for (const char* column : columns) at.push_back(FindColumn(header, column));
        if (at.empty() || at.front() < 0) {
            rank.problems.push_back(path + ":1:1: error: no \"" + std::string(columns.front()) +
                                    "\" column; the file is not read");
            return;
        }
        std::vector<ImportProblem> problems;
        std::vector<std::string_view> fields;
        uint64_t offset = 0;
        while (reader.Next(fields, &offset)) {
            if (reader.LastRecordUnterminated()) {
                problems.push_back({offset, 0, 0, kCsvUnterminatedRecord});
                break;
            }
            // A short row would read its missing cells as absent, a long one (a stray separator)
            // its cells in their neighbours' columns: neither is read.
            if (fields.size() != header.size()) {
                problems.push_back({offset, 0, 0,
                                    "a row of " + std::to_string(fields.size()) +
                                        " cells against the header's " +
                                        std::to_string(header.size()) + " columns; row left out"});
                continue;
            }
            row(fields, at, offset, problems);
        }
        FillLineColumns(text, problems);
        AddFileProblems(path, problems, rank.problems);
    });
}

enum class CellRead { kAbsent, kRead, kDamaged };

// A cell as a scaled integer (×10^shift) of a duration; a cell that is no number, or a negative
// one, is damaged: a problem naming 'consequence', and *out left 0.
CellRead Cell(const std::vector<std::string_view>& fields, int column, int shift, const char* name,
              uint64_t offset, std::vector<ImportProblem>& problems, int64_t* out,
              const char* consequence = "row left out") {
    const std::string_view cell = FieldAt(fields, column);
    if (column < 0 || cell.empty()) return CellRead::kAbsent;
    const DecimalError error = ParseScaledDecimal(cell, shift, out);
    if (error != DecimalError::kNone || *out < 0) {
        problems.push_back(
            {offset, 0, 0,
             CsvCellProblem(
                 name,
                 error != DecimalError::kNone ? DescribeDecimalError(error) : "a negative duration",
                 cell, consequence)});
        *out = 0;
        return CellRead::kDamaged;
    }
    return CellRead::kRead;
}

// The pipeline's shape from the name of MindInsight's file
// ascend_cluster_analyse_pipeline-parallel_<stages>_<ranks>_<rank>.csv (its own rule: a stage is
// ranks/stages consecutive ranks); numbers that cannot be that shape are named and left out.
void ReadPipelineShape(const std::string& name, ClusterRank& rank) {
    const std::string prefix = "ascend_cluster_analyse_pipeline-parallel_";
    const std::string numbers = name.substr(prefix.size());
    int stages = 0, ranks = 0;
    const char* end = numbers.data() + numbers.size();
    auto [afterStages, stagesError] = std::from_chars(numbers.data(), end, stages);
    if (stagesError == std::errc() && afterStages < end && *afterStages == '_') {
        auto [afterRanks, ranksError] = std::from_chars(afterStages + 1, end, ranks);
        if (ranksError != std::errc() || afterRanks == end || *afterRanks != '_') ranks = 0;
    }
    if (stages < 1 || ranks < 1 || ranks > kMaxParallelRank || ranks % stages != 0 ||
        rank.Id().value() >= ranks) {
        rank.problems.push_back(name + ": error: its name gives " + std::to_string(stages) +
                                " stages of " + std::to_string(ranks) + " ranks (rank " +
                                ToString(rank.Id()) +
                                "): not a pipeline's shape; the layout not read from it");
        return;
    }
    rank.parallel.source = "MindInsight's pipeline-parallel file names";
    rank.parallel.worldSize = ranks;
    rank.parallel.sizes.pp = stages;
}

}  // namespace

int RankOfStepTraceRaw(const std::string& fileName) {
    return NumberBetween(fileName, "step_trace_raw_", "_detail_time.csv");
}

ClusterRank ReadMindInsightRank(const std::string& path) {
    ClusterRank rank;
    const fs::path file(path);
    // Found by its name, which holds the rank (a name without one gives a rank of no id).
    if (const int id = RankOfStepTraceRaw(file.filename().string()); id >= 0)
        rank.rankId = RankId(id);
    rank.path = file.parent_path().string();
    rank.rankSource = file.filename().string() + " (file name)";
    ReadAnalysisFile(path, rank.problems, [&](std::string_view text) {
        auto steps = ParseStepTraceRawCsv(text, path);
        if (!steps.ok()) return rank.problems.push_back(steps.message());
        AddFileProblems(path, steps.value().problems, rank.problems);
        rank.steps = std::move(steps.value().rows);
        for (int phase : {kStepFree, kStepComputing, kStepCommNotOverlapped})
            rank.hasPhase[phase] = !rank.steps.empty() && steps.value().hasColumn[phase];
    });
    std::map<std::string, size_t> stepIndex;
    for (size_t i = 0; i < rank.steps.size(); ++i) stepIndex[rank.steps[i].step] = i;
    // Communication and its waiting per step: one entry per step, named for what it sums.
    const std::string hccl =
        (file.parent_path() / ("hccl_raw_" + std::to_string(ValueOr(rank.rankId, -1)) + ".csv"))
            .string();
    if (fs::exists(hccl)) {
        const uint32_t name = rank.Intern("communication of the step (hccl_raw)");
        const uint32_t group = rank.Intern("");
        ReadCsv(hccl, rank, {"step_num", "communication_cost", "wait_cost"},
                [&](const std::vector<std::string_view>& fields, const std::vector<int>& at,
                    uint64_t offset, std::vector<ImportProblem>& problems) {
                    RankCollective collective;
                    collective.step = std::string(FieldAt(fields, at[0]));
                    if (collective.step == "-") return;
                    collective.name = name, collective.group = group;
                    if (Cell(fields, at[1], 6, "communication_cost", offset, problems,
                             &collective.elapseNs) == CellRead::kDamaged ||  // ms
                        Cell(fields, at[2], 6, "wait_cost", offset, problems, &collective.waitNs) ==
                            CellRead::kDamaged)
                        return;
                    rank.collectives.push_back(std::move(collective));
                });
    }
    // The pipeline-parallel analysis: stage and receive (bubble) time per step, one row per step
    // from step 1, in ms.
    std::error_code error;
    for (fs::directory_iterator it(file.parent_path(), error), end; !error && it != end;
         it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (name.rfind("ascend_cluster_analyse_pipeline-parallel_", 0) != 0 || name.size() < 5 ||
            !rank.rankId || name.substr(name.rfind('_') + 1) != ToString(rank.Id()) + ".csv")
            continue;
        ReadPipelineShape(name, rank);
        size_t line = 0;
        ReadCsv(it->path().string(), rank, {"stage_time", "receive_alone_time"},
                [&](const std::vector<std::string_view>& fields, const std::vector<int>& at,
                    uint64_t offset, std::vector<ImportProblem>& problems) {
                    const auto step = stepIndex.find(std::to_string(++line));
                    if (step == stepIndex.end()) return;
                    StepRow& row = rank.steps[step->second];
                    // A damaged cell leaves that phase of the step unknown (0), named.
                    rank.hasPhase[kStepStage] =
                        Cell(fields, at[0], 6, "stage_time", offset, problems, &row.ns[kStepStage],
                             "the step's stage time left out") == CellRead::kRead ||
                        rank.hasPhase[kStepStage];
                    rank.hasPhase[kStepBubble] =
                        Cell(fields, at[1], 6, "receive_alone_time", offset, problems,
                             &row.ns[kStepBubble],
                             "the step's bubble left out") == CellRead::kRead ||
                        rank.hasPhase[kStepBubble];
                });
        break;
    }
    RankOverviewInputs inputs;
    inputs.profilerSteps = &rank.steps;
    inputs.bubble = BubbleCountedIn::kComputing;
    inputs.stepsSource = kStepsOfStepTraceRaw;
    rank.overview = RankOverviewFigures(inputs);
    if (rank.rankId) {
        ReadDataVerdict(FindDataPreparationFiles(file.parent_path().string(), rank.rankId), rank);
        ReadFlopsSummary(FindFlopsFiles(file.parent_path().string(), rank.rankId), rank);
    }
    return rank;
}

}  // namespace marey

#include "stats/RankAnalysis.hpp"

#include <filesystem>
#include <unordered_map>

#include "load/TraceLoader.hpp"
#include "load/TraceText.hpp"
#include "stats/ProfilerSteps.hpp"

namespace tracelens {
namespace {

constexpr size_t kProblemsPerFile = 100;

void AddProblems(const std::string& path, const std::vector<ImportProblem>& problems, std::vector<std::string>& out) {
    const std::string name = std::filesystem::path(path).filename().string();
    for (size_t i = 0; i < problems.size() && i < kProblemsPerFile; ++i) out.push_back(FormatProblem(name, problems[i]));
    if (problems.size() > kProblemsPerFile)
        out.push_back(name + ": " + std::to_string(problems.size() - kProblemsPerFile) + " more problems not listed");
}

// Opens 'path' and hands its text (padded for simdjson) to 'parse'.
template <typename Parse>
void ReadFile(const std::string& path, std::vector<std::string>& problems, Parse parse) {
    if (path.empty()) return;
    auto text = TraceText::Open(path);
    if (!text.ok()) {
        problems.push_back(text.message());
        return;
    }
    for (const ImportProblem& problem : text.value().problems()) problems.push_back(path + ": error: " + problem.message);
    parse(std::string_view(text.value().data(), text.value().size()));
}

std::vector<StepSpan> PlaceSteps(const StepTrace& steps, const TraceModel& model) {
    std::vector<StepSpan> spans(steps.rows.size());
    std::unordered_map<std::string, const ProfilerStepSpan*> byStep;
    const std::vector<ProfilerStepSpan> placed = FindProfilerSteps(model);
    for (const ProfilerStepSpan& span : placed) byStep.emplace(span.step, &span);
    for (size_t i = 0; i < steps.rows.size(); ++i) {
        const auto it = byStep.find(steps.rows[i].step);
        if (it != byStep.end()) spans[i] = {true, it->second->startNs, it->second->endNs};
    }
    return spans;
}

}  // namespace

RankAnalysis AnalyzeRank(const RankFiles& files, const TraceModel* model) {
    RankAnalysis analysis;
    analysis.files = files;
    analysis.problems = files.problems;
    ReadFile(files.kernelDetails, analysis.problems, [&](std::string_view text) {
        auto table = ParseKernelTable(text, files.kernelDetails);
        if (!table.ok()) return analysis.problems.push_back(table.message());
        AddProblems(files.kernelDetails, table.value().problems, analysis.problems);
        analysis.kernels = std::move(table.value());
    });
    ReadFile(files.stepTrace, analysis.problems, [&](std::string_view text) {
        auto steps = ParseStepTraceCsv(text, files.stepTrace);
        if (!steps.ok()) return analysis.problems.push_back(steps.message());
        AddProblems(files.stepTrace, steps.value().problems, analysis.problems);
        analysis.steps = std::move(steps.value());
    });
    ReadFile(files.opStatistic, analysis.problems, [&](std::string_view text) {
        auto table = ParseOpStatisticCsv(text, files.opStatistic);
        if (!table.ok()) return analysis.problems.push_back(table.message());
        AddProblems(files.opStatistic, table.value().problems, analysis.problems);
        analysis.opStatistic = std::move(table.value());
    });
    ReadFile(files.communication, analysis.problems, [&](std::string_view text) {
        CommunicationOps ops;
        const Status status = ParseCommunicationJson(text, files.communication, ops);
        AddProblems(files.communication, ops.problems, analysis.problems);
        if (!status.ok()) return analysis.problems.push_back(status.message());
        analysis.communication = std::move(ops);
    });
    ReadFile(files.communicationMatrix, analysis.problems, [&](std::string_view text) {
        CommunicationMatrix matrix;
        const Status status = ParseCommunicationMatrixJson(text, files.communicationMatrix, matrix);
        AddProblems(files.communicationMatrix, matrix.problems, analysis.problems);
        if (!status.ok()) return analysis.problems.push_back(status.message());
        analysis.matrix = std::move(matrix);
    });
    ReadFile(files.memoryRecord, analysis.problems, [&](std::string_view text) {
        auto record = ParseMemoryRecordCsv(text, files.memoryRecord);
        if (!record.ok()) return analysis.problems.push_back(record.message());
        AddProblems(files.memoryRecord, record.value().problems, analysis.problems);
        analysis.memoryRecord = std::move(record.value());
    });
    ReadFile(files.operatorMemory, analysis.problems, [&](std::string_view text) {
        auto memory = ParseOperatorMemoryCsv(text, files.operatorMemory);
        if (!memory.ok()) return analysis.problems.push_back(memory.message());
        AddProblems(files.operatorMemory, memory.value().problems, analysis.problems);
        analysis.operatorMemory = std::move(memory.value());
    });

    if (model) analysis.hasTrace = true, analysis.traceStartNs = model->firstNs;
    if (analysis.kernels) analysis.operators = OperatorsFromKernels(*analysis.kernels);
    else if (analysis.opStatistic) analysis.operators = OperatorsFromOpStatistic(*analysis.opStatistic);
    if (model) analysis.overview = OverviewFromOverlapTracks(*model);
    if (!analysis.overview.valid && analysis.kernels) analysis.overview = OverviewFromKernels(*analysis.kernels);
    analysis.advice = AdviseOnOverview(analysis.overview, TopComputeTypes(analysis.operators, 3));
    if (analysis.communication) analysis.communicationTotals = SumCommunication(analysis.communication->ops);
    if (analysis.steps) {
        analysis.stepSpans = model ? PlaceSteps(*analysis.steps, *model) : std::vector<StepSpan>(analysis.steps->rows.size());
    }
    return analysis;
}

}  // namespace tracelens

#include "load/RankTableFiles.hpp"

#include <optional>
#include <string>
#include <vector>

#include "core/Time.hpp"
#include "load/AnalysisFile.hpp"
#include "load/CommunicationJson.hpp"
#include "load/KernelTable.hpp"
#include "load/MatrixLinkSums.hpp"
#include "load/MemoryCsv.hpp"
#include "load/OpStatisticCsv.hpp"
#include "load/StepTraceCsv.hpp"

namespace marey {
namespace {

// Reads the table at 'path' with 'parse' (text, name → Result of a table with its problems) into
// 'out'; a file that cannot be read or parsed leaves 'out' unset and says why in 'problems'.
template <typename Table, typename Parse>
void ReadTable(const std::string& path, std::vector<std::string>& problems,
               std::optional<Table>& out, Parse parse) {
    ReadAnalysisFile(path, problems, [&](std::string_view text) {
        auto table = parse(text, path);
        if (!table.ok()) return problems.push_back(table.message());
        AddFileProblems(path, table.value().problems, problems);
        out = std::move(table.value());
    });
}

}  // namespace

RankTables ReadRankTableFiles(const RankFiles& files, const RankTableSelection& selection) {
    RankTables tables;
    std::vector<std::string>& problems = tables.problems;
    const size_t problemsBefore = problems.size();
    KernelReadOptions read;
    read.names = selection.kernelNames;
    ReadTable(files.kernelDetails, problems, tables.kernels,
              [&](std::string_view text, const std::string& name) {
                  // A file whose bytes could not all be read (a truncated gzip) said so just
                  // before.
                  tables.kernelsCut = problems.size() > problemsBefore;
                  return ParseKernelTable(text, name, read);
              });
    ReadTable(files.stepTrace, problems, tables.steps, ParseStepTraceCsv);
    if (!tables.steps)  // MindSpore's own layout: its step_trace_raw
        ReadTable(files.stepTraceRaw, problems, tables.steps, ParseStepTraceRawCsv);
    if (selection.opStatistic)
        ReadTable(files.opStatistic, problems, tables.opStatistic, ParseOpStatisticCsv);
    ReadAnalysisFile(files.communication, problems, [&](std::string_view text) {
        CommunicationOps ops;
        CommunicationReadOptions options;
        options.keepBandwidth = selection.communicationBandwidth;
        const Status status = ParseCommunicationJson(text, files.communication, ops, options);
        AddFileProblems(files.communication, ops.problems, problems);
        if (!status.ok()) return problems.push_back(status.message());
        tables.communication = std::move(ops);
    });
    ReadAnalysisFile(files.communicationMatrix, problems, [&](std::string_view text) {
        CommunicationMatrix matrix;
        Status status;
        if (selection.matrixByStep) {
            status = ParseCommunicationMatrixJson(text, files.communicationMatrix, matrix);
        } else {
            MatrixLinkSums sums;
            status = ReadCommunicationMatrixLinks(
                text, files.communicationMatrix, matrix.problems,
                [&](const CommunicationLinkView& entry) { sums.Add(entry); });
            matrix.links = sums.Finish();
            matrix.linksSummed = true;
        }
        AddFileProblems(files.communicationMatrix, matrix.problems, problems);
        if (!status.ok()) return problems.push_back(status.message());
        tables.matrix = std::move(matrix);
    });
    ReadTable(files.memoryRecord, problems, tables.memoryRecord, ParseMemoryRecordCsv);
    if (selection.operatorMemory)
        ReadTable(files.operatorMemory, problems, tables.operatorMemory, ParseOperatorMemoryCsv);
    return tables;
}

}  // namespace marey

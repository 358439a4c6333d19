#include "load/DatasetStagesCsv.hpp"

#include <set>
#include <utility>

#include "core/Problem.hpp"
#include "load/CsvReader.hpp"

namespace marey {
namespace {

// An operation runs far fewer times than this in one profile, and no stage's mean lasts a day:
// past either, damage.
constexpr int64_t kMaxOccurrences = int64_t{1} << 40;
constexpr TimeNs kMaxStageMeanNs = int64_t{24} * 3600 * 1000000000;

struct StageColumns {
    int operation, stage, occurrences, average, customInfo;
};

// The problem that leaves the row out, or "".
std::string ReadStage(const std::vector<std::string_view>& fields, const StageColumns& at,
                      DatasetStage& stage) {
    stage.operation = std::string(FieldAt(fields, at.operation));
    stage.stage = std::string(FieldAt(fields, at.stage));
    if (stage.operation.empty()) return "no operation; row left out";
    const std::string_view count = FieldAt(fields, at.occurrences);
    if (ParseScaledDecimal(count, 0, &stage.occurrences) != DecimalError::kNone ||
        stage.occurrences < 0 || stage.occurrences > kMaxOccurrences ||
        count.find_first_of(".eE") != std::string_view::npos)
        return CsvCellProblem("Occurrences", "expected a whole count from 0 to 2^40", count,
                              "row left out");
    const std::string_view average = FieldAt(fields, at.average);
    if (ParseMicrosToNs(average, &stage.averageNs) != DecimalError::kNone || stage.averageNs < 0 ||
        stage.averageNs > kMaxStageMeanNs)
        return CsvCellProblem("Avg. time (us)", "expected a time in µs from 0 to a day", average,
                              "row left out");
    if (__builtin_mul_overflow(stage.averageNs, stage.occurrences, &stage.totalNs))
        return "its runs times its mean pass 292 years; row left out";
    stage.customInfo = std::string(FieldAt(fields, at.customInfo));
    return "";
}

// The column named 'name' or, with its unit glued on, 'glued' ("Avg. time(us)").
int FindEither(const std::vector<std::string>& header, std::string_view name,
               std::string_view glued) {
    const int at = FindColumn(header, name);
    return at >= 0 ? at : FindColumn(header, glued);
}

}  // namespace

Result<DatasetStageTable> ParseDatasetStagesCsv(std::string_view text, const std::string& name) {
    CsvReader reader(text);
    const std::vector<std::string> header = ReadCsvHeader(reader);
    if (header.empty()) return Status::Error(name + ": error: the file is empty");
    const StageColumns at{FindColumn(header, "Operation"), FindColumn(header, "Stage"),
                          FindColumn(header, "Occurrences"),
                          FindEither(header, "Avg. time (us)", "Avg. time(us)"),
                          FindColumn(header, "Custom Info")};
    if (at.operation < 0 || at.stage < 0 || at.occurrences < 0 || at.average < 0)
        return Status::Error(name +
                             ":1:1: error: not a dataset.csv: expected the columns Operation, "
                             "Stage, Occurrences and Avg. time (us)");
    DatasetStageTable table;
    std::set<std::pair<std::string, std::string>> seen;
    std::vector<std::string_view> fields;
    uint64_t offset = 0;
    while (reader.Next(fields, &offset)) {
        const CsvRecordCheck check =
            CheckTableRecord(reader, fields, header.size(), offset, table.problems);
        if (check == CsvRecordCheck::kStop) break;
        if (check == CsvRecordCheck::kSkip) continue;
        DatasetStage stage;
        const std::string problem = ReadStage(fields, at, stage);
        if (!problem.empty()) {
            table.problems.push_back({offset, 0, 0, problem});
        } else if (!seen.insert({stage.operation, stage.stage}).second) {
            table.problems.push_back(
                {offset, 0, 0,
                 stage.operation + " " + stage.stage + " repeats an earlier row's; row left out"});
        } else {
            table.stages.push_back(std::move(stage));
        }
    }
    FillLineColumns(text, table.problems);
    return table;
}

}  // namespace marey

#include "import/kernel_csv/KernelCsvImporter.hpp"

#include <filesystem>

#include "import/ascend_text/AscendTextImporter.hpp"
#include "load/AnalysisFile.hpp"
#include "rank/RankAnalysis.hpp"

namespace marey {
namespace {

ProbeAnswer Probe(const std::string& path, RankSource) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error) ||
        std::filesystem::path(path).extension() != ".csv")
        return {0, ""};
    return {100, "a CSV file, read as kernel_details.csv"};
}

// Its timeline, and its rows as the rank's kernel table (away from a rank folder, the file is the
// only table the rank has): the Overview and Operators read it as they read a folder's.
Result<LoadedRank> LoadRank(const std::string& path, const LoadOptions& options,
                            LoadProgress* progress) {
    auto loaded = LoadTraceRank(path, options, progress);
    if (!loaded.ok() || loaded.value().analysis->kernels) return loaded;
    RankAnalysis& analysis = *loaded.value().analysis;
    ReadAnalysisFile(path, analysis.problems, [&](std::string_view text) {
        auto table = ParseKernelTable(text, path);
        if (!table.ok()) return analysis.problems.push_back(table.message());
        AddFileProblems(path, table.value().problems, analysis.problems);
        analysis.kernels = std::move(table.value());
    });
    SummarizeRank(analysis, loaded.value().model.get());
    return loaded;
}

}  // namespace

Importer KernelCsvImporter() {
    return {SourceKind::kKernelCsv,
            "Ascend kernel_details.csv",
            SourceFormat::kCsv,
            Probe,
            LoadRank,
            LoadTraceTimeline,
            [](const TraceSource& source, uint64_t ref) {
                return ReadCsvRowDetails(source.text, ref, source.csvHeader);
            }};
}

}  // namespace marey

#include "marey/MareyInput.hpp"

#include "db/DbRankTables.hpp"
#include "load/AnalysisFile.hpp"
#include "load/RankDirectory.hpp"

namespace marey {

MareyMemory MareyMemoryOf(const MemorySeries& series, TimeNs stepStartNs, TimeNs spanNs) {
    MareyMemory memory;
    memory.present = true;
    memory.peakMb = series.peakMb;
    for (size_t i = 0; i < series.timeNs.size() && i < series.megabytes.size(); ++i) {
        const TimeNs t = series.timeNs[i] - stepStartNs;
        if (t < 0 || t > spanNs) continue;
        memory.timeNs.push_back(t);
        memory.megabytes.push_back(series.megabytes[i]);
    }
    return memory;
}

MareyMemory LoadMareyMemory(const std::string& rankPath, TimeNs stepStartNs, TimeNs spanNs) {
    MareyMemory memory;
    auto files = FindRankFiles(rankPath);
    if (files.ok() && !files.value().profilerDb.empty()) {
        auto db = SqliteFile::OpenReadOnly(files.value().profilerDb);
        if (!db.ok()) return memory;
        RankTables tables;
        ReadDbMemory(*db.value(), tables);
        if (tables.memoryRecord)
            if (const MemorySeries* chosen = ChooseAllocatedSeries(*tables.memoryRecord))
                memory = MareyMemoryOf(*chosen, stepStartNs, spanNs);
        return memory;
    }
    if (!files.ok() || files.value().memoryRecord.empty()) return memory;
    std::vector<std::string> problems;
    ReadAnalysisFile(files.value().memoryRecord, problems, [&](std::string_view text) {
        auto record = ParseMemoryRecordCsv(text, files.value().memoryRecord);
        if (!record.ok()) return;
        if (const MemorySeries* chosen = ChooseAllocatedSeries(record.value()))
            memory = MareyMemoryOf(*chosen, stepStartNs, spanNs);
    });
    return memory;
}

}  // namespace marey

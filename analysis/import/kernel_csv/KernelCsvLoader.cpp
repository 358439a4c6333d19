#include "import/kernel_csv/KernelCsvLoader.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include "index/RowQuery.hpp"
#include "load/CsvReader.hpp"
#include "load/KernelTable.hpp"
#include "model/ModelBuilder.hpp"

namespace marey {
Result<std::unique_ptr<TraceModel>> LoadKernelDetailsCsv(TraceText text, const std::string& name,
                                                         const LoadOptions& options) {
    auto model = std::make_unique<TraceModel>();
    TraceSource& source = model->sources.emplace_back();
    source.path = name;
    source.text = std::move(text);
    source.format = SourceFormat::kCsv;
    CsvReader reader(std::string_view(source.text.data(), source.text.size()));
    source.csvHeader = ReadCsvHeader(reader);
    if (source.csvHeader.empty()) return Status::Error(name + ": error: the file is empty");
    const std::vector<std::string>& header = source.csvHeader;
    std::vector<std::string_view> fields;
    const auto found = FindKernelColumns(header, name);
    if (!found.ok()) return found.status();
    const KernelColumns& columns = found.value();

    std::vector<ChunkEvents> chunks(1);
    ChunkEvents& chunk = chunks[0];
    const StringId processName = chunk.strings.Intern("kernel_details.csv");
    auto trackFor = [&](const EntityId& tid, const std::string& label) -> uint32_t {
        for (uint32_t t = 0; t < chunk.tracks.size(); ++t)
            if (chunk.tracks[t].tid == tid) return t;
        ChunkTrack track;
        track.pid = EntityId{};
        track.tid = tid;
        chunk.tracks.push_back(std::move(track));
        const uint32_t index = static_cast<uint32_t>(chunk.tracks.size() - 1);
        chunk.metadata.push_back(
            {0, index, MetadataKind::kThreadName, chunk.strings.Intern(label), 0});
        return index;
    };
    uint64_t offset = 0;
    while (reader.Next(fields, &offset)) {
        if (reader.LastRecordUnterminated()) {
            chunk.problems.Add(offset, kCsvUnterminatedRecord);
            break;
        }
        ++chunk.eventCount;
        ++chunk.phases.byChar['X'];
        const std::string_view startText = FieldAt(fields, columns.start);
        const std::string_view durationText = FieldAt(fields, columns.duration);
        TimeNs start = 0, duration = 0;
        if (const DecimalError error = ParseMicrosToNs(startText, &start);
            error != DecimalError::kNone) {
            chunk.problems.Add(offset, CsvCellProblem("Start Time(us)", DescribeDecimalError(error),
                                                      startText, "row skipped"));
            continue;
        }
        if (const DecimalError error = ParseMicrosToNs(durationText, &duration);
            error != DecimalError::kNone) {
            chunk.problems.Add(offset, CsvCellProblem("Duration(us)", DescribeDecimalError(error),
                                                      durationText, "row skipped"));
            continue;
        }
        if (duration < 0 || start > INT64_MAX - duration) {
            chunk.problems.Add(offset,
                               "column \"Duration(us)\": negative or out of range; row skipped");
            continue;
        }
        // One track per stream; rows without a stream (HCCL rows say N/A) go by accelerator core.
        const std::string_view stream = FieldAt(fields, columns.stream);
        int64_t streamNumber = 0;
        uint32_t track;
        if (!stream.empty() &&
            ParseScaledDecimal(stream, 0, &streamNumber) == DecimalError::kNone) {
            track = trackFor(EntityId{streamNumber, 0}, "Stream " + std::to_string(streamNumber));
        } else {
            std::string core(FieldAt(fields, columns.core));
            if (core.empty()) core = "(no stream or core)";
            track = trackFor(EntityId{0, chunk.strings.Intern(core)}, core);
        }
        chunk.AddSlice(track, start, duration, offset,
                       chunk.strings.Intern(FieldAt(fields, columns.name)));
    }
    if (chunk.tracks.empty()) {
        ChunkTrack track;
        track.pid = EntityId{};
        chunk.tracks.push_back(std::move(track));
    }
    chunk.metadata.push_back({0, 0, MetadataKind::kProcessName, processName, 0});
    for (ChunkTrack& track : chunk.tracks) {
        std::sort(track.slices.begin(), track.slices.end(), SliceBefore);
        std::sort(track.wideSlices.begin(), track.wideSlices.end(), SliceBefore);
    }
    const unsigned threads =
        options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    BuildModel(chunks, threads, *model, kFlowSortInPlaceBytes, BuildOverview);
    FillLineColumns(source.text, model->report.problems);
    return model;
}

}  // namespace marey

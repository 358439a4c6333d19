// BuildModel on chunk tables made by hand: what no small trace file can show, such as slices
// 4 GiB or more past their chunk's start.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "load/ChunkDecoder.hpp"
#include "load/TraceText.hpp"
#include "model/FlowMatcher.hpp"
#include "model/ModelBuilder.hpp"

using namespace marey;

namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;

ChunkEvents ChunkOfOneThread(uint64_t refBase) {
    ChunkEvents chunk;
    chunk.refBase = chunk.beginOffset = refBase;
    ChunkTrack track;
    track.pid = EntityId{1, 0};
    track.tid = EntityId{1, 0};
    chunk.tracks.push_back(std::move(track));
    return chunk;
}

}  // namespace

TEST_CASE(
    "slices 4 GiB or more past their chunk's start, or longer than 2^32 ns, keep their refs and "
    "file order") {
    std::vector<ChunkEvents> chunks;
    chunks.push_back(ChunkOfOneThread(0));
    chunks.push_back(ChunkOfOneThread(9 * kGiB));
    const StringId first = chunks[0].strings.Intern("first");
    // Equal start and duration: only the place in the file orders these, across the compact
    // and the wide tables of one chunk and across chunks.
    chunks[0].AddSlice(0, 100, 10, 5 * kGiB, first);  // wide: 5 GiB past the chunk's start
    chunks[0].AddSlice(0, 100, 10, 40, first);        // compact
    chunks[0].AddSlice(0, 200, 10, 6 * kGiB, first);
    chunks[0].AddSlice(0, 300, 10, 4 * kGiB - 1, first);  // the last compact ref
    chunks[0].AddSlice(0, 0, 5'000'000'000, 16, first);   // wide: too long
    const StringId second = chunks[1].strings.Intern("second");
    chunks[1].AddSlice(0, 100, 10, 9 * kGiB + 8, second);
    chunks[1].AddSlice(0, 50, 500, 14 * kGiB, second);
    CHECK(chunks[0].tracks[0].slices.size() == 2);
    CHECK(chunks[0].tracks[0].wideSlices.size() == 3);
    CHECK(chunks[1].tracks[0].wideSlices.size() == 1);
    for (ChunkEvents& chunk : chunks) {
        std::sort(chunk.tracks[0].slices.begin(), chunk.tracks[0].slices.end(), SliceBefore);
        std::sort(chunk.tracks[0].wideSlices.begin(), chunk.tracks[0].wideSlices.end(),
                  SliceBefore);
    }

    TraceModel model;
    BuildModel(chunks, 2, model);
    REQUIRE(model.tracks.size() == 1);
    const Track& track = model.tracks[0];
    // Equal slices nest in file order, one row deeper each.
    REQUIRE(track.rows.size() == 5);
    std::vector<std::vector<uint64_t>> refs;
    for (const Row& row : track.rows) {
        refs.emplace_back();
        for (size_t i = 0; i < row.size(); ++i) refs.back().push_back(row.Ref(i));
    }
    CHECK(refs[0] == std::vector<uint64_t>{16});
    CHECK(refs[1] == std::vector<uint64_t>{14 * kGiB});
    CHECK(refs[2] == std::vector<uint64_t>{40, 6 * kGiB, 4 * kGiB - 1});
    CHECK(refs[3] == std::vector<uint64_t>{5 * kGiB});
    CHECK(refs[4] == std::vector<uint64_t>{9 * kGiB + 8});
    CHECK(track.rows[0].end[0] == 5'000'000'000);
    CHECK(model.Name(track.rows[1].name[0]) == "second");
    CHECK(model.Name(track.rows[2].name[0]) == "first");
    CHECK(track.rows[2].start[2] == 300);
}

TEST_CASE(
    "the flow matcher joins a start and a finish of one category and id, and counts the event left "
    "alone") {
    // Ids 7 and "7" are the same text; "8" has no finish, and id 7 of another category none either.
    const std::string json = R"([{"ph":"s","cat":"c","id":7,"name":"f","pid":1,"tid":1,"ts":1},)"
                             R"({"ph":"s","cat":"c","id":"8","name":"f","pid":1,"tid":1,"ts":2},)"
                             R"({"ph":"s","cat":"other","id":7,"name":"f","pid":1,"tid":1,"ts":3},)"
                             R"({"ph":"f","cat":"c","id":"7","name":"f","pid":1,"tid":2,"ts":5}])";
    const TraceText text = TraceText::FromString(json);
    std::vector<ChunkEvents> chunks(1);
    ChunkDecoder(text).DecodeSlow(1, json.size(), chunks[0]);
    REQUIRE(chunks[0].problems.count == 0);
    REQUIRE(chunks[0].flows.size() == 4);
    // The chunk's ids are the model's.
    std::vector<std::vector<StringId>> stringRemap(1,
                                                   std::vector<StringId>(chunks[0].strings.size()));
    std::iota(stringRemap[0].begin(), stringRemap[0].end(), StringId{0});
    std::vector<std::vector<uint32_t>> trackRemap(1,
                                                  std::vector<uint32_t>(chunks[0].tracks.size()));
    std::iota(trackRemap[0].begin(), trackRemap[0].end(), 0u);
    const StringId category = chunks[0].strings.Find("c");

    FlowMatcher matcher(chunks, stringRemap, trackRemap, std::string_view(text.data(), text.size()),
                        0);
    matcher.Gather(1);
    CHECK(matcher.DroppedEvents() == 0);
    for (size_t part = 0; part < matcher.PartCount(); ++part) matcher.MatchPart(part);
    PodArray<Flow> flows;
    std::vector<FlowOrigin> origins;
    ImportReport report;
    matcher.Finish(flows, origins, report, UINT64_MAX);
    CHECK(report.matchedFlows == 1);
    CHECK(report.unmatchedFlowEvents == 2);
    REQUIRE(flows.size() == 1);
    CHECK(flows[0].fromTs == 1000);
    CHECK(flows[0].toTs == 5000);
    // Bit-fields: copied out before doctest takes their address.
    const Flow flow = flows[0];
    const uint64_t fromRef = flow.fromRef, toRef = flow.toRef;
    const uint32_t fromOrigin = flow.fromOrigin, toOrigin = flow.toOrigin;
    const bool fromEnclosing = flow.fromEnclosing, toEnclosing = flow.toEnclosing;
    CHECK(fromRef == 1);
    CHECK(toRef == json.find(R"({"ph":"f")"));
    CHECK(fromEnclosing);  // a start without "bp"
    CHECK_FALSE(toEnclosing);
    REQUIRE(fromOrigin < origins.size());
    REQUIRE(toOrigin < origins.size());
    CHECK(origins[fromOrigin].category == category);
    CHECK(chunks[0].tracks[origins[fromOrigin].track].tid.number == 1);
    CHECK(chunks[0].tracks[origins[toOrigin].track].tid.number == 2);
}

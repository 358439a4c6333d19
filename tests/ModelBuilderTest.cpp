// BuildModel on chunk tables made by hand: what no small trace file can show, such as slices
// 4 GiB or more past their chunk's start.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

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

TEST_CASE("slices 4 GiB or more past their chunk's start, or longer than 2^32 ns, keep their refs and file order") {
    std::vector<ChunkEvents> chunks;
    chunks.push_back(ChunkOfOneThread(0));
    chunks.push_back(ChunkOfOneThread(9 * kGiB));
    const StringId first = chunks[0].strings.Intern("first");
    // Equal start and duration: only the place in the file orders these, across the compact
    // and the wide tables of one chunk and across chunks.
    chunks[0].AddSlice(0, 100, 10, 5 * kGiB, first);     // wide: 5 GiB past the chunk's start
    chunks[0].AddSlice(0, 100, 10, 40, first);           // compact
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
        std::sort(chunk.tracks[0].wideSlices.begin(), chunk.tracks[0].wideSlices.end(), SliceBefore);
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

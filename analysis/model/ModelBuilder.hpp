#pragma once
// Merges the decoded chunks of one trace, in file order, into a TraceModel.
#include <vector>

#include "load/RawEvents.hpp"
#include "model/TraceModel.hpp"

namespace marey {

// Flow arrows up to this many bytes are sorted where they were matched; more are merged into a
// new array by all threads (see FlowMatcher::Finish).
constexpr uint64_t kFlowSortInPlaceBytes = 4 << 20;

// Called on each row of slices as soon as it is complete, on the thread that built it, before the
// model's span is known and its open slices are closed: where the loading layer builds the row's
// level of detail (BuildOverview), which the model knows nothing of. May be null.
using RowFinished = void (*)(Row& row);

// Consumes 'chunks' (their memory is released as it is merged). The result depends only on
// the events and their order in the file, never on where the file was cut into chunks.
// Per-track work runs on 'threads' threads; 'rowFinished' runs on every thread row.
void BuildModel(std::vector<ChunkEvents>& chunks, unsigned threads, TraceModel& model,
                uint64_t flowSortInPlaceBytes = kFlowSortInPlaceBytes,
                RowFinished rowFinished = nullptr);

// Lays out slices given in display order (start ascending, longer first at equal starts,
// then file order) into rows: nesting depth, plus extra rows for slices that overlap a
// neighbour without nesting. O(n).
class RowBuilder {
public:
    explicit RowBuilder(Track& track, RowFinished rowFinished = nullptr)
        : m_track(track), m_rowFinished(rowFinished) {}
    void Add(const RawSlice& slice);
    // Moves the rows into the track: nested rows first, then overlap rows.
    void Finish();

private:
    Track& m_track;
    RowFinished m_rowFinished;
    std::vector<Row> m_nested;
    std::vector<Row> m_overlap;
    std::vector<TimeNs> m_openEnds;
    std::vector<TimeNs> m_overlapEnds;
};

}  // namespace marey

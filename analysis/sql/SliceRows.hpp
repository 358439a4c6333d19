#pragma once
// The `slice` table of `marey sql`: every slice and instant of a model, with Perfetto's columns
// (id, ts, dur, track_id, category, name, depth, parent_id, arg_set_id) and the fields its importer
// kept (task_type, correlation_id). Ids run track by track, row by row, then the track's instants;
// a constraint on id, ts or track_id is answered by binary search in each row, not a scan.
#include <vector>

#include "load/EventDetails.hpp"
#include "model/TraceModel.hpp"
#include "sql/SqlRows.hpp"

namespace marey {

class SliceRows final : public SqlRows {
public:
    // 'model' must outlive this table. O(rows of the model).
    explicit SliceRows(const TraceModel& model);
    const char* Name() const override { return "slice"; }
    const std::vector<SqlColumn>& Columns() const override;
    int64_t Count() const override { return m_count; }
    std::vector<IdSpan> Narrow(const std::vector<SqlBound>& bounds) const override;
    double EstimatedRows(const std::vector<SqlBound>& bounds) const override;
    // Ids run track by track: in ascending track_id too.
    bool SortedById(int column) const override;
    // By name: a counting sort of the names' ids, O(ids + names).
    bool CanGroupBy(int column) const override;
    std::vector<int64_t> GroupedIds(const std::vector<IdSpan>& spans, int column) const override;
    void Cell(int64_t id, int column, sqlite3_context* out, CellHint& hint) const override;
    // The id of slice 'index' of row 'row' of track 'track'. O(log rows of the model).
    int64_t IdOf(uint32_t track, uint32_t row, uint32_t index) const;
    // Everything slice 'id' says (its arguments among it), read from its file by the importer of
    // its format. O(that event).
    EventDetails Details(int64_t id) const;

private:
    static constexpr uint32_t kInstants = UINT32_MAX;  // the part of a track's instants
    // The slices of one row (or a track's instants), ids [firstId, firstId + size).
    struct Part {
        int64_t firstId;
        uint32_t track;
        uint32_t row;         // kInstants for the instants
        int64_t parent = -1;  // the part holding this nested row's parents, or -1
    };
    size_t PartOf(int64_t id, size_t hint) const;
    size_t PartSize(const Part& part) const;
    StringId NameAt(const Part& part, size_t index) const;
    TimeNs StartAt(const Part& part, size_t index) const;
    int64_t ParentId(const Part& part, size_t index) const;

    const TraceModel& m_model;
    std::vector<Part> m_parts;
    int64_t m_count = 0;
};

}  // namespace marey

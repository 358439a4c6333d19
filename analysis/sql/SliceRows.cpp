#include "sql/SliceRows.hpp"

#include <sqlite3.h>

#include <algorithm>

#include "import/Importer.hpp"
#include "load/JsonString.hpp"
#include "sql/FunctionRows.hpp"

namespace marey {
namespace {

enum Column {
    kId,
    kTs,
    kDur,
    kTrackId,
    kCategory,
    kName,
    kDepth,
    kParentId,
    kArgSetId,
    kTaskType,
    kCorrelation
};

}  // namespace

SliceRows::SliceRows(const TraceModel& model) : m_model(model) {
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        const Track& track = model.tracks[t];
        const size_t trackFirst = m_parts.size();
        for (uint32_t r = 0; r < track.rows.size(); ++r) {
            if (track.rows[r].size() == 0) continue;
            m_parts.push_back({m_count, t, r});
            m_count += static_cast<int64_t>(track.rows[r].size());
        }
        // A nested row's parents are in the nested row one level up.
        for (size_t p = trackFirst; p < m_parts.size(); ++p) {
            const Row& row = track.rows[m_parts[p].row];
            if (row.kind != RowKind::kNested || row.depth == 0) continue;
            for (size_t q = trackFirst; q < m_parts.size(); ++q) {
                const Row& above = track.rows[m_parts[q].row];
                if (above.kind == RowKind::kNested && above.depth + 1 == row.depth)
                    m_parts[p].parent = static_cast<int64_t>(q);
            }
        }
        if (!track.instantTs.empty()) {
            m_parts.push_back({m_count, t, kInstants});
            m_count += static_cast<int64_t>(track.instantTs.size());
        }
    }
}

const std::vector<SqlColumn>& SliceRows::Columns() const {
    static const std::vector<SqlColumn> columns = {
        {"id", "INTEGER", true},       {"ts", "INTEGER", true},       {"dur", "INTEGER"},
        {"track_id", "INTEGER", true}, {"category", "TEXT"},          {"name", "TEXT"},
        {"depth", "INTEGER"},          {"parent_id", "INTEGER"},      {"arg_set_id", "INTEGER"},
        {"task_type", "TEXT"},         {"correlation_id", "INTEGER"},
    };
    return columns;
}

size_t SliceRows::PartSize(const Part& part) const {
    const Track& track = m_model.tracks[part.track];
    return part.row == kInstants ? track.instantTs.size() : track.rows[part.row].size();
}

TimeNs SliceRows::StartAt(const Part& part, size_t index) const {
    const Track& track = m_model.tracks[part.track];
    return part.row == kInstants ? track.instantTs[index] : track.rows[part.row].start[index];
}

StringId SliceRows::NameAt(const Part& part, size_t index) const {
    const Track& track = m_model.tracks[part.track];
    return part.row == kInstants ? track.instantName[index] : track.rows[part.row].name[index];
}

bool SliceRows::SortedById(int column) const {
    return column == kId || column == kTrackId;
}

bool SliceRows::CanGroupBy(int column) const {
    return column == kName;
}

std::vector<int64_t> SliceRows::GroupedIds(const std::vector<IdSpan>& spans, int) const {
    // The pool interns every name once: equal names have equal ids (and id 0, no name, reads as
    // NULL, the only name that does). A counting sort by each name's place in text order.
    const size_t nameCount = m_model.strings.size();
    std::vector<StringId> byText(nameCount);
    for (size_t i = 0; i < nameCount; ++i) byText[i] = static_cast<StringId>(i);
    std::sort(byText.begin(), byText.end(), [this](StringId a, StringId b) {
        // NULL (the empty name) first, then by bytes as SQLite's BINARY collation compares.
        const std::string_view x = m_model.Name(a), y = m_model.Name(b);
        if (x.empty() != y.empty()) return x.empty();
        return x < y;
    });
    std::vector<uint32_t> rankOf(nameCount);
    for (size_t i = 0; i < nameCount; ++i) rankOf[byText[i]] = static_cast<uint32_t>(i);
    std::vector<int64_t> firstOfRank(nameCount + 1, 0);
    size_t place = 0;
    auto eachId = [&](auto&& visit) {
        for (const IdSpan& span : spans)
            for (int64_t id = span.first; id < span.end; ++id) {
                place = PartOf(id, place);
                const Part& part = m_parts[place];
                visit(id, rankOf[NameAt(part, static_cast<size_t>(id - part.firstId))]);
            }
    };
    eachId([&](int64_t, uint32_t rank) { ++firstOfRank[rank + 1]; });
    for (size_t i = 1; i < firstOfRank.size(); ++i) firstOfRank[i] += firstOfRank[i - 1];
    std::vector<int64_t> grouped(static_cast<size_t>(firstOfRank.back()));
    eachId(
        [&](int64_t id, uint32_t rank) { grouped[static_cast<size_t>(firstOfRank[rank]++)] = id; });
    return grouped;
}

int64_t SliceRows::IdOf(uint32_t track, uint32_t row, uint32_t index) const {
    // Parts run by track, then row (a track's instants last): ordered by (track, row).
    const auto part = std::lower_bound(m_parts.begin(), m_parts.end(), std::pair(track, row),
                                       [](const Part& p, const std::pair<uint32_t, uint32_t>& key) {
                                           return std::pair(p.track, p.row) < key;
                                       });
    return part->firstId + index;
}

EventDetails SliceRows::Details(int64_t id) const {
    const Part& part = m_parts[PartOf(id, 0)];
    const size_t index = static_cast<size_t>(id - part.firstId);
    const Track& track = m_model.tracks[part.track];
    const uint64_t ref =
        part.row == kInstants ? track.instantRef[index] : track.rows[part.row].Ref(index);
    return ReadRowDetails(m_model.SourceOf(part.track), ref);
}

size_t SliceRows::PartOf(int64_t id, size_t hint) const {
    if (hint < m_parts.size() && m_parts[hint].firstId <= id) {
        // Reading in order: the same part or the next few.
        for (size_t p = hint; p < m_parts.size() && p < hint + 4; ++p)
            if (p + 1 == m_parts.size() || m_parts[p + 1].firstId > id) return p;
    }
    const auto after =
        std::upper_bound(m_parts.begin(), m_parts.end(), id,
                         [](int64_t value, const Part& part) { return value < part.firstId; });
    return static_cast<size_t>(after - m_parts.begin()) - 1;
}

int64_t SliceRows::ParentId(const Part& part, size_t index) const {
    if (part.parent < 0) return -1;
    const Part& above = m_parts[static_cast<size_t>(part.parent)];
    const Row& row = m_model.tracks[part.track].rows[part.row];
    const Row& parentRow = m_model.tracks[above.track].rows[above.row];
    const TimeNs start = row.start[index];
    const auto* first = parentRow.start.data();
    const auto* last = first + parentRow.size();
    const auto* after = std::upper_bound(first, last, start);
    if (after == first) return -1;
    const size_t parent = static_cast<size_t>(after - first) - 1;
    if (parentRow.end[parent] < row.end[index]) return -1;
    return above.firstId + static_cast<int64_t>(parent);
}

std::vector<IdSpan> SliceRows::Narrow(const std::vector<SqlBound>& bounds) const {
    int64_t idLow, idHigh, tsLow, tsHigh, trackLow, trackHigh;
    IntersectBounds(bounds, kId, idLow, idHigh);
    IntersectBounds(bounds, kTs, tsLow, tsHigh);
    IntersectBounds(bounds, kTrackId, trackLow, trackHigh);
    std::vector<IdSpan> spans;
    if (idLow > idHigh || tsLow > tsHigh || trackLow > trackHigh) return spans;
    for (const Part& part : m_parts) {
        const int64_t partEnd = part.firstId + static_cast<int64_t>(PartSize(part));
        if (part.track < trackLow || part.track > trackHigh || partEnd <= idLow ||
            part.firstId > idHigh)
            continue;
        const Track& track = m_model.tracks[part.track];
        const TimeNs* starts =
            part.row == kInstants ? track.instantTs.data() : track.rows[part.row].start.data();
        const size_t size = PartSize(part);
        // Starts are sorted in every part (instants are sorted once built).
        const size_t from =
            static_cast<size_t>(std::lower_bound(starts, starts + size, tsLow) - starts);
        const size_t to =
            static_cast<size_t>(std::upper_bound(starts, starts + size, tsHigh) - starts);
        const int64_t first = std::max(part.firstId + static_cast<int64_t>(from), idLow);
        const int64_t end = std::min(part.firstId + static_cast<int64_t>(to),
                                     idHigh == INT64_MAX ? partEnd : idHigh + 1);
        if (first >= end) continue;
        if (!spans.empty() && spans.back().end == first)
            spans.back().end = end;
        else
            spans.push_back({first, end});
    }
    return spans;
}

double SliceRows::EstimatedRows(const std::vector<SqlBound>& bounds) const {
    double rows = static_cast<double>(m_count);
    for (const SqlBound& bound : bounds) {
        const bool equal = bound.compare == SqlCompare::kEqual;
        if (bound.column == kId) rows = equal ? 1.0 : rows / 4;
        if (bound.column == kTs) rows = equal ? rows / 1000 : rows / 4;
        if (bound.column == kTrackId && equal)
            rows /= static_cast<double>(std::max<size_t>(1, m_model.tracks.size()));
    }
    return std::max(1.0, rows);
}

void SliceRows::Cell(int64_t id, int column, sqlite3_context* out, CellHint& hint) const {
    hint.place = PartOf(id, hint.place);
    const Part& part = m_parts[hint.place];
    const size_t index = static_cast<size_t>(id - part.firstId);
    const Track& track = m_model.tracks[part.track];
    const bool instant = part.row == kInstants;
    switch (column) {
        case kId:
            sqlite3_result_int64(out, id);
            return;
        case kTs:
            sqlite3_result_int64(out, StartAt(part, index));
            return;
        case kDur:
            if (instant)
                sqlite3_result_int64(out, 0);
            else if (m_model.IsUnfinished(part.track, part.row, static_cast<uint32_t>(index)))
                sqlite3_result_int64(out, -1);  // as Perfetto writes a slice that never ended
            else
                sqlite3_result_int64(
                    out, track.rows[part.row].end[index] - track.rows[part.row].start[index]);
            return;
        case kTrackId:
            sqlite3_result_int64(out, part.track);
            return;
        case kName:
            SetSqlText(out, m_model.Name(NameAt(part, index)));
            return;
        case kDepth:
            sqlite3_result_int64(out, instant ? 0 : track.rows[part.row].depth);
            return;
        case kArgSetId:
            sqlite3_result_int64(out, id);
            return;  // each slice's own (the args table)
        case kParentId: {
            const int64_t parent = instant ? -1 : ParentId(part, index);
            if (parent < 0)
                sqlite3_result_null(out);
            else
                sqlite3_result_int64(out, parent);
            return;
        }
        default:
            break;
    }
    // The fields its importer kept, else (a JSON text) what the event says.
    const uint64_t ref = instant ? track.instantRef[index] : track.rows[part.row].Ref(index);
    const ActivityFields fields = m_model.SourceOf(part.track).FieldsAt(ref, hint.fields);
    if (column == kCategory) {
        // A JSON text's category as written, escapes and all: decoded like a name.
        if (fields.category.find('\\') == std::string_view::npos)
            return SetSqlText(out, fields.category);
        std::string scratch;
        const std::string quoted = "\"" + std::string(fields.category) + "\"";
        const std::string_view decoded = DecodeJsonString(quoted, scratch);
        return sqlite3_result_text(out, decoded.data(), static_cast<int>(decoded.size()),
                                   SQLITE_TRANSIENT);
    }
    if (column == kTaskType) SetSqlText(out, fields.taskType);
    if (column == kCorrelation) {
        if (fields.hasCorrelation)
            sqlite3_result_int64(out, fields.correlation);
        else
            sqlite3_result_null(out);
    }
}

}  // namespace marey

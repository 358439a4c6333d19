#include "db/DbRankTables.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "db/DbRows.hpp"

namespace marey {
namespace {

// An amount of µs or ms as a REAL, in ns; false for NULL, text, negative or infinite values.
bool ReadDuration(const SqliteStatement& row, int column, double nsPerUnit, TimeNs* ns) {
    double value = 0;
    if (!ReadDbReal(row, column, &value) || value < 0 || value * nsPerUnit > 9.0e18) return false;
    *ns = std::llround(value * nsPerUnit);
    return true;
}

// A time in µs as analysis.db stores it, in ns: an INTEGER or TEXT exactly, a REAL to the nearest
// ns it can hold (about 0.25 µs at today's epoch).
bool ReadMicros(const SqliteStatement& row, int column, TimeNs* ns) {
    if (column < 0) return false;
    switch (row.Type(column)) {
        case SqliteType::kInteger: {
            const int64_t micros = row.Int(column);
            if (micros < 0 || micros > INT64_MAX / 1000) return false;
            *ns = micros * 1000;
            return true;
        }
        case SqliteType::kText:
            return ParseMicrosToNs(row.Text(column), ns) == DecimalError::kNone && *ns >= 0;
        default:
            return ReadDuration(row, column, 1e3, ns);
    }
}

// Exact "µs.fff" text of a time in ns, as the text export writes it.
std::string MicrosText(TimeNs ns) {
    char text[32];
    std::snprintf(text, sizeof text, "%s%lld.%03lld", ns < 0 ? "-" : "",
                  static_cast<long long>(std::llabs(ns) / 1000),
                  static_cast<long long>(std::llabs(ns) % 1000));
    return text;
}

std::string RowPlace(const SqliteFile& db, const std::string& table, int64_t rowid) {
    return db.Path() + ": error: table " + table + ", row " + std::to_string(rowid) + ": ";
}

// A query that failed while it stepped (a damaged page): what SQLite said, the table, and that
// the rows before it were kept.
void ReportFailedRead(const SqliteFile& db, const SqliteStatement& row, const char* table,
                      RankTables& tables) {
    if (row.Failed())
        tables.problems.push_back(db.LastError() + " (while reading " + table +
                                  "; the rows before were kept)");
}

// A column of analysis.db not there (another schema, a rename): named once, its values left out.
void ReportMissingColumns(const SqliteFile& db, const DbColumns& columns, RankTables& tables) {
    for (const std::string& missing : columns.Missing())
        tables.problems.push_back(db.Path() + ": error: " + missing +
                                  ": what it holds is left out");
}

// A size in MB or a bandwidth in GB/s: present, from 0 to 10^12 (the text export's rule).
bool ReadAmount(const SqliteStatement& row, int column, double* value) {
    return !row.IsNull(column) && ReadDbReal(row, column, value) && *value >= 0 && *value <= 1e12;
}

void ReadStepTraceTime(const SqliteFile& db, RankTables& tables) {
    // analysis.db's columns, in the order of kStepPhaseColumns.
    static const char* const kColumns[kStepPhaseCount] = {
        "computing",  "communication_not_overlapped",
        "overlapped", "communication",
        "free",       "stage",
        "bubble",     "communication_not_overlapped_and_exclude_receive",
        "preparing"};
    std::vector<std::string> wanted{"step"};
    for (const char* column : kColumns) wanted.push_back(column);
    DbColumns columns(db, "StepTraceTime", wanted);
    if (!columns.TableExists()) return;
    ReportMissingColumns(db, columns, tables);
    if (!columns.Has(0)) return;  // no row names its step: the steps come from the tasks
    auto statement = db.Prepare(columns.Select());
    if (!statement.ok()) return tables.problems.push_back(statement.status().message());
    StepTrace trace;
    std::set<std::string> seenSteps;
    for (int p = 0; p < kStepPhaseCount; ++p) trace.hasColumn[p] = columns.Has(1 + p);
    SqliteStatement& row = statement.value();
    while (row.Step()) {
        StepRow step;
        // An empty step is a run without steps, as in step_trace_time.csv; NULL is damage.
        if (row.IsNull(columns.Column(0))) {
            tables.problems.push_back(RowPlace(db, "StepTraceTime", row.Int(0)) +
                                      "its step is NULL; step left out");
            continue;
        }
        step.step = std::string(row.Text(columns.Column(0)));
        if (!seenSteps.insert(step.step).second) {
            tables.problems.push_back(RowPlace(db, "StepTraceTime", row.Int(0)) +
                                      "a second row of step \"" + step.step + "\"; left out");
            continue;
        }
        bool readable = true;
        for (int p = 0; p < kStepPhaseCount && readable; ++p) {
            if (!columns.Has(1 + p) || row.IsNull(columns.Column(1 + p))) continue;
            readable = ReadDuration(row, columns.Column(1 + p), 1e3, &step.ns[p]);
            if (!readable)
                tables.problems.push_back(RowPlace(db, "StepTraceTime", row.Int(0)) + "column " +
                                          kColumns[p] + " is not a duration in µs; step left out");
        }
        if (readable) trace.rows.push_back(std::move(step));
    }
    ReportFailedRead(db, row, "StepTraceTime", tables);
    tables.steps = std::move(trace);
}

// The ratio the text export writes with four decimals.
double RatioOf(TimeNs part, TimeNs transit) {
    if (part + transit <= 0) return 0;
    return std::round(static_cast<double>(part) / static_cast<double>(part + transit) * 1e4) / 1e4;
}

void ReadCommAnalyzerTime(const SqliteFile& db, RankTables& tables) {
    enum { kName, kGroup, kStart, kElapse, kTransit, kWait, kSync, kIdle, kStep, kType };
    DbColumns columns(
        db, "CommAnalyzerTime",
        {"hccl_op_name", "group_name", "start_timestamp", "elapse_time", "transit_time",
         "wait_time", "synchronization_time", "idle_time", "step", "type"});
    if (!columns.TableExists()) return;
    ReportMissingColumns(db, columns, tables);
    auto statement = db.Prepare(columns.Select());
    if (!statement.ok()) return tables.problems.push_back(statement.status().message());
    CommunicationOps ops;
    SqliteStatement& row = statement.value();
    std::map<std::pair<std::string, std::string>, size_t> byOp;  // (step, name@group) → op
    while (row.Step()) {
        CommunicationOp op;
        op.name = std::string(row.Text(columns.Column(kName)));
        op.group = std::string(row.Text(columns.Column(kGroup)));
        op.step = std::string(row.Text(columns.Column(kStep)));
        op.kind = std::string(row.Text(columns.Column(kType)));
        op.hasStart = ReadMicros(row, columns.Column(kStart), &op.startNs);
        TimeNs* const times[] = {&op.elapseNs, &op.transitNs, &op.waitNs, &op.syncNs, &op.idleNs};
        // A column not there is said once above; a NULL in one that is there is damage.
        bool readable = !columns.Has(kStep) || !row.IsNull(columns.Column(kStep));
        for (int t = 0; t < 5 && readable; ++t)
            readable = !columns.Has(kElapse + t) ||
                       (!row.IsNull(columns.Column(kElapse + t)) &&
                        ReadDuration(row, columns.Column(kElapse + t), 1e6, times[t]));
        if (!readable) {
            tables.problems.push_back(RowPlace(db, "CommAnalyzerTime", row.Int(0)) +
                                      "its step or a time is NULL, or a time is not a duration "
                                      "in ms; operator left out");
            continue;
        }
        op.waitRatio = RatioOf(op.waitNs, op.transitNs);
        op.syncRatio = RatioOf(op.syncNs, op.transitNs);
        byOp[{op.step, op.name + "@" + op.group}] = ops.ops.size();
        ops.ops.push_back(std::move(op));
    }
    ReportFailedRead(db, row, "CommAnalyzerTime", tables);
    DbColumns bandwidth(
        db, "CommAnalyzerBandwidth",
        {"hccl_op_name", "group_name", "transport_type", "transit_size", "transit_time",
         "bandwidth", "large_packet_ratio", "package_size", "count", "total_duration", "step"});
    if (bandwidth.TableExists()) ReportMissingColumns(db, bandwidth, tables);
    // Without its size, time or bandwidth no row of it can be read: said once above.
    if (bandwidth.TableExists() && bandwidth.Has(3) && bandwidth.Has(4) && bandwidth.Has(5)) {
        auto rows = db.Prepare(bandwidth.Select());
        if (!rows.ok()) return tables.problems.push_back(rows.status().message());
        SqliteStatement& b = rows.value();
        while (b.Step()) {
            double sizeMb = 0, gbps = 0;
            TimeNs transitNs = 0;
            if (!ReadAmount(b, bandwidth.Column(3), &sizeMb) ||
                !ReadAmount(b, bandwidth.Column(5), &gbps) || b.IsNull(bandwidth.Column(4)) ||
                !ReadDuration(b, bandwidth.Column(4), 1e6, &transitNs)) {
                tables.problems.push_back(
                    RowPlace(db, "CommAnalyzerBandwidth", b.Int(0)) +
                    "its transit size, time or bandwidth is NULL, negative or out of range; row "
                    "left out");
                continue;
            }
            const auto found = byOp.find({std::string(b.Text(bandwidth.Column(10))),
                                          std::string(b.Text(bandwidth.Column(0))) + "@" +
                                              std::string(b.Text(bandwidth.Column(1)))});
            if (found == byOp.end()) continue;
            auto& transports = ops.ops[found->second].bandwidth;
            const std::string transport(b.Text(bandwidth.Column(2)));
            auto it =
                std::find_if(transports.begin(), transports.end(),
                             [&](const TransportBandwidth& t) { return t.transport == transport; });
            if (it == transports.end()) {
                TransportBandwidth added;
                added.transport = transport;
                added.transitSizeMb = sizeMb;
                added.transitNs = transitNs;
                added.bandwidthGBps = gbps;
                ReadDbReal(b, bandwidth.Column(6), &added.largePacketRatio);
                transports.push_back(std::move(added));
                it = std::prev(transports.end());
            }
            PacketSizeBucket bucket;
            double count = 0;
            if (ReadDbReal(b, bandwidth.Column(7), &bucket.sizeMb) &&
                ReadDbReal(b, bandwidth.Column(8), &count) && count > 0 &&
                ReadDuration(b, bandwidth.Column(9), 1e6, &bucket.totalNs)) {
                bucket.count = static_cast<uint64_t>(count);
                it->sizes.push_back(bucket);
            }
        }
        ReportFailedRead(db, b, "CommAnalyzerBandwidth", tables);
    }
    tables.communication = std::move(ops);
}

void ReadCommAnalyzerMatrix(const SqliteFile& db, RankTables& tables) {
    DbColumns columns(db, "CommAnalyzerMatrix",
                      {"hccl_op_name", "group_name", "src_rank", "dst_rank", "transport_type",
                       "transit_size", "transit_time", "bandwidth", "step", "type", "op_name"});
    if (!columns.TableExists()) return;
    auto statement = db.Prepare(columns.Select());
    if (!statement.ok()) return tables.problems.push_back(statement.status().message());
    CommunicationMatrix matrix;
    SqliteStatement& row = statement.value();
    while (row.Step()) {
        CommunicationLink link;
        link.group = std::string(row.Text(columns.Column(0))) + "@" +
                     std::string(row.Text(columns.Column(1)));
        int64_t src = -1, dst = -1;
        if (!ReadDbInt(row, columns.Column(2), &src) || !ReadDbInt(row, columns.Column(3), &dst) ||
            src < 0 || dst < 0 || src > INT32_MAX || dst > INT32_MAX ||
            !ReadDbReal(row, columns.Column(5), &link.transitSizeMb) || link.transitSizeMb < 0 ||
            !ReadDuration(row, columns.Column(6), 1e6, &link.transitNs) ||
            !ReadDbReal(row, columns.Column(7), &link.bandwidthGBps) || link.bandwidthGBps < 0) {
            tables.problems.push_back(RowPlace(db, "CommAnalyzerMatrix", row.Int(0)) +
                                      "a rank, size, time or bandwidth is unreadable or negative; "
                                      "link left out");
            continue;
        }
        link.srcRank = static_cast<int>(src);
        link.dstRank = static_cast<int>(dst);
        link.transport = std::string(row.Text(columns.Column(4)));
        link.step = std::string(row.Text(columns.Column(8)));
        link.kind = std::string(row.Text(columns.Column(9)));
        link.opName = std::string(row.Text(columns.Column(10)));
        if (link.opName.empty()) link.opName = std::string(row.Text(columns.Column(0)));
        matrix.links.push_back(std::move(link));
    }
    ReportFailedRead(db, row, "CommAnalyzerMatrix", tables);
    tables.matrix = std::move(matrix);
}

// The megabytes a byte count is, as the text export writes it (exact: a byte count over 2^20).
std::string Megabytes(double bytes) {
    char text[48];
    std::snprintf(text, sizeof text, "%.17g", bytes / 1048576.0);
    return text;
}

// The first of 'ranges' (sorted, disjoint) that ends after 'start'. O(log n).
std::vector<TimeRange>::const_iterator FirstEndingAfter(const std::vector<TimeRange>& ranges,
                                                        TimeNs start) {
    return std::upper_bound(ranges.begin(), ranges.end(), start,
                            [](TimeNs t, const TimeRange& range) { return t < range.endNs; });
}

// The time of 'ranges' (sorted, disjoint) within [start, end]. O(log n + ranges inside).
TimeNs CoveredWithin(const std::vector<TimeRange>& ranges, TimeNs start, TimeNs end) {
    TimeNs covered = 0;
    for (auto it = FirstEndingAfter(ranges, start); it != ranges.end() && it->startNs < end; ++it)
        covered += std::min(it->endNs, end) - std::max(it->startNs, start);
    return covered;
}

// Where the first of 'ranges' inside [start, end] begins, or 'end'.
TimeNs FirstWithin(const std::vector<TimeRange>& ranges, TimeNs start, TimeNs end) {
    const auto it = FirstEndingAfter(ranges, start);
    return it != ranges.end() && it->startNs < end ? std::max(it->startNs, start) : end;
}

}  // namespace

StepTrace StepsFromTimeline(const DbTimeline& timeline) {
    StepTrace trace;
    for (int phase : {kStepComputing, kStepCommNotOverlapped, kStepOverlapped, kStepCommunication,
                      kStepFree, kStepStage})
        trace.hasColumn[phase] = true;
    for (const DbStep& step : timeline.steps) {
        StepRow row;
        row.step = std::to_string(step.id);
        const OverlapAnalysis& o = timeline.overlap;
        auto& ns = row.ns;
        ns[kStepComputing] = CoveredWithin(o.computing, step.startNs, step.endNs);
        ns[kStepCommunication] = CoveredWithin(o.communication, step.startNs, step.endNs);
        ns[kStepCommNotOverlapped] = CoveredWithin(o.notOverlapped, step.startNs, step.endNs);
        ns[kStepOverlapped] = ns[kStepCommunication] - ns[kStepCommNotOverlapped];
        ns[kStepFree] = CoveredWithin(o.free, step.startNs, step.endNs);
        ns[kStepStage] = ns[kStepComputing] + ns[kStepCommNotOverlapped] + ns[kStepFree];
        ns[kStepCommNotOverlappedExcludeReceive] = ns[kStepCommNotOverlapped];
        // Preparing: from the step's start to its first device activity.
        const TimeNs firstActive = std::min(FirstWithin(o.computing, step.startNs, step.endNs),
                                            FirstWithin(o.communication, step.startNs, step.endNs));
        ns[kStepPreparing] = firstActive - step.startNs;
        trace.hasColumn[kStepPreparing] = true;
        trace.rows.push_back(std::move(row));
    }
    return trace;
}

namespace {

constexpr const char* kAnalysisTables[] = {"StepTraceTime", "CommAnalyzerTime",
                                           "CommAnalyzerMatrix", "CommAnalyzerBandwidth"};

}  // namespace

void ReadAnalysisDb(const SqliteFile& analysisDb, const SqliteFile& profilerDb,
                    RankTables& tables) {
    // Each table, whether the run had what it holds, and what its absence changes: a run
    // without communication writes no CommAnalyzer tables, and lacks nothing.
    const bool communication = profilerDb.HasTable("COMMUNICATION_OP");
    const std::vector<std::string> missing = MissingTableLines(
        analysisDb,
        {
            {"StepTraceTime", true, "the steps are computed from the profiler database's tasks"},
            {"CommAnalyzerTime", communication, "no communication operators or their waits"},
            {"CommAnalyzerMatrix", communication, "no communication links"},
            {"CommAnalyzerBandwidth", communication && analysisDb.HasTable("CommAnalyzerTime"),
             "no bandwidth per transport"},
        });
    const bool none = std::none_of(std::begin(kAnalysisTables), std::end(kAnalysisTables),
                                   [&](const char* table) { return analysisDb.HasTable(table); });
    if (none)  // an empty file, or another database under its name: one line
        tables.problems.push_back(analysisDb.Path() +
                                  ": error: none of analysis.db's tables is in it: the steps are "
                                  "computed from the profiler database's tasks" +
                                  (communication ? ", and no communication operators or links "
                                                   "are shown"
                                                 : ""));
    else
        for (const std::string& line : missing)
            tables.problems.push_back(analysisDb.Path() + ": error: " + line);
    ReadStepTraceTime(analysisDb, tables);
    ReadCommAnalyzerTime(analysisDb, tables);
    ReadCommAnalyzerMatrix(analysisDb, tables);
}

void ReadDbMemory(const SqliteFile& db, RankTables& tables) {
    std::vector<std::string> problems;
    const DbStrings strings = DbStrings::Read(db, problems);
    // Written as the CSV text the export would hold and read by its parser: one set of rules.
    DbColumns record(
        db, "MEMORY_RECORD",
        {"component", "timestamp|timestampNs", "totalAllocated", "totalReserved", "totalActive"});
    if (record.TableExists()) {
        std::string csv =
            "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB)\n";
        auto statement = db.Prepare(record.Select());
        if (statement.ok()) {
            SqliteStatement& row = statement.value();
            while (row.Step()) {
                int64_t component = 0;
                TimeNs ts = 0;
                if (!ReadDbInt(row, record.Column(0), &component) ||
                    !ReadDbNs(row, record.Column(1), &ts)) {
                    tables.problems.push_back(RowPlace(db, "MEMORY_RECORD", row.Int(0)) +
                                              "component or timestamp unreadable; left out");
                    continue;
                }
                std::string line = strings.Text(component) + "," + MicrosText(ts);
                for (int m = 2; m <= 4; ++m) {
                    double bytes = 0;
                    line += ",";
                    if (ReadDbReal(row, record.Column(m), &bytes) && bytes >= 0)
                        line += Megabytes(bytes);
                }
                csv += line + "\n";
            }
        }
        auto parsed = ParseMemoryRecordCsv(csv, db.Path() + " MEMORY_RECORD");
        if (parsed.ok()) tables.memoryRecord = std::move(parsed.value());
    }
    DbColumns allocations(db, "OP_MEMORY", {"name", "size", "allocationTime", "releaseTime"});
    if (allocations.TableExists()) {
        std::string csv = "Name,Size(KB),Allocation Time(us),Release Time(us)\n";
        auto statement = db.Prepare(allocations.Select());
        if (statement.ok()) {
            SqliteStatement& row = statement.value();
            while (row.Step()) {
                int64_t name = 0, size = 0;
                TimeNs allocated = 0, released = 0;
                if (!ReadDbInt(row, allocations.Column(0), &name) ||
                    !ReadDbInt(row, allocations.Column(1), &size) ||
                    !ReadDbNs(row, allocations.Column(2), &allocated)) {
                    tables.problems.push_back(RowPlace(db, "OP_MEMORY", row.Int(0)) +
                                              "name, size or allocationTime unreadable; left out");
                    continue;
                }
                char kilobytes[48];
                std::snprintf(kilobytes, sizeof kilobytes, "%.17g",
                              static_cast<double>(size) / 1024.0);
                std::string text = strings.Text(name);
                if (text.find_first_of(",\"\n") != std::string::npos) {
                    std::string quoted = "\"";
                    for (char c : text)
                        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
                    text = quoted + "\"";
                }
                csv += text + "," + kilobytes + "," + MicrosText(allocated) + "," +
                       (ReadDbNs(row, allocations.Column(3), &released) ? MicrosText(released)
                                                                        : std::string()) +
                       "\n";
            }
        }
        auto parsed = ParseOperatorMemoryCsv(csv, db.Path() + " OP_MEMORY");
        if (parsed.ok()) tables.operatorMemory = std::move(parsed.value());
    }
}

}  // namespace marey

#include "AnalysisDatabaseWriter.hpp"

#include "GeneratorSink.hpp"
#include "RankFigures.hpp"
#include "SqliteWriter.hpp"

namespace marey {
namespace {

// The declared types of the profiler's analysis.db (schema 1.0.0).
const char* const kSchema =
    "CREATE TABLE StepTraceTime (step TEXT, computing NUMERIC, communication_not_overlapped "
    "NUMERIC, overlapped NUMERIC, communication NUMERIC, free NUMERIC, stage NUMERIC, bubble "
    "NUMERIC, communication_not_overlapped_and_exclude_receive NUMERIC, preparing NUMERIC);"
    "CREATE TABLE CommAnalyzerBandwidth (hccl_op_name TEXT, group_name TEXT, transport_type TEXT, "
    "transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, large_packet_ratio NUMERIC, "
    "package_size NUMERIC, count NUMERIC, total_duration NUMERIC, step TEXT, type TEXT);"
    "CREATE TABLE CommAnalyzerMatrix (hccl_op_name TEXT, group_name TEXT, src_rank TEXT, dst_rank "
    "TEXT, transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, "
    "step TEXT, type TEXT, op_name TEXT);"
    "CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, "
    "elapse_time NUMERIC, transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, "
    "idle_time NUMERIC, step TEXT, type TEXT)";

// The value the text files print for a time: µs with three decimals, ms as "%.9g".
double MicrosValue(int64_t ns) {
    return TextValue(Micros(ns));
}
double MillisValue(int64_t ns) {
    return TextValue(Millis(ns));
}

}  // namespace

AnalysisDatabaseWriter::AnalysisDatabaseWriter(const std::string& path, uint32_t rank)
    : m_rank(rank), m_db(std::make_unique<SqliteWriter>(path)) {
    m_db->Exec(kSchema);
    m_stepTrace = std::make_unique<SqliteInsert>(
        *m_db, "INSERT INTO StepTraceTime VALUES (?,?,?,?,?,?,?,?,?,?)");
    m_time = std::make_unique<SqliteInsert>(
        *m_db, "INSERT INTO CommAnalyzerTime VALUES (?,?,?,?,?,?,?,?,?,'collective')");
    m_bandwidth = std::make_unique<SqliteInsert>(
        *m_db, "INSERT INTO CommAnalyzerBandwidth VALUES (?,?,?,?,?,?,?,?,?,?,?,'collective')");
    m_matrix = std::make_unique<SqliteInsert>(
        *m_db, "INSERT INTO CommAnalyzerMatrix VALUES (?,?,?,?,?,?,?,?,?,'collective',?)");
}

AnalysisDatabaseWriter::~AnalysisDatabaseWriter() = default;

void AnalysisDatabaseWriter::Step(const GeneratedStep& step) {
    // step_trace_time.csv's row: nothing overlaps, no bubble.
    const int64_t stage = step.computingNs + step.commDurNs + step.freeNs;
    m_stepTrace->Text(1, std::to_string(step.number))
        .Real(2, MicrosValue(step.computingNs))
        .Real(3, MicrosValue(step.commDurNs))
        .Int(4, 0)
        .Real(5, MicrosValue(step.commDurNs))
        .Real(6, MicrosValue(step.freeNs))
        .Real(7, MicrosValue(stage))
        .Int(8, 0)
        .Real(9, MicrosValue(step.commDurNs))
        .Real(10, MicrosValue(step.preparingNs))
        .Row();
    WriteCommunication(step);
}

void AnalysisDatabaseWriter::WriteCommunication(const GeneratedStep& step) {
    const std::string stepKey = "step" + std::to_string(step.number);
    const StepCommunication c = CommunicationOf(step, m_rank);
    m_time->Text(1, step.commName).Text(2, kCommGroup);
    // A REAL holds µs to about 0.25 µs at today's clock: the generator starts AllReduces on a
    // whole µs, kept exact here as an INTEGER.
    if (step.commStartNs % 1000 == 0)
        m_time->Int(3, step.commStartNs / 1000);
    else
        m_time->Real(3, MicrosValue(step.commStartNs));
    m_time->Real(4, MillisValue(step.commDurNs))
        .Real(5, MillisValue(c.transitNs))
        .Real(6, MillisValue(c.waitNs))
        .Real(7, MillisValue(c.syncNs))
        .Real(8, MillisValue(c.idleNs))
        .Text(9, stepKey)
        .Row();
    // One row per packet size of a transport, its totals repeated; a transport that carried
    // nothing has one row of zeros.
    for (const PacketBucket& bucket : PacketBucketsOf(c))
        m_bandwidth->Text(1, step.commName)
            .Text(2, kCommGroup)
            .Text(3, "HCCS")
            .Real(4, TextValue(c.sizeMb))
            .Real(5, MillisValue(c.transitNs))
            .Real(6, TextValue(c.bandwidthGBps))
            .Int(7, 0)
            .Real(8, TextValue(bucket.sizeMb))
            .Int(9, bucket.count)
            .Real(10, MillisValue(bucket.totalNs))
            .Text(11, stepKey)
            .Row();
    for (const char* transport : kIdleTransports)
        m_bandwidth->Text(1, step.commName)
            .Text(2, kCommGroup)
            .Text(3, transport)
            .Int(4, 0)
            .Int(5, 0)
            .Int(6, 0)
            .Int(7, 0)
            .Int(8, 0)
            .Int(9, 0)
            .Int(10, 0)
            .Text(11, stepKey)
            .Row();
    for (const MatrixLink& link : MatrixLinksOf(step, m_rank))
        m_matrix->Text(1, kMatrixOpGroup)
            .Text(2, kCommGroup)
            .Text(3, std::to_string(link.src))
            .Text(4, std::to_string(link.dst))
            .Text(5, link.transport)
            .Real(6, TextValue(link.sizeMb))
            .Real(7, MillisValue(link.transitNs))
            .Real(8, TextValue(link.bandwidthGBps))
            .Text(9, stepKey)
            .Text(10, step.commName)
            .Row();
}

bool AnalysisDatabaseWriter::Finish(std::string* error) {
    m_stepTrace.reset();
    m_time.reset();
    m_bandwidth.reset();
    m_matrix.reset();
    if (m_db->Finish()) return true;
    if (error) *error = m_db->error();
    return false;
}

}  // namespace marey

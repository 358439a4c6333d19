#pragma once
// analysis.db of a generated rank: StepTraceTime (µs), CommAnalyzerTime, CommAnalyzerBandwidth
// and CommAnalyzerMatrix (ms, MB), with the numbers of step_trace_time.csv, communication.json
// and communication_matrix.json of the same run (RankFigures.hpp gives both).
#include <memory>
#include <string>

#include "TraceGenerator.hpp"

namespace marey {

class SqliteWriter;
class SqliteInsert;

class AnalysisDatabaseWriter {
public:
    // Creates 'path', replacing what was there.
    AnalysisDatabaseWriter(const std::string& path, uint32_t rank);
    ~AnalysisDatabaseWriter();

    // A step's rows in every table: 1 + 6 + 3 rows.
    void Step(const GeneratedStep& step);
    // Commits and closes. Returns false with 'error' set when the file could not be written.
    bool Finish(std::string* error);

private:
    void WriteCommunication(const GeneratedStep& step);

    uint32_t m_rank;
    std::unique_ptr<SqliteWriter> m_db;
    std::unique_ptr<SqliteInsert> m_stepTrace, m_time, m_bandwidth, m_matrix;
};

}  // namespace marey

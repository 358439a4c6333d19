#pragma once
// Writes a generated run as torch_npu's db export does: ascend_pytorch_profiler_R.db (host APIs,
// device tasks, communication, counters, memory) and analysis.db (steps, communication and its
// matrix), with the tables, columns and declared types of the profiler's schema 1.0.0. Read
// through docs/profiler-database.md, the rows give the model and the rank figures the text export
// of the same run gives. Rows are written as the generator runs: memory stays per step.
#include <memory>
#include <string>

#include "GeneratorSink.hpp"

namespace marey {

class AnalysisDatabaseWriter;
class SqliteWriter;
struct ProfilerTables;

class ProfilerDatabaseWriter : public GeneratorSink {
public:
    // Creates both files in 'outputDir' (an ASCEND_PROFILER_OUTPUT folder), replacing old ones.
    ProfilerDatabaseWriter(const GeneratorOptions& options, const std::string& outputDir);
    ~ProfilerDatabaseWriter() override;

    void Operator(const GeneratedOperator& op, const GeneratedTask& task, uint32_t taskId) override;
    void HostlessTask(const GeneratedTask& task) override;
    void CoreFrequency(int64_t tsNs, int64_t mhz) override;
    void HbmUsage(int64_t tsNs, int64_t kb) override;
    void Step(const GeneratedStep& step, const std::vector<GeneratedTask>& tasks,
              const std::vector<GeneratedCommTask>& commTasks) override;

    // Writes the session's tables and indexes, commits and closes both files. Returns false with
    // 'error' set when a file could not be written.
    bool Finish(std::string* error);

private:
    // A device task of the current step that waits for its step's start to get its wait time.
    struct PendingTask {
        int64_t connectionId = 0;
        uint32_t taskId = 0;
        const char* hardwareType = "";
    };
    int64_t StringId(const std::string& text);
    void WriteStaticTables();
    void WritePytorchApi(int64_t startNs, int64_t durNs, int64_t tid, int64_t connectionRow,
                         const std::string& name, int64_t sequence, int64_t type);
    void WriteCannApi(int64_t startNs, int64_t durNs, int64_t type, int64_t connectionId,
                      const std::string& name);
    void WriteComputeTasks(const GeneratedStep& step, const std::vector<GeneratedTask>& tasks);
    void WriteCommunication(const GeneratedStep& step,
                            const std::vector<GeneratedCommTask>& commTasks);
    void WriteMemory(const GeneratedStep& step, const std::vector<GeneratedTask>& tasks);

    GeneratorOptions m_options;
    GeneratedHostIds m_host;
    std::unique_ptr<SqliteWriter> m_db;
    std::unique_ptr<ProfilerTables> m_tables;
    std::unique_ptr<AnalysisDatabaseWriter> m_analysis;
    std::vector<PendingTask> m_pending;
    int64_t m_nextGlobalTaskId = 0;
    int64_t m_hostlessTasks = 0;  // planted tasks so far: their connection ids
    size_t m_allocations = 0;     // tasks seen, for OP_MEMORY's first allocations
    int64_t m_firstNs = INT64_MAX, m_lastNs = INT64_MIN;
};

}  // namespace marey

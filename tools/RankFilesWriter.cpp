// The profiler's other files of a generated rank folder, consistent with its trace_view.json.
#include <sys/stat.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "GeneratedText.hpp"
#include "GeneratorSink.hpp"
#include "ProfilerDatabaseWriter.hpp"
#include "RankFigures.hpp"
#include "TraceGenerator.hpp"

namespace marey {
namespace {

class File {
public:
    File(const std::string& path, std::string* error) : m_file(std::fopen(path.c_str(), "wb")) {
        if (!m_file) *error = path + ": cannot write";
    }
    ~File() {
        if (m_file) std::fclose(m_file);
    }
    explicit operator bool() const { return m_file != nullptr; }
    void Write(const std::string& text) { std::fwrite(text.data(), 1, text.size(), m_file); }

private:
    std::FILE* m_file;
};

// Level1 columns up to the output formats; the start time ends with a tab and the shapes are
// quoted twice, as torch_npu writes them; CRLF line ends as in real Level1 files.
void WriteKernelDetails(const GeneratorRecord& record, File& out) {
    out.Write(
        "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start "
        "Time(us),Duration(us),"
        "Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input "
        "Formats,"
        "Output Shapes,Output Data Types,Output Formats\r\n");
    for (const GeneratedStep& step : record.steps) {
        int64_t previousEnd = step.startNs;
        for (size_t i = step.firstTask; i < step.firstTask + step.taskCount; ++i) {
            const GeneratedTask& task = record.tasks[i];
            const char* type = GeneratedOperatorType(task.kind);
            out.Write(std::to_string(step.number) + ",4294967295," + std::to_string(i % 65536) +
                      "," + std::to_string(task.stream) + "," + type + "_" +
                      std::to_string(task.kind) + "," + type + ",dynamic," +
                      GeneratedOperatorCore(task.kind) + "," + Micros(task.startNs) + "\t," +
                      Micros(task.durNs) + "," +
                      Micros(std::max<int64_t>(0, task.startNs - previousEnd)) +
                      ",24,0,NO,\"\"\"32,1024;1024,1024\"\"\",FLOAT16;FLOAT16,ND;ND,\"\"\"32,"
                      "1024\"\"\",FLOAT16,ND\r\n");
            previousEnd = task.startNs + task.durNs;
        }
        out.Write(std::to_string(step.number) + ",4294967295,N/A,N/A," + step.commName +
                  ",hcom_allReduce_,N/A,HCCL," + Micros(step.commStartNs) + "\t," +
                  Micros(step.commDurNs) + ",0,0,0,N/A,N/A,N/A,N/A,N/A,N/A,N/A\r\n");
    }
}

void WriteStepTrace(const GeneratorRecord& record, File& out) {
    out.Write(
        "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
        "Communication(Not Overlapped and Exclude Receive),Preparing\n");
    for (const GeneratedStep& step : record.steps) {
        const int64_t stage = step.computingNs + step.commDurNs + step.freeNs;
        out.Write(std::to_string(step.number) + "," + Micros(step.computingNs) + "," +
                  Micros(step.commDurNs) + ",0," + Micros(step.commDurNs) + "," +
                  Micros(step.freeNs) + "," + Micros(stage) + ",0," + Micros(step.commDurNs) + "," +
                  Micros(step.preparingNs) + "\n");
    }
}

void WriteOpStatistic(const GeneratorRecord& record, File& out) {
    struct Totals {
        uint64_t count = 0;
        int64_t total = 0, min = INT64_MAX, max = 0;
    };
    std::map<size_t, Totals> byKind;
    int64_t all = 0;
    for (const GeneratedTask& task : record.tasks) {
        Totals& totals = byKind[task.kind == kExtraOperatorKind ? task.kind : task.kind % 20];
        ++totals.count;
        totals.total += task.durNs;
        totals.min = std::min(totals.min, task.durNs);
        totals.max = std::max(totals.max, task.durNs);
        all += task.durNs;
    }
    out.Write(
        "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n");
    for (const auto& [kind, totals] : byKind) {
        char ratio[32];
        std::snprintf(
            ratio, sizeof ratio, "%.3f",
            all ? 100.0 * static_cast<double>(totals.total) / static_cast<double>(all) : 0.0);
        out.Write(std::string(GeneratedOperatorType(kind)) + "," + GeneratedOperatorCore(kind) +
                  "," + std::to_string(totals.count) + "," + Micros(totals.total) + "," +
                  Micros(totals.min) + "," +
                  Micros(totals.total / static_cast<int64_t>(totals.count)) + "," +
                  Micros(totals.max) + "," + ratio + "\n");
    }
}

// One AllReduce per step (figures in RankFigures.hpp).
void WriteCommunication(const GeneratorRecord& record, const GeneratorOptions& options, File& out) {
    out.Write("{");
    for (size_t i = 0; i < record.steps.size(); ++i) {
        const GeneratedStep& step = record.steps[i];
        const StepCommunication c = CommunicationOf(step, options.rank);
        char ratios[96];
        std::snprintf(ratios, sizeof ratios,
                      "\"Wait Time Ratio\": %.4f, \"Synchronization Time Ratio\": %.4f",
                      c.waitRatio, c.syncRatio);
        std::string buckets;
        for (const PacketBucket& bucket : PacketBucketsOf(c))
            buckets += std::string(buckets.empty() ? "" : ", ") + "\"" + bucket.sizeMb + "\": [" +
                       std::to_string(bucket.count) + ", " + Millis(bucket.totalNs) + "]";
        std::string hccs = "\"HCCS\": {\"Transit Size(MB)\": " + c.sizeMb +
                           ", \"Transit Time(ms)\": " + Millis(c.transitNs) +
                           ", \"Bandwidth(GB/s)\": " + c.bandwidthGBps +
                           ", \"Large Packet Ratio\": 0.0, \"Size Distribution\": {" + buckets +
                           "}}";
        std::string empty;
        for (const char* transport : kIdleTransports)
            empty += std::string(", \"") + transport +
                     "\": {\"Transit Size(MB)\": 0, \"Transit Time(ms)\": 0, \"Bandwidth(GB/s)\": "
                     "0, \"Large Packet Ratio\": 0, "
                     "\"Size Distribution\": {}}";
        out.Write(std::string(i ? ", " : "") + "\"step" + std::to_string(step.number) +
                  "\": {\"p2p\": {}, \"collective\": {\"" + step.commName + "@" + kCommGroup +
                  "\": {\"Communication Time Info\": {\"Start Timestamp(us)\": " +
                  Micros(step.commStartNs) + ", \"Elapse Time(ms)\": " + Millis(step.commDurNs) +
                  ", \"Transit Time(ms)\": " + Millis(c.transitNs) + ", \"Wait Time(ms)\": " +
                  Millis(c.waitNs) + ", \"Synchronization Time(ms)\": " + Millis(c.syncNs) +
                  ", \"Idle Time(ms)\": " + Millis(c.idleNs) + ", " + ratios +
                  "}, \"Communication Bandwidth Info\": {" + hccs + empty +
                  "}}, \"Total Op Info\": {\"Communication Time Info\": "
                  "{\"Elapse Time(ms)\": " +
                  Millis(step.commDurNs) + "}, \"Communication Bandwidth Info\": {}}}}");
    }
    out.Write("}\n");
}

void WriteMatrix(const GeneratorRecord& record, const GeneratorOptions& options, File& out) {
    out.Write("{");
    for (size_t i = 0; i < record.steps.size(); ++i) {
        const GeneratedStep& step = record.steps[i];
        std::string links;
        for (const MatrixLink& link : MatrixLinksOf(step, options.rank))
            links += std::string(links.empty() ? "" : ", ") + "\"" + std::to_string(link.src) +
                     "-" + std::to_string(link.dst) + "\": {\"Transport Type\": \"" +
                     link.transport + "\", \"Transit Size(MB)\": " + link.sizeMb +
                     ", \"Transit Time(ms)\": " + Millis(link.transitNs) +
                     ", \"Bandwidth(GB/s)\": " + link.bandwidthGBps + ", \"Op Name\": \"" +
                     step.commName + "\"}";
        out.Write(std::string(i ? ", " : "") + "\"step" + std::to_string(step.number) +
                  "\": {\"p2p\": {}, \"collective\": {\"" + kMatrixOpGroup + "@" + kCommGroup +
                  "\": {" + links + "}}}");
    }
    out.Write("}\n");
}

// Time cells end with a tab, as torch_npu writes them.
void WriteMemoryRecord(const GeneratorRecord& record, File& out) {
    out.Write(
        "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream "
        "Ptr,Device Type\r\n");
    for (const GeneratedStep& step : record.steps) {
        out.Write("APP," + Micros(step.startNs) + "\t,," + Fixed("%.7f", kAppReservedMb) +
                  ",,,NPU:0\r\n");
        for (size_t i = 0; i < step.taskCount; ++i) {
            const GeneratedTask& task = record.tasks[step.firstTask + i];
            const double allocated = AllocatedMbAt(i, step.taskCount);
            char line[160];
            std::snprintf(line, sizeof line, "PTA,%s\t,%.4f,%.1f,%.4f,%lld,NPU:0\r\n",
                          Micros(task.startNs).c_str(), allocated, kPtaReservedMb, allocated,
                          static_cast<long long>(kStreamPtr));
            out.Write(line);
        }
    }
}

void WriteOperatorMemory(const GeneratorRecord& record, File& out) {
    out.Write(
        "Name,Size(KB),Allocation Time(us),Release Time(us),Active Release "
        "Time(us),Duration(us),Active Duration(us),"
        "Allocation Total Allocated(MB),Allocation Total Reserved(MB),Allocation Total Active(MB),"
        "Release Total Allocated(MB),Release Total Reserved(MB),Release Total Active(MB),Stream "
        "Ptr,Device Type\r\n");
    for (size_t i = 0; i < record.tasks.size() && i < kOperatorAllocations; ++i) {
        const GeneratedTask& task = record.tasks[i];
        const bool released = ReleasedBeforeEnd(i);
        const std::string release =
            released ? Micros(task.startNs + task.durNs) + "\t" : std::string();
        const std::string held = released ? Micros(task.durNs) + "\t" : std::string();
        out.Write(std::string("aten::") + GeneratedOperatorType(task.kind) + "," +
                  Fixed("%.1f", AllocationKb(task)) + "," + Micros(task.startNs) + "\t," + release +
                  "," + release + "," + held + "," + held + "," +
                  Fixed("%.1f", kAllocationTotalMb) + "," + Fixed("%.1f", kPtaReservedMb) + "," +
                  Fixed("%.1f", kAllocationTotalMb) + ",,,," + std::to_string(kStreamPtr) +
                  ",NPU:0\r\n");
    }
}

}  // namespace

bool WriteRankSideFiles(const GeneratorRecord& record, const GeneratorOptions& options,
                        const std::string& outputDir, std::string* error) {
    struct Output {
        const char* name;
        void (*write)(const GeneratorRecord&, const GeneratorOptions&, File&);
    };
    const Output outputs[] = {
        {"kernel_details.csv", [](const GeneratorRecord& r, const GeneratorOptions&,
                                  File& f) { WriteKernelDetails(r, f); }},
        {"step_trace_time.csv",
         [](const GeneratorRecord& r, const GeneratorOptions&, File& f) { WriteStepTrace(r, f); }},
        {"op_statistic.csv", [](const GeneratorRecord& r, const GeneratorOptions&,
                                File& f) { WriteOpStatistic(r, f); }},
        {"communication.json", WriteCommunication},
        {"communication_matrix.json", WriteMatrix},
        {"memory_record.csv", [](const GeneratorRecord& r, const GeneratorOptions&,
                                 File& f) { WriteMemoryRecord(r, f); }},
        {"operator_memory.csv", [](const GeneratorRecord& r, const GeneratorOptions&,
                                   File& f) { WriteOperatorMemory(r, f); }},
    };
    for (const Output& output : outputs) {
        File file(outputDir + "/" + output.name, error);
        if (!file) return false;
        output.write(record, options, file);
    }
    return true;
}

namespace {

// profiler_info_R.json, with the export type torch_npu records for what the folder holds.
bool WriteProfilerInfo(const GeneratorOptions& options, const std::string& rankDir,
                       RankExport exportKind, std::string* error) {
    File info(rankDir + "/profiler_info_" + std::to_string(options.rank) + ".json", error);
    if (!info) return false;
    const char* exportType = exportKind == RankExport::kText       ? "\"text\""
                             : exportKind == RankExport::kDatabase ? "\"db\""
                                                                   : "[\"text\", \"db\"]";
    info.Write(
        "{\"config\": {\"common_config\": {\"record_shapes\": true}, \"experimental_config\": "
        "{\"_profiler_level\": \"Level1\", \"_export_type\": " +
        std::string(exportType) + "}}, \"rank_id\": " + std::to_string(options.rank) + "}\n");
    return true;
}

off_t FileSize(const std::string& path) {
    struct stat status {};
    return stat(path.c_str(), &status) == 0 ? status.st_size : 0;
}

}  // namespace

bool WriteRankDirectory(const GeneratorOptions& options, const std::string& rankDir,
                        std::string* error, GeneratorReport* report, RankExport exportKind) {
    const std::string outputDir = rankDir + "/ASCEND_PROFILER_OUTPUT";
    mkdir(rankDir.c_str(), 0755);
    mkdir(outputDir.c_str(), 0755);
    if (!WriteProfilerInfo(options, rankDir, exportKind, error)) return false;
    const bool text = exportKind != RankExport::kDatabase;
    const std::string tracePath = outputDir + "/trace_view.json";
    std::FILE* trace = text ? std::fopen(tracePath.c_str(), "wb") : nullptr;
    if (text && !trace) {
        *error = tracePath + ": cannot write";
        return false;
    }
    std::unique_ptr<ProfilerDatabaseWriter> database;
    if (exportKind != RankExport::kText)
        database = std::make_unique<ProfilerDatabaseWriter>(options, outputDir);
    // Only the text side files need every task at the end; the databases are written per step.
    GeneratorRecord record;
    GeneratorReport written =
        GenerateTrace(options, trace, text ? &record : nullptr, database.get());
    if (trace && std::fclose(trace) != 0) {
        *error = tracePath + ": cannot write";
        return false;
    }
    if (database) {
        if (!database->Finish(error)) return false;
        const std::string dbPath =
            outputDir + "/ascend_pytorch_profiler_" + std::to_string(options.rank) + ".db";
        const uint64_t dbBytes = static_cast<uint64_t>(FileSize(dbPath)) +
                                 static_cast<uint64_t>(FileSize(outputDir + "/analysis.db"));
        written.bytes = text ? written.bytes + dbBytes : dbBytes;
    }
    if (report) *report = written;
    return !text || WriteRankSideFiles(record, options, outputDir, error);
}

}  // namespace marey

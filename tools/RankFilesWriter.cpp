// The profiler's other files of a generated rank folder, consistent with its trace_view.json.
#include <sys/stat.h>

#include <cstdio>
#include <map>
#include <string>

#include "GeneratedText.hpp"
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
                  Micros(step.freeNs) + "," + Micros(stage) + ",0," + Micros(step.commDurNs) +
                  ",0\n");
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

// One AllReduce per step: mostly waiting for the peers, a short transit over HCCS.
void WriteCommunication(const GeneratorRecord& record, const GeneratorOptions& options, File& out) {
    const std::string group = "17522688603477080586";
    out.Write("{");
    for (size_t i = 0; i < record.steps.size(); ++i) {
        const GeneratedStep& step = record.steps[i];
        const int64_t transit = step.commDurNs / 4, wait = step.commDurNs / 5, sync = wait * 9 / 10;
        const int64_t idle = step.commDurNs - transit - wait;
        // HCCS at about 17.5 GB/s (MB per ms), a little slower on higher ranks.
        const double sizeMb = (17.5 - static_cast<double>(options.rank % 8) * 0.3) *
                              (static_cast<double>(transit) / 1e6);
        const double bandwidth = sizeMb / (static_cast<double>(transit) / 1e6);
        char bw[32], ratios[96];
        std::snprintf(bw, sizeof bw, "%.4f", bandwidth);
        std::snprintf(ratios, sizeof ratios,
                      "\"Wait Time Ratio\": %.4f, \"Synchronization Time Ratio\": %.4f",
                      static_cast<double>(wait) / static_cast<double>(wait + transit),
                      static_cast<double>(sync) / static_cast<double>(sync + transit));
        std::string hccs =
            "\"HCCS\": {\"Transit Size(MB)\": " + std::to_string(sizeMb) +
            ", \"Transit Time(ms)\": " + Millis(transit) + ", \"Bandwidth(GB/s)\": " + bw +
            ", \"Large Packet Ratio\": 0.0, \"Size Distribution\": {\"2.064384\": [12, " +
            Millis(transit * 3 / 4) + "], \"0.262144\": [9, " + Millis(transit / 4) + "]}}";
        std::string empty;
        for (const char* transport : {"RDMA", "PCIE", "SDMA", "SIO"})
            empty += std::string(", \"") + transport +
                     "\": {\"Transit Size(MB)\": 0, \"Transit Time(ms)\": 0, \"Bandwidth(GB/s)\": "
                     "0, \"Large Packet Ratio\": 0, "
                     "\"Size Distribution\": {}}";
        out.Write(std::string(i ? ", " : "") + "\"step" + std::to_string(step.number) +
                  "\": {\"p2p\": {}, \"collective\": {\"" + step.commName + "@" + group +
                  "\": {\"Communication Time Info\": {\"Start Timestamp(us)\": " +
                  Micros(step.commStartNs) + ", \"Elapse Time(ms)\": " + Millis(step.commDurNs) +
                  ", \"Transit Time(ms)\": " + Millis(transit) + ", \"Wait Time(ms)\": " +
                  Millis(wait) + ", \"Synchronization Time(ms)\": " + Millis(sync) +
                  ", \"Idle Time(ms)\": " + Millis(idle) + ", " + ratios +
                  "}, \"Communication Bandwidth Info\": {" + hccs + empty +
                  "}}, \"Total Op Info\": {\"Communication Time Info\": "
                  "{\"Elapse Time(ms)\": " +
                  Millis(step.commDurNs) + "}, \"Communication Bandwidth Info\": {}}}}");
    }
    out.Write("}\n");
}

void WriteMatrix(const GeneratorRecord& record, const GeneratorOptions& options, File& out) {
    out.Write("{");
    const unsigned rank = options.rank;
    for (size_t i = 0; i < record.steps.size(); ++i) {
        const GeneratedStep& step = record.steps[i];
        const int64_t transit = step.commDurNs / 4;
        const double transitMs = static_cast<double>(transit) / 1e6;
        auto link = [&](unsigned dst, const char* type, double sizeMb, int64_t ns) {
            char text[256];
            std::snprintf(text, sizeof text,
                          "\"%u-%u\": {\"Transport Type\": \"%s\", \"Transit Size(MB)\": %.6f, "
                          "\"Transit Time(ms)\": %s, "
                          "\"Bandwidth(GB/s)\": %.4f, \"Op Name\": \"%s\"}",
                          rank, dst, type, sizeMb, Millis(ns).c_str(),
                          sizeMb / (static_cast<double>(ns) / 1e6), step.commName.c_str());
            return std::string(text);
        };
        out.Write(std::string(i ? ", " : "") + "\"step" + std::to_string(step.number) +
                  "\": {\"p2p\": {}, \"collective\": {\"allreduce-total@17522688603477080586\": {" +
                  link(rank, "LOCAL", 500.0 * transitMs / 30, std::max<int64_t>(1, transit / 30)) +
                  ", " + link((rank + 1) % 8, "HCCS", 17.5 * transitMs, transit) + ", " +
                  link((rank + 7) % 8, "HCCS", 17.5 * transitMs, transit * 11 / 10) + "}}}");
    }
    out.Write("}\n");
}

// Memory that grows through each step's forward pass and falls back at its end, as a training
// step's activations do; time cells end with a tab, as torch_npu writes them.
void WriteMemoryRecord(const GeneratorRecord& record, File& out) {
    out.Write(
        "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream "
        "Ptr,Device Type\r\n");
    for (const GeneratedStep& step : record.steps) {
        out.Write("APP," + Micros(step.startNs) + "\t,,2109.6015625,,,NPU:0\r\n");
        for (size_t i = 0; i < step.taskCount; ++i) {
            const GeneratedTask& task = record.tasks[step.firstTask + i];
            const double allocated =
                954.25 +
                18.5 * static_cast<double>(i < step.taskCount / 2 ? i : step.taskCount - i);
            char line[160];
            std::snprintf(line, sizeof line, "PTA,%s\t,%.4f,1452.0,%.4f,897357296,NPU:0\r\n",
                          Micros(task.startNs).c_str(), allocated, allocated);
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
    for (size_t i = 0; i < record.tasks.size() && i < 4000; ++i) {
        const GeneratedTask& task = record.tasks[i];
        const double sizeKb =
            512.0 * static_cast<double>(1 + task.kind % 7) * (task.kind == 0 ? 8 : 1);
        // Every 50th allocation is still held when the profile ends.
        const bool released = i % 50 != 49;
        const std::string release =
            released ? Micros(task.startNs + task.durNs) + "\t" : std::string();
        const std::string held = released ? Micros(task.durNs) + "\t" : std::string();
        char sizes[64];
        std::snprintf(sizes, sizeof sizes, "%.1f", sizeKb);
        out.Write(std::string("aten::") + GeneratedOperatorType(task.kind) + "," + sizes + "," +
                  Micros(task.startNs) + "\t," + release + "," + release + "," + held + "," + held +
                  ",960.0,1452.0,960.0,,,,897357296,NPU:0\r\n");
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

bool WriteRankDirectory(const GeneratorOptions& options, const std::string& rankDir,
                        std::string* error, GeneratorReport* report) {
    const std::string outputDir = rankDir + "/ASCEND_PROFILER_OUTPUT";
    mkdir(rankDir.c_str(), 0755);
    mkdir(outputDir.c_str(), 0755);
    {
        File info(rankDir + "/profiler_info_" + std::to_string(options.rank) + ".json", error);
        if (!info) return false;
        info.Write(
            "{\"config\": {\"common_config\": {\"record_shapes\": true}, \"experimental_config\": "
            "{\"_profiler_level\": \"Level1\", \"_export_type\": \"text\"}}, \"rank_id\": " +
            std::to_string(options.rank) + "}\n");
    }
    const std::string tracePath = outputDir + "/trace_view.json";
    std::FILE* trace = std::fopen(tracePath.c_str(), "wb");
    if (!trace) {
        *error = tracePath + ": cannot write";
        return false;
    }
    GeneratorRecord record;
    const GeneratorReport written = GenerateTrace(options, trace, &record);
    if (std::fclose(trace) != 0) {
        *error = tracePath + ": cannot write";
        return false;
    }
    if (report) *report = written;
    return WriteRankSideFiles(record, options, outputDir, error);
}

}  // namespace marey

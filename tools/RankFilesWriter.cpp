// The profiler's other files of a generated rank folder, consistent with its trace_view.json.
#include <cstdio>
#include <map>
#include <string>

#include "TraceGenerator.hpp"

namespace tracelens {
namespace {

std::string Micros(int64_t ns) {
    char text[40];
    std::snprintf(text, sizeof text, "%lld.%03lld", static_cast<long long>(ns / 1000), static_cast<long long>(ns % 1000));
    return text;
}

std::string Millis(int64_t ns) {
    char text[40];
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(ns) / 1e6);
    return text;
}

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
    out.Write("Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),"
              "Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,"
              "Output Shapes,Output Data Types,Output Formats\r\n");
    for (const GeneratedStep& step : record.steps) {
        int64_t previousEnd = step.startNs;
        for (size_t i = step.firstTask; i < step.firstTask + step.taskCount; ++i) {
            const GeneratedTask& task = record.tasks[i];
            const char* type = GeneratedOperatorType(task.kind);
            out.Write(std::to_string(step.number) + ",4294967295," + std::to_string(i % 65536) + "," +
                      std::to_string(task.stream) + "," + type + "_" + std::to_string(task.kind) + "," + type +
                      ",dynamic," + GeneratedOperatorCore(task.kind) + "," + Micros(task.startNs) + "\t," +
                      Micros(task.durNs) + "," + Micros(std::max<int64_t>(0, task.startNs - previousEnd)) +
                      ",24,0,NO,\"\"\"32,1024;1024,1024\"\"\",FLOAT16;FLOAT16,ND;ND,\"\"\"32,1024\"\"\",FLOAT16,ND\r\n");
            previousEnd = task.startNs + task.durNs;
        }
        out.Write(std::to_string(step.number) + ",4294967295,N/A,N/A," + step.commName + ",hcom_allReduce_,N/A,HCCL," +
                  Micros(step.commStartNs) + "\t," + Micros(step.commDurNs) + ",0,0,0,N/A,N/A,N/A,N/A,N/A,N/A,N/A\r\n");
    }
}

void WriteStepTrace(const GeneratorRecord& record, File& out) {
    out.Write("Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
              "Communication(Not Overlapped and Exclude Receive),Preparing\n");
    for (const GeneratedStep& step : record.steps) {
        const int64_t stage = step.computingNs + step.commDurNs + step.freeNs;
        out.Write(std::to_string(step.number) + "," + Micros(step.computingNs) + "," + Micros(step.commDurNs) + ",0," +
                  Micros(step.commDurNs) + "," + Micros(step.freeNs) + "," + Micros(stage) + ",0," +
                  Micros(step.commDurNs) + ",0\n");
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
        Totals& totals = byKind[task.kind % 20];
        ++totals.count;
        totals.total += task.durNs;
        totals.min = std::min(totals.min, task.durNs);
        totals.max = std::max(totals.max, task.durNs);
        all += task.durNs;
    }
    out.Write("OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n");
    for (const auto& [kind, totals] : byKind) {
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.3f", all ? 100.0 * static_cast<double>(totals.total) / static_cast<double>(all) : 0.0);
        out.Write(std::string(GeneratedOperatorType(kind)) + "," + GeneratedOperatorCore(kind) + "," +
                  std::to_string(totals.count) + "," + Micros(totals.total) + "," + Micros(totals.min) + "," +
                  Micros(totals.total / static_cast<int64_t>(totals.count)) + "," + Micros(totals.max) + "," + ratio + "\n");
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
        const double sizeMb = (17.5 - static_cast<double>(options.rank % 8) * 0.3) * (static_cast<double>(transit) / 1e6);
        const double bandwidth = sizeMb / (static_cast<double>(transit) / 1e6);
        char bw[32], ratios[96];
        std::snprintf(bw, sizeof bw, "%.4f", bandwidth);
        std::snprintf(ratios, sizeof ratios, "\"Wait Time Ratio\": %.4f, \"Synchronization Time Ratio\": %.4f",
                      static_cast<double>(wait) / static_cast<double>(wait + transit),
                      static_cast<double>(sync) / static_cast<double>(sync + transit));
        std::string hccs = "\"HCCS\": {\"Transit Size(MB)\": " + std::to_string(sizeMb) + ", \"Transit Time(ms)\": " +
                           Millis(transit) + ", \"Bandwidth(GB/s)\": " + bw +
                           ", \"Large Packet Ratio\": 0.0, \"Size Distribution\": {\"2.064384\": [12, " +
                           Millis(transit * 3 / 4) + "], \"0.262144\": [9, " + Millis(transit / 4) + "]}}";
        std::string empty;
        for (const char* transport : {"RDMA", "PCIE", "SDMA", "SIO"})
            empty += std::string(", \"") + transport +
                     "\": {\"Transit Size(MB)\": 0, \"Transit Time(ms)\": 0, \"Bandwidth(GB/s)\": 0, \"Large Packet Ratio\": 0, "
                     "\"Size Distribution\": {}}";
        out.Write(std::string(i ? ", " : "") + "\"step" + std::to_string(step.number) + "\": {\"p2p\": {}, \"collective\": {\"" +
                  step.commName + "@" + group + "\": {\"Communication Time Info\": {\"Start Timestamp(us)\": " +
                  Micros(step.commStartNs) + ", \"Elapse Time(ms)\": " + Millis(step.commDurNs) +
                  ", \"Transit Time(ms)\": " + Millis(transit) + ", \"Wait Time(ms)\": " + Millis(wait) +
                  ", \"Synchronization Time(ms)\": " + Millis(sync) + ", \"Idle Time(ms)\": " + Millis(idle) + ", " + ratios +
                  "}, \"Communication Bandwidth Info\": {" + hccs + empty + "}}, \"Total Op Info\": {\"Communication Time Info\": "
                  "{\"Elapse Time(ms)\": " + Millis(step.commDurNs) + "}, \"Communication Bandwidth Info\": {}}}}");
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
                          "\"%u-%u\": {\"Transport Type\": \"%s\", \"Transit Size(MB)\": %.6f, \"Transit Time(ms)\": %s, "
                          "\"Bandwidth(GB/s)\": %.4f, \"Op Name\": \"%s\"}",
                          rank, dst, type, sizeMb, Millis(ns).c_str(), sizeMb / (static_cast<double>(ns) / 1e6),
                          step.commName.c_str());
            return std::string(text);
        };
        out.Write(std::string(i ? ", " : "") + "\"step" + std::to_string(step.number) +
                  "\": {\"p2p\": {}, \"collective\": {\"allreduce-total@17522688603477080586\": {" +
                  link(rank, "LOCAL", 500.0 * transitMs / 30, std::max<int64_t>(1, transit / 30)) + ", " +
                  link((rank + 1) % 8, "HCCS", 17.5 * transitMs, transit) + ", " +
                  link((rank + 7) % 8, "HCCS", 17.5 * transitMs, transit * 11 / 10) +
                  "}}}");
    }
    out.Write("}\n");
}

}  // namespace

bool WriteRankSideFiles(const GeneratorRecord& record, const GeneratorOptions& options, const std::string& outputDir,
                        std::string* error) {
    struct Output {
        const char* name;
        void (*write)(const GeneratorRecord&, const GeneratorOptions&, File&);
    };
    const Output outputs[] = {
        {"kernel_details.csv", [](const GeneratorRecord& r, const GeneratorOptions&, File& f) { WriteKernelDetails(r, f); }},
        {"step_trace_time.csv", [](const GeneratorRecord& r, const GeneratorOptions&, File& f) { WriteStepTrace(r, f); }},
        {"op_statistic.csv", [](const GeneratorRecord& r, const GeneratorOptions&, File& f) { WriteOpStatistic(r, f); }},
        {"communication.json", WriteCommunication},
        {"communication_matrix.json", WriteMatrix},
    };
    for (const Output& output : outputs) {
        File file(outputDir + "/" + output.name, error);
        if (!file) return false;
        output.write(record, options, file);
    }
    return true;
}

}  // namespace tracelens

#include "SqlBenchmark.hpp"

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "BenchSupport.hpp"
#include "TraceGenerator.hpp"
#include "import/chrome_json/TraceLoader.hpp"
#include "sql/SqlSession.hpp"

namespace marey::bench {
namespace {

struct SqlMeasure {
    double loadSeconds = 0, openSeconds = 0;
    double windowSecondsMedian = 0, windowSecondsMax = 0;  // count(*) over a 1 ms window
    double groupSeconds = 0;                               // count and sum(dur) by name
    uint64_t slices = 0, names = 0;
    uint64_t loadedPeakKb = 0, queriedPeakKb = 0;
};

// Counts rows and keeps the first column of the last row as a number.
class CountRows final : public SqlResultSink {
public:
    uint64_t rows = 0;
    int64_t last = 0;
    void Begin(const std::vector<std::string>&) override { rows = 0; }
    void Row(sqlite3_stmt* statement) override {
        ++rows;
        last = sqlite3_column_int64(statement, 0);
    }
    void End() override {}
};

double Timed(SqlSession& session, const std::string& sql, CountRows& sink) {
    const double start = Now();
    const Status ran = session.Run(sql, sink);
    if (!ran.ok()) {
        std::fprintf(stderr, "%s\n", ran.message().c_str());
        std::abort();
    }
    return Now() - start;
}

SqlMeasure LoadAndQuery(const std::string& path, unsigned threads) {
    SqlMeasure measure;
    LoadOptions options;
    options.threads = threads;
    double start = Now();
    auto loaded = LoadTrace(path, options);
    measure.loadSeconds = Now() - start;
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.message().c_str());
        std::abort();
    }
    const TraceModel& model = *loaded.value();
    measure.loadedPeakKb = ReadStatusKb("VmHWM:");
    start = Now();
    auto session = SqlSession::Open(model);
    measure.openSeconds = Now() - start;
    if (!session.ok()) std::abort();
    CountRows sink;
    Timed(*session.value(), "select count(*) from slice", sink);
    measure.slices = static_cast<uint64_t>(sink.last);
    // Windows of 1 ms at random places of the trace.
    std::mt19937_64 random(1);
    std::vector<double> windows;
    for (int i = 0; i < 101; ++i) {
        const TimeNs from =
            model.firstNs + static_cast<TimeNs>(random() % uint64_t(model.lastNs - model.firstNs));
        windows.push_back(Timed(*session.value(),
                                "select count(*) from slice where ts between " +
                                    std::to_string(from) + " and " + std::to_string(from + 1000000),
                                sink));
    }
    std::sort(windows.begin(), windows.end());
    measure.windowSecondsMedian = windows[windows.size() / 2];
    measure.windowSecondsMax = windows.back();
    measure.groupSeconds =
        Timed(*session.value(), "select name, count(*), sum(dur) from slice group by name", sink);
    measure.names = sink.rows;
    measure.queriedPeakKb = ReadStatusKb("VmHWM:");
    return measure;
}

}  // namespace

int RunSqlBenchmark(const std::vector<uint64_t>& sizes, const std::string& dir, int repeat,
                    unsigned threads, bool keep) {
    for (const uint64_t size : sizes) {
        // The load benchmark's trace: the same name, so one generated file serves both.
        const std::string path = dir + "/marey-bench-" + std::to_string(size) + ".json";
        GeneratorOptions options;
        options.events = size;
        options.seed = 42;
        if (!WriteTrace(path, options)) return 1;
        struct stat info {};
        stat(path.c_str(), &info);
        SqlMeasure best;
        best.groupSeconds = 1e30;
        for (int r = 0; r < repeat; ++r) {
            ReadIntoPageCache(path);
            const SqlMeasure m = InChild([&] { return LoadAndQuery(path, threads); });
            if (m.groupSeconds < best.groupSeconds) best = m;
        }
        std::printf("\nSQL over %llu slices, %.1f MB (%s)\n",
                    static_cast<unsigned long long>(best.slices),
                    static_cast<double>(info.st_size) / 1e6, path.c_str());
        std::printf("  load                                   : %8.3f s\n", best.loadSeconds);
        std::printf("  open the SQL tables                    : %8.3f ms\n",
                    best.openSeconds * 1e3);
        std::printf(
            "  count(*) where ts in a 1 ms window     : %8.3f ms median, %.3f ms max "
            "(101 windows)\n",
            best.windowSecondsMedian * 1e3, best.windowSecondsMax * 1e3);
        std::printf("  name, count(*), sum(dur) group by name : %8.3f s  (%llu names)\n",
                    best.groupSeconds, static_cast<unsigned long long>(best.names));
        std::printf("  peak resident: %.1f MB after the load, %.1f MB after the queries\n",
                    static_cast<double>(best.loadedPeakKb) / 1024,
                    static_cast<double>(best.queriedPeakKb) / 1024);
        std::fflush(stdout);
        if (!keep) std::remove(path.c_str());
    }
    return 0;
}

}  // namespace marey::bench

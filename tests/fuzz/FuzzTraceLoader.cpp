// libFuzzer target: any bytes as a trace file, through the whole loader, on 1 and 2 threads
// with small chunks so that chunk boundaries land everywhere. Neither may crash or hang; when
// the single-threaded load finds no problem (valid input), both must agree.
#include <cstddef>
#include <cstdint>
#include <string>

#include "import/chrome_json/TraceLoader.hpp"

using namespace marey;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    LoadOptions single;
    single.threads = 1;
    single.chunkBytes = 1ull << 30;
    LoadOptions chunked;
    chunked.threads = 2;
    chunked.chunkBytes = 256;
    auto a = LoadTraceText(TraceText::FromString(text), "fuzz.json", single);
    auto b = LoadTraceText(TraceText::FromString(text), "fuzz.json", chunked);
    if (a.ok() != b.ok()) __builtin_trap();
    if (a.ok() && a.value()->report.problemCount == 0) {
        const TraceModel& x = *a.value();
        const TraceModel& y = *b.value();
        if (x.sliceCount != y.sliceCount || x.report.eventCount != y.report.eventCount ||
            x.report.problemCount != y.report.problemCount || x.flows.size() != y.flows.size() ||
            x.firstNs != y.firstNs || x.lastNs != y.lastNs)
            __builtin_trap();
    }
    return 0;
}

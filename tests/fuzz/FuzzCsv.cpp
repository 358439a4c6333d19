// libFuzzer target: any bytes as kernel_details.csv, and every record through the CSV reader.
#include <cstddef>
#include <cstdint>
#include <string>

#include "load/CsvReader.hpp"
#include "load/KernelCsvLoader.hpp"

using namespace tracelens;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    CsvReader reader(text);
    std::vector<std::string_view> fields;
    uint64_t offset = 0, last = 0;
    while (reader.Next(fields, &offset)) {
        if (offset < last || offset >= size) __builtin_trap();  // always moves forward
        last = offset;
    }
    auto model = LoadKernelDetailsCsv(TraceText::FromString(text), "fuzz.csv");
    (void)model;
    return 0;
}

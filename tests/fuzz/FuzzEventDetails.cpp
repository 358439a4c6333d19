// libFuzzer target: reading the details of an event at every offset of any text.
#include <cstddef>
#include <cstdint>
#include <string>

#include "load/EventDetails.hpp"

using namespace marey;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const TraceText text =
        TraceText::FromString(std::string(reinterpret_cast<const char*>(data), size));
    for (uint64_t offset = 0; offset < size; offset += 1 + offset / 8)
        ReadEventDetails(text, offset, 64);
    return 0;
}

// libFuzzer target: the exact decimal time parser against a slow reference on what it accepts.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/Time.hpp"

using namespace tracelens;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    TimeNs ns = 0;
    const DecimalError error = ParseMicrosToNs(text, &ns);
    int64_t scaled = 0;
    // The fast path and the general path must agree on every input the fast path takes.
    if (error == DecimalError::kNone && ParseScaledDecimal(text, 3, &scaled) == DecimalError::kNone && scaled != ns)
        __builtin_trap();
    return 0;
}

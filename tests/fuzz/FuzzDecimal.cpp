// libFuzzer target: the exact decimal time parser against a slow reference on what it accepts,
// and the padded parser (the loader's) against the exact one on everything.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/Time.hpp"

using namespace marey;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    TimeNs ns = 0;
    const DecimalError error = ParseMicrosToNs(text, &ns);
    int64_t scaled = 0;
    // The fast path and the general path must agree on every input the fast path takes.
    if (error == DecimalError::kNone &&
        ParseScaledDecimal(text, 3, &scaled) == DecimalError::kNone && scaled != ns)
        __builtin_trap();
    // Digits after the token must not be taken for part of it: the padding is all '9's.
    std::string padded(text);
    padded.append(64, '9');
    TimeNs paddedNs = 0;
    const DecimalError paddedError =
        ParseMicrosToNsPadded(std::string_view(padded.data(), size), &paddedNs);
    if (paddedError != error || (error == DecimalError::kNone && paddedNs != ns)) __builtin_trap();
    return 0;
}

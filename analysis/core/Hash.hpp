#pragma once
// The constants every hash in the library is built from, written once.
#include <cstdint>

namespace marey {

// 2^64 / golden ratio: multiplying a key by it spreads its bits over the high bits of the
// product (Fibonacci hashing), so that `(key * kGoldenRatio64) >> (64 - bits)` picks a slot.
inline constexpr uint64_t kGoldenRatio64 = 0x9E3779B97F4A7C15ull;
// A second odd multiplier (xxHash's PRIME64_2), for mixing a second word into the same hash.
inline constexpr uint64_t kMixPrime64 = 0xC2B2AE3D27D4EB4Full;
// FNV-1a, 64 bits: the offset basis a hash starts from and the prime it multiplies by per step.
inline constexpr uint64_t kFnvOffsetBasis64 = 0xcbf29ce484222325ull;
inline constexpr uint64_t kFnvPrime64 = 0x100000001b3ull;

}  // namespace marey

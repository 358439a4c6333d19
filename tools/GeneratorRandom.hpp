#pragma once
// The generators' random draws: splitmix64, small, fast and the same on every machine, so that a
// seed always writes the same trace.
#include <cstdint>

#include "core/Hash.hpp"

namespace marey {

class GeneratorRandom {
public:
    explicit GeneratorRandom(uint64_t seed) : m_state(seed * kGoldenRatio64 + 1) {}
    uint64_t Next() {
        uint64_t z = (m_state += kGoldenRatio64);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n), n > 0 (with the slight bias of a modulo, which no test minds).
    uint64_t Below(uint64_t n) { return Next() % n; }
    // Uniform in [low, high].
    int64_t Between(int64_t low, int64_t high) {
        return low + static_cast<int64_t>(Below(high - low + 1));
    }

private:
    uint64_t m_state;
};

}  // namespace marey

#pragma once
// A 64-bit checksum of a stream of bytes that finds a truncated or garbled cache file. Four
// independent lanes take 8 bytes each per 32-byte stripe (two multiplies, a rotation), so that a
// core checksums about 10 GB/s: a 250 MB cache costs 25 ms, not the 60 ms of a one-lane hash.
// Not cryptographic: it detects damage, not forgery.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/Hash.hpp"

namespace marey {

class Checksum {
public:
    // Adds 'bytes' bytes at 'data'. The value depends only on the bytes added, never on how they
    // were split into calls. O(bytes).
    void Add(const void* data, size_t bytes) {
        if (bytes == 0) return;  // 'data' may be null
        const auto* p = static_cast<const unsigned char*>(data);
        m_totalBytes += bytes;
        if (m_pendingBytes > 0) {
            const size_t take = std::min(bytes, kStripeBytes - m_pendingBytes);
            std::memcpy(m_pending.data() + m_pendingBytes, p, take);
            m_pendingBytes += take;
            p += take;
            bytes -= take;
            if (m_pendingBytes < kStripeBytes) return;
            AddStripes(m_pending.data(), 1);
            m_pendingBytes = 0;
        }
        const size_t stripes = bytes / kStripeBytes;
        AddStripes(p, stripes);
        p += stripes * kStripeBytes;
        bytes -= stripes * kStripeBytes;
        std::memcpy(m_pending.data(), p, bytes);
        m_pendingBytes = bytes;
    }

    // The checksum of everything added so far. O(1).
    uint64_t Value() const {
        uint64_t hash = Rotate(m_lanes[0], 1) + Rotate(m_lanes[1], 7) + Rotate(m_lanes[2], 12) +
                        Rotate(m_lanes[3], 18);
        for (const uint64_t lane : m_lanes) hash = (hash ^ Round(0, lane)) * kGoldenRatio64;
        hash ^= m_totalBytes;
        // The bytes short of a stripe, zero-padded: the total above tells "ab" from "ab\0".
        std::array<uint64_t, kLanes> tail{};
        std::memcpy(tail.data(), m_pending.data(), m_pendingBytes);
        for (const uint64_t word : tail) hash = Rotate(hash ^ Round(0, word), 27) * kMixPrime64;
        hash ^= hash >> 33;
        hash *= kMixPrime64;
        hash ^= hash >> 29;
        hash *= kGoldenRatio64;
        return hash ^ (hash >> 32);
    }

private:
    static constexpr size_t kLanes = 4;
    static constexpr size_t kStripeBytes = kLanes * 8;

    static uint64_t Rotate(uint64_t value, int bits) {
        return (value << bits) | (value >> (64 - bits));
    }
    static uint64_t Round(uint64_t lane, uint64_t word) {
        return Rotate(lane + word * kMixPrime64, 31) * kGoldenRatio64;
    }
    void AddStripes(const unsigned char* p, size_t stripes) {
        // Locals, so that the four chains stay in registers and run side by side.
        uint64_t a = m_lanes[0], b = m_lanes[1], c = m_lanes[2], d = m_lanes[3];
        for (size_t i = 0; i < stripes; ++i, p += kStripeBytes) {
            uint64_t words[kLanes];
            std::memcpy(words, p, kStripeBytes);
            a = Round(a, words[0]);
            b = Round(b, words[1]);
            c = Round(c, words[2]);
            d = Round(d, words[3]);
        }
        m_lanes = {a, b, c, d};
    }

    std::array<uint64_t, kLanes> m_lanes{kFnvOffsetBasis64, kGoldenRatio64, kMixPrime64,
                                         kFnvPrime64};
    std::array<unsigned char, kStripeBytes> m_pending{};
    size_t m_pendingBytes = 0;
    uint64_t m_totalBytes = 0;
};

}  // namespace marey

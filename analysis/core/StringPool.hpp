#pragma once
// Interned strings: each distinct string gets a small id once, events keep only the id.
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace marey {

using StringId = uint32_t;  // 0 is the empty string ("no name")

// Append-only pool of strings. Views may point into memory that outlives the pool's users
// (the mapped trace) when added with InternView; Intern copies into the pool's own arena.
class StringPool {
public:
    StringPool();
    StringPool(StringPool&&) noexcept = default;
    StringPool& operator=(StringPool&&) noexcept = default;

    // Returns the id of 'text', adding a copy of it if new. Amortised O(length).
    StringId Intern(std::string_view text);
    // Same, but keeps 'text' by reference: the caller guarantees its bytes outlive the pool.
    StringId InternView(std::string_view text);
    // Returns the id of 'text' or 0 when it was never interned. O(length).
    StringId Find(std::string_view text) const;

    std::string_view Get(StringId id) const { return m_strings[id]; }
    // HashBytes(Get(id)), kept from when it was added.
    uint64_t Hash(StringId id) const { return m_hashes[id]; }
    size_t size() const { return m_strings.size(); }

private:
    StringId Insert(std::string_view text, bool copy);
    void Rehash(size_t slotCount);
    std::string_view CopyIntoArena(std::string_view text);

    std::vector<std::string_view> m_strings;
    std::vector<uint64_t> m_hashes;
    std::vector<StringId> m_slots;  // open addressing, 0 = empty
    std::vector<std::unique_ptr<char[]>> m_arenaBlocks;
    size_t m_arenaUsed = 0;
    size_t m_arenaBlockSize = 0;
};

// 64-bit hash of a byte string (FNV-1a folded 8 bytes at a time). Stable across runs.
uint64_t HashBytes(std::string_view text);

}  // namespace marey

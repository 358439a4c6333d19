#include "core/StringPool.hpp"

#include <algorithm>
#include <cstring>

#include "core/Hash.hpp"

namespace marey {
namespace {
constexpr size_t kFirstArenaBlockBytes = 4 << 10;
constexpr size_t kArenaBlockBytes = 1 << 20;
}  // namespace

uint64_t HashBytes(std::string_view text) {
    uint64_t hash = kFnvOffsetBasis64 ^ text.size();
    size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        uint64_t word;
        std::memcpy(&word, text.data() + i, 8);
        hash = (hash ^ word) * kFnvPrime64;
        hash ^= hash >> 29;
    }
    for (; i < text.size(); ++i) hash = (hash ^ static_cast<unsigned char>(text[i])) * kFnvPrime64;
    hash ^= hash >> 32;
    hash *= 0xd6e8feb86659fd93ull;
    hash ^= hash >> 32;
    return hash;
}

StringPool::StringPool() {
    // "" and not string_view(): its data() is a valid pointer, so that code that passes data()
    // alone to a C function (ImGui's text sizing calls strlen on it) reads an empty string.
    m_strings.push_back(std::string_view(""));
    m_hashes.push_back(HashBytes(std::string_view()));
    m_slots.assign(64, 0);
}

StringId StringPool::Intern(std::string_view text) {
    return Insert(text, true);
}
StringId StringPool::InternView(std::string_view text) {
    return Insert(text, false);
}

StringId StringPool::Find(std::string_view text) const {
    if (text.empty()) return 0;
    const uint64_t hash = HashBytes(text);
    const size_t mask = m_slots.size() - 1;
    for (size_t slot = hash & mask;; slot = (slot + 1) & mask) {
        const StringId id = m_slots[slot];
        if (id == 0) return 0;
        if (m_hashes[id] == hash && m_strings[id] == text) return id;
    }
}

StringId StringPool::Insert(std::string_view text, bool copy) {
    if (text.empty()) return 0;
    const uint64_t hash = HashBytes(text);
    size_t mask = m_slots.size() - 1;
    size_t slot = hash & mask;
    for (;; slot = (slot + 1) & mask) {
        const StringId id = m_slots[slot];
        if (id == 0) break;
        if (m_hashes[id] == hash && m_strings[id] == text) return id;
    }
    const StringId id = static_cast<StringId>(m_strings.size());
    m_strings.push_back(copy ? CopyIntoArena(text) : text);
    m_hashes.push_back(hash);
    m_slots[slot] = id;
    if (m_strings.size() * 2 > m_slots.size()) Rehash(m_slots.size() * 2);
    return id;
}

void StringPool::Rehash(size_t slotCount) {
    m_slots.assign(slotCount, 0);
    const size_t mask = slotCount - 1;
    for (StringId id = 1; id < m_strings.size(); ++id) {
        size_t slot = m_hashes[id] & mask;
        while (m_slots[slot] != 0) slot = (slot + 1) & mask;
        m_slots[slot] = id;
    }
}

std::string_view StringPool::CopyIntoArena(std::string_view text) {
    if (m_arenaBlocks.empty() || m_arenaUsed + text.size() > m_arenaBlockSize) {
        // Blocks double from a small first one: a chunk of a trace interns a few hundred names,
        // and a block of its own mapping would cost two system calls and a page for each chunk.
        const size_t next = m_arenaBlocks.empty()
                                ? kFirstArenaBlockBytes
                                : std::min(m_arenaBlockSize * 2, kArenaBlockBytes);
        m_arenaBlockSize = std::max(text.size(), next);
        m_arenaBlocks.emplace_back(new char[m_arenaBlockSize]);
        m_arenaUsed = 0;
    }
    char* destination = m_arenaBlocks.back().get() + m_arenaUsed;
    std::memcpy(destination, text.data(), text.size());
    m_arenaUsed += text.size();
    return std::string_view(destination, text.size());
}

}  // namespace marey

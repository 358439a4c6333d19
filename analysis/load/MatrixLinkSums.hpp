#pragma once
// A communication matrix's entries summed per operator key, transport, source and destination
// over the steps: the one place where a matrix is summed, whatever it was read from (the text
// export as it is read, a profiler database, msprof-analyze's cluster files).
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/StringPool.hpp"
#include "load/CommunicationJson.hpp"

namespace marey {

class MatrixLinkSums {
public:
    // One entry, or 'entry.entries' of the file's summed already. Keeps no view of its text.
    // O(1) amortised.
    void Add(const CommunicationLinkView& entry);
    void Add(const CommunicationLink& link);
    // The sums in the order their keys were first added: one link per key, its 'entries' the
    // entries it stands for, its step empty. O(sums).
    std::vector<CommunicationLink> Finish();

private:
    struct Key {
        StringId group = 0, transport = 0;
        int srcRank = -1, dstRank = -1;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        size_t operator()(const Key& key) const {
            return ((uint64_t{key.group} << 32) ^ key.transport) * 0x9E3779B97F4A7C15ull ^
                   (static_cast<uint64_t>(static_cast<uint32_t>(key.srcRank)) << 32 |
                    static_cast<uint32_t>(key.dstRank));
        }
    };
    StringPool m_strings;
    std::unordered_map<Key, size_t, KeyHash> m_index;  // key → index into m_links
    std::vector<Key> m_keys;                           // per link
    std::vector<CommunicationLink> m_links;
};

// 'links' (each standing for its 'entries') summed per key as MatrixLinkSums does. O(links).
std::vector<CommunicationLink> SumMatrixLinks(const std::vector<CommunicationLink>& links);

}  // namespace marey

#pragma once
// Types for the viewer's ids and indices: a document id, a rank id and a step or group index
// cannot be passed for one another, and "none" or "all" is an empty std::optional, never -1 or
// 0. The analysis library keeps plain ints; the viewer wraps them where it keeps or passes them.
#include <compare>
#include <cstdint>
#include <optional>

namespace marey {

// An integer of one meaning: constructed and read explicitly, compared only with its own kind.
template <class Tag, class T>
class StrongId {
public:
    constexpr StrongId() = default;
    constexpr explicit StrongId(T value) : m_value(value) {}
    constexpr T value() const { return m_value; }
    friend constexpr auto operator<=>(const StrongId&, const StrongId&) = default;

private:
    T m_value{};
};

// A document or cluster of the workspace, numbered from 1 and never reused within a run. Its
// timeline stamps the value on every slice it hands out (SliceRef::document).
using DocumentId = StrongId<struct DocumentIdTag, uint32_t>;
// A rank's id in its cluster (as its folder names it), not its index in cluster.ranks.
using RankId = StrongId<struct RankIdTag, int>;
// An index into cluster.steps.
using StepIndex = StrongId<struct StepIndexTag, int>;
// An index into cluster.groups.
using GroupIndex = StrongId<struct GroupIndexTag, int>;

// True when 'id' is set and holds 'value'.
template <class Tag, class T>
constexpr bool Holds(const std::optional<StrongId<Tag, T>>& id, T value) {
    return id && id->value() == value;
}

// The value of 'id', or 'none' when it is empty (for printing and for old interfaces).
template <class Tag, class T>
constexpr T ValueOr(const std::optional<StrongId<Tag, T>>& id, T none) {
    return id ? id->value() : none;
}

}  // namespace marey

#pragma once
// Types for ids and indices: a rank id, a step index and a group index cannot be passed for one
// another, and "none" or "all" is an empty std::optional, never -1 or 0.
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

// A rank's id in its job (as its files or folder name it), not its index in a cluster's ranks.
using RankId = StrongId<struct RankIdTag, int>;
// An index into a cluster's steps.
using StepIndex = StrongId<struct StepIndexTag, int>;
// An index into a cluster's communication groups.
using GroupIndex = StrongId<struct GroupIndexTag, int>;

// "12": the id as people and files write it.
template <class Tag, class T>
std::string ToString(StrongId<Tag, T> id) {
    return std::to_string(id.value());
}

// The numbers of 'ids', for lists written as numbers (JSON, rank ranges).
inline std::vector<int> RankNumbers(const std::vector<RankId>& ids) {
    std::vector<int> numbers;
    numbers.reserve(ids.size());
    for (const RankId id : ids) numbers.push_back(id.value());
    return numbers;
}

// True when 'id' is set and holds 'value'.
template <class Tag, class T>
constexpr bool Holds(const std::optional<StrongId<Tag, T>>& id, T value) {
    return id && id->value() == value;
}

// The value of 'id', or 'none' when it is empty (for printing and for file formats whose own
// rule writes a number there).
template <class Tag, class T>
constexpr T ValueOr(const std::optional<StrongId<Tag, T>>& id, T none) {
    return id ? id->value() : none;
}

}  // namespace marey

// Typed ids: a rank id, a step index and a group index cannot stand in for one another or for a
// plain int, and "none" is an empty optional, never -1.
#include <doctest/doctest.h>

#include <concepts>
#include <optional>
#include <type_traits>
#include <vector>

#include "cluster/Cluster.hpp"
#include "core/Ids.hpp"

using namespace marey;

namespace {

template <class A, class B>
concept Comparable = requires(A a, B b) {
    a == b;
};

static_assert(!std::is_convertible_v<int, RankId>, "an int is not a rank id unless said so");
static_assert(!std::is_convertible_v<RankId, int>, "a rank id is read with value()");
static_assert(!Comparable<RankId, StepIndex>, "a rank id is never compared with a step");
static_assert(!Comparable<RankId, int>, "nor with a bare number");
static_assert(Comparable<std::optional<RankId>, RankId>, "an optional id compares with an id");

}  // namespace

TEST_CASE("typed ids order by value, say 'none' as an empty optional, print as numbers") {
    CHECK(RankId(3) < RankId(12));
    CHECK(RankId(7) == RankId(7));
    CHECK(ToString(RankId(12)) == "12");
    const std::optional<RankId> none;
    CHECK(none < RankId(0));  // sorted, ranks of no id come first
    CHECK(Holds(std::optional<RankId>(RankId(0)), 0));
    CHECK_FALSE(Holds(none, 0));
    CHECK(ValueOr(none, -1) == -1);
    CHECK(ValueOr(std::optional<StepIndex>(StepIndex(4)), -1) == 4);
    CHECK(RankNumbers({RankId(0), RankId(5), RankId(2)}) == std::vector<int>{0, 5, 2});
}

TEST_CASE("a cluster answers 'which index' for a rank or step it lacks with none, not -1") {
    Cluster cluster;
    for (const int id : {0, 2, 5}) {
        ClusterRank rank;
        rank.rankId = RankId(id);
        cluster.ranks.push_back(rank);
    }
    cluster.steps = {"1", "2"};
    CHECK(cluster.IndexOfRank(RankId(2)) == std::optional<size_t>(1));
    CHECK_FALSE(cluster.IndexOfRank(RankId(1)).has_value());
    CHECK_FALSE(cluster.IndexOfRank(RankId(6)).has_value());
    CHECK(cluster.IndexOfStep("2") == StepIndex(1));
    CHECK_FALSE(cluster.IndexOfStep("3").has_value());
    CHECK(cluster.ranks[2].Id() == RankId(5));
    CHECK(FormatRankList(std::vector<RankId>{RankId(0), RankId(1), RankId(2), RankId(5)}) ==
          "0-2, 5");
}

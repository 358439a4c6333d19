#pragma once
// What makes a run unfit for `marey check`'s verdict: a check of part of a run passes or fails
// as if it were the whole run (a truncated candidate "improves" by every step it lost), so a
// damaged input is named and gets no verdict of its own.
#include <string>
#include <vector>

#include "rank/LoadedRank.hpp"

namespace marey {

// The share of a run's events that may be import problems before the run counts as damaged:
// 1 %, stated in `marey check`'s usage and in the message.
inline constexpr double kMaxProblemShare = 0.01;

// Each way 'rank' is not the whole run, one line each that names its file: the file ends before
// its events do; import problems above kMaxProblemShare of its events; a ProfilerStep slice
// that never ended; steps that its step_trace_time.csv lists and its trace does not hold. Empty
// when none. O(unfinished slices + steps × log steps).
std::vector<std::string> FindRunDamage(const LoadedRank& rank);

}  // namespace marey

#pragma once
// Runs independent pieces of work on a few threads.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace marey {

// Runs 'work(i)' for i in [0, count) on up to 'threads' threads (the caller's included),
// biggest 'sizes[i]' first, so that the longest piece never starts last.
void ParallelFor(size_t count, unsigned threads, const std::vector<uint64_t>& sizes,
                 const std::function<void(size_t)>& work);

}  // namespace marey

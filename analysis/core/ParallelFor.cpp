#include "core/ParallelFor.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

namespace marey {

void ParallelFor(size_t count, unsigned threads, const std::vector<uint64_t>& sizes,
                 const std::function<void(size_t)>& work) {
    std::vector<size_t> order(count);
    for (size_t i = 0; i < count; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sizes[a] > sizes[b]; });
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i; (i = next.fetch_add(1)) < count;) work(order[i]);
    };
    const size_t used = std::min<size_t>(threads, count);
    std::vector<std::thread> pool;
    for (size_t i = 1; i < used; ++i) pool.emplace_back(worker);
    worker();
    for (auto& thread : pool) thread.join();
}

}  // namespace marey

#pragma once
// The benchmark's mode for `marey sql`: the same generated trace as the load benchmark, loaded,
// then queried through the model's SQL tables.
#include <cstdint>
#include <string>
#include <vector>

namespace marey::bench {

int RunSqlBenchmark(const std::vector<uint64_t>& sizes, const std::string& dir, int repeat,
                    unsigned threads, bool keep);

}  // namespace marey::bench

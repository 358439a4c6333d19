// PodArray: values survive growth from the heap into a mapping, pages populated ahead of
// push_back, the calls that give pages back, and a file's mapping taken over.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/PodArray.hpp"

using marey::PodArray;

namespace {

// A value that tells its own index, so that a lost or moved page shows.
uint64_t Pattern(size_t i) {
    return i * 0x9E3779B97F4A7C15ull + 1;
}

bool HoldsPattern(const PodArray<uint64_t>& values, size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
        if (values[i] != Pattern(i)) return false;
    return true;
}

}  // namespace

TEST_CASE("push_back keeps every value through the heap, the first mapping and its growth") {
    PodArray<uint64_t> values;
    constexpr size_t kCount = 3'000'000;  // 24 MB: grows past the first 1 MiB mapping twice
    bool withinCapacity = true;
    for (size_t i = 0; i < kCount; ++i) {
        values.push_back(Pattern(i));
        withinCapacity = withinCapacity && values.size() <= values.capacity();
    }
    CHECK(withinCapacity);
    CHECK(values.size() == kCount);
    CHECK(HoldsPattern(values, 0, kCount));
}

TEST_CASE("ReleaseSpare keeps the values, and push_back goes on after it") {
    PodArray<uint64_t> values;
    for (size_t i = 0; i < 100'000; ++i) values.push_back(Pattern(i));
    values.ReleaseSpare();
    CHECK(HoldsPattern(values, 0, 100'000));
    for (size_t i = 100'000; i < 200'000; ++i) values.push_back(Pattern(i));
    values.ReleaseSpare();
    CHECK(values.size() == 200'000);
    CHECK(HoldsPattern(values, 0, 200'000));
}

TEST_CASE("a moved array goes on growing where the first left off") {
    PodArray<uint64_t> first;
    for (size_t i = 0; i < 50'000; ++i) first.push_back(Pattern(i));
    PodArray<uint64_t> second(std::move(first));
    CHECK(first.empty());
    for (size_t i = 50'000; i < 400'000; ++i) second.push_back(Pattern(i));
    CHECK(HoldsPattern(second, 0, 400'000));
    for (size_t i = 0; i < 10; ++i) first.push_back(Pattern(i));  // the emptied one is usable again
    CHECK(HoldsPattern(first, 0, 10));
}

TEST_CASE(
    "values written in order after resize and Populate stay, and DiscardPages zeroes only whole "
    "pages inside its range") {
    PodArray<uint64_t> values;
    constexpr size_t kCount = 1'000'000;
    values.resize(kCount);
    for (size_t i = 0; i < kCount; i += 10'000) {
        values.Populate(i, i + 10'000);
        for (size_t j = i; j < i + 10'000; ++j) values[j] = Pattern(j);
    }
    values.Populate(kCount - 10, kCount + 1'000'000);  // past the capacity: clipped, harmless
    CHECK(HoldsPattern(values, 0, kCount));
    // [1000, 9000) holds whole 4 KiB pages from value 1024 (if the array starts on a page) on.
    values.DiscardPages(1000, 9000);
    size_t zeroed = 0;
    for (size_t i = 1000; i < 9000; ++i) zeroed += values[i] == 0;
    CHECK(zeroed >= 7000);
    CHECK(HoldsPattern(values, 0, 1000));
    CHECK(HoldsPattern(values, 9000, kCount));
    // A push_back after a resize lands after the resized values.
    values.push_back(Pattern(kCount));
    CHECK(values.size() == kCount + 1);
    CHECK(values[kCount] == Pattern(kCount));
}

TEST_CASE("TruncateAndRelease keeps the prefix, also when it moves back to the heap") {
    PodArray<uint64_t> values;
    for (size_t i = 0; i < 500'000; ++i) values.push_back(Pattern(i));
    values.TruncateAndRelease(100'000);
    CHECK(HoldsPattern(values, 0, 100'000));
    values.TruncateAndRelease(100);  // under the mapping threshold: copied to the heap
    CHECK(HoldsPattern(values, 0, 100));
    for (size_t i = 100; i < 300'000; ++i) values.push_back(Pattern(i));
    CHECK(HoldsPattern(values, 0, 300'000));
}

TEST_CASE("an array that took over a file's mapping reads it, writes only in memory and grows") {
    const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                       ("marey_podarray_" + std::to_string(getpid()) + ".bin");
    constexpr size_t kCount = 100'000;  // 800,000 bytes: 196 pages and a part
    {
        std::ofstream out(path, std::ios::binary);
        for (size_t i = 0; i < kCount; ++i) {
            const uint64_t value = Pattern(i);
            out.write(reinterpret_cast<const char*>(&value), sizeof value);
        }
    }
    const size_t regionBytes = (kCount * sizeof(uint64_t) + 4095) / 4096 * 4096;
    const int fd = open(path.c_str(), O_RDWR);
    REQUIRE(fd >= 0);
    REQUIRE(ftruncate(fd, static_cast<off_t>(regionBytes)) == 0);  // whole pages, as the cache has
    void* mapped = mmap(nullptr, regionBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    REQUIRE(mapped != MAP_FAILED);
    REQUIRE(PodArray<uint64_t>::CanAdopt(kCount));
    {
        PodArray<uint64_t> values = PodArray<uint64_t>::AdoptFileMapping(
            static_cast<uint64_t*>(mapped), kCount, regionBytes);
        CHECK(HoldsPattern(values, 0, kCount));
        values[0] = 0;  // copy on write: the file keeps its value
        values[0] = Pattern(0);
        for (size_t i = kCount; i < 3 * kCount; ++i) values.push_back(Pattern(i));
        CHECK(HoldsPattern(values, 0, 3 * kCount));
    }
    std::ifstream in(path, std::ios::binary);
    uint64_t first = 1;
    in.read(reinterpret_cast<char*>(&first), sizeof first);
    CHECK(first == Pattern(0));
    std::filesystem::remove(path);
}

// The index cache: a trace loaded again comes from the cache with every array equal to a fresh
// load; a truncated, damaged, foreign, older or stale cache file is said, ignored and written
// again; the folder, its limit and `marey stats` with and without the cache.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <zlib.h>

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "TraceGenerator.hpp"
#include "cache/CacheFile.hpp"
#include "cache/CacheFolder.hpp"
#include "cache/CachedModelCheck.hpp"
#include "cache/Checksum.hpp"
#include "cache/IndexCache.hpp"
#include "cache/ModelSerializer.hpp"
#include "import/chrome_json/TraceLoader.hpp"

using namespace marey;
namespace fs = std::filesystem;

namespace {

// [SECTION] Helpers

// Every field of two models, array by array: a model from the cache must be the fresh one.
template <typename T>
bool SameValues(const PodArray<T>& a, const PodArray<T>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool SameOverview(const PodArray<OverviewItem>& a, const PodArray<OverviewItem>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].startNs != b[i].startNs || a[i].endNs != b[i].endNs || a[i].first != b[i].first ||
            a[i].count != b[i].count)
            return false;
    return true;
}

bool SameFlows(const PodArray<Flow>& a, const PodArray<Flow>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].fromTs != b[i].fromTs || a[i].toTs != b[i].toTs || a[i].fromRef != b[i].fromRef ||
            a[i].toRef != b[i].toRef || a[i].fromOrigin != b[i].fromOrigin ||
            a[i].toOrigin != b[i].toOrigin || a[i].fromEnclosing != b[i].fromEnclosing ||
            a[i].toEnclosing != b[i].toEnclosing)
            return false;
    return true;
}

void CheckSameRow(const Row& a, const Row& b) {
    CHECK(a.kind == b.kind);
    CHECK(a.depth == b.depth);
    CHECK(a.overviewResolutionNs == b.overviewResolutionNs);
    CHECK(SameValues(a.start, b.start));
    CHECK(SameValues(a.end, b.end));
    CHECK(SameValues(a.name, b.name));
    CHECK(SameValues(a.refLow, b.refLow));
    CHECK(SameValues(a.refHigh, b.refHigh));
    CHECK(SameOverview(a.overview, b.overview));
}

void CheckSameTrack(const Track& a, const Track& b) {
    CHECK(a.kind == b.kind);
    CHECK(a.process == b.process);
    CHECK(a.tid == b.tid);
    CHECK(a.name == b.name);
    CHECK(a.sortIndex == b.sortIndex);
    CHECK(a.hasSortIndex == b.hasSortIndex);
    CHECK(a.sliceCount == b.sliceCount);
    CHECK(a.overlapSliceCount == b.overlapSliceCount);
    CHECK(a.counterKey == b.counterKey);
    REQUIRE(a.rows.size() == b.rows.size());
    for (size_t r = 0; r < a.rows.size(); ++r) CheckSameRow(a.rows[r], b.rows[r]);
    CHECK(SameValues(a.instantTs, b.instantTs));
    CHECK(SameValues(a.instantName, b.instantName));
    CHECK(SameValues(a.instantRef, b.instantRef));
    CHECK(SameValues(a.counterTs, b.counterTs));
    CHECK(SameValues(a.counterValue, b.counterValue));
}

void CheckSameReport(const ImportReport& a, const ImportReport& b) {
    CHECK(a.eventCount == b.eventCount);
    CHECK(a.phases.byChar == b.phases.byChar);
    CHECK(a.phases.other == b.phases.other);
    CHECK(a.problemCount == b.problemCount);
    REQUIRE(a.problems.size() == b.problems.size());
    for (size_t i = 0; i < a.problems.size(); ++i) {
        CHECK(a.problems[i].byteOffset == b.problems[i].byteOffset);
        CHECK(a.problems[i].line == b.problems[i].line);
        CHECK(a.problems[i].column == b.problems[i].column);
        CHECK(a.problems[i].message == b.problems[i].message);
    }
    CHECK(a.matchedFlows == b.matchedFlows);
    CHECK(a.unmatchedFlowEvents == b.unmatchedFlowEvents);
    CHECK(a.unmatchedBegins == b.unmatchedBegins);
    CHECK(a.unmatchedEnds == b.unmatchedEnds);
}

void CheckSameModel(const TraceModel& a, const TraceModel& b) {
    REQUIRE(a.sources.size() == 1);
    REQUIRE(b.sources.size() == 1);
    CHECK(a.sources[0].path == b.sources[0].path);
    CHECK(a.sources[0].text.size() == b.sources[0].text.size());
    CHECK(SameValues(a.sources[0].sliceFields.RefsAndCodes(),
                     b.sources[0].sliceFields.RefsAndCodes()));
    CHECK(SameValues(a.sources[0].sliceFields.Correlations(),
                     b.sources[0].sliceFields.Correlations()));
    CHECK(a.sources[0].sliceFields.TaskTypes() == b.sources[0].sliceFields.TaskTypes());
    REQUIRE(a.strings.size() == b.strings.size());
    for (StringId id = 0; id < a.strings.size(); ++id) CHECK(a.Name(id) == b.Name(id));
    REQUIRE(a.processes.size() == b.processes.size());
    for (size_t p = 0; p < a.processes.size(); ++p) {
        const Process &x = a.processes[p], &y = b.processes[p];
        CHECK(x.pid == y.pid);
        CHECK(x.name == y.name);
        CHECK(x.labels == y.labels);
        CHECK(x.sortIndex == y.sortIndex);
        CHECK(x.hasSortIndex == y.hasSortIndex);
        CHECK(x.tracks == y.tracks);
        CHECK(x.group == y.group);
    }
    REQUIRE(a.tracks.size() == b.tracks.size());
    for (size_t t = 0; t < a.tracks.size(); ++t) CheckSameTrack(a.tracks[t], b.tracks[t]);
    CHECK(SameFlows(a.flows, b.flows));
    CHECK(a.flowOrigins == b.flowOrigins);
    CheckSameReport(a.report, b.report);
    CHECK(a.firstNs == b.firstNs);
    CHECK(a.lastNs == b.lastNs);
    CHECK(a.sliceCount == b.sliceCount);
    CHECK(a.instantCount == b.instantCount);
    CHECK(a.counterSampleCount == b.counterSampleCount);
    CHECK(a.unfinished == b.unfinished);
    CHECK(a.groups.empty());
    CHECK(b.groups.empty());
    CHECK(test::DumpModel(a) == test::DumpModel(b));
}

// A trace with every kind of thing a model holds: nested, overlapping and unfinished slices, a
// row long enough for its level of detail, instants of each scope, async slices, counters, flows,
// metadata (of a thread whose process has no events, which is in no process), names enough for
// a string pool of more than 64 KiB, and problems (a bad time, an 'E' without 'B').
std::string EveryKindOfEvent() {
    std::string json = "[\n";
    json += R"({"ph":"M","pid":1,"name":"process_name","args":{"name":"Host"}},)"
            R"({"ph":"M","pid":1,"tid":2,"name":"thread_name","args":{"name":"main"}},)"
            R"({"ph":"M","pid":1,"tid":2,"name":"thread_sort_index","args":{"sort_index":3}},)"
            R"({"ph":"M","pid":9,"tid":9,"name":"thread_name","args":{"name":"no events"}},)"
            "\n";
    for (int i = 0; i < 70000; ++i)
        json += R"({"ph":"X","pid":1,"tid":3,"name":"a tick of the clock )" +
                std::to_string(i % 9000) + R"(","ts":)" + std::to_string(i * 2) + R"(,"dur":1},)" +
                "\n";
    json += R"({"ph":"X","pid":1,"tid":2,"name":"outer","ts":10,"dur":100},)"
            R"({"ph":"X","pid":1,"tid":2,"name":"inner","ts":20,"dur":10},)"
            R"({"ph":"X","pid":1,"tid":2,"name":"across","ts":105,"dur":20},)"
            R"({"ph":"B","pid":1,"tid":2,"name":"never ends","ts":200},)"
            R"({"ph":"E","pid":1,"tid":4,"ts":210},)"
            R"({"ph":"X","pid":1,"tid":2,"name":"bad","ts":"soon","dur":1},)"
            R"({"ph":"i","pid":1,"tid":2,"name":"mark","ts":30,"s":"t"},)"
            R"({"ph":"i","pid":1,"tid":2,"name":"process mark","ts":31,"s":"p"},)"
            R"({"ph":"i","pid":1,"tid":2,"name":"global mark","ts":32,"s":"g"},)"
            R"({"ph":"b","pid":1,"tid":2,"cat":"io","id":"0x7","name":"read","ts":40},)"
            R"({"ph":"e","pid":1,"tid":2,"cat":"io","id":"0x7","name":"read","ts":90},)"
            R"({"ph":"C","pid":1,"name":"memory","ts":10,"args":{"used":5,"free":7}},)"
            R"({"ph":"C","pid":1,"name":"memory","ts":60,"args":{"used":6,"free":6}},)"
            R"({"ph":"s","pid":1,"tid":2,"cat":"launch","id":9,"name":"go","ts":21},)"
            R"({"ph":"f","pid":1,"tid":3,"cat":"launch","id":9,"name":"go","ts":22,"bp":"e"})"
            "\n]\n";
    return json;
}

void WriteFile(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    REQUIRE(out.good());
}

std::string ReadWholeFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Overwrites bytes of 'path' at 'offset'.
void Patch(const fs::path& path, uint64_t offset, const void* bytes, size_t count) {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(offset));
    file.write(static_cast<const char*>(bytes), static_cast<std::streamsize>(count));
    REQUIRE(file.good());
}

// The lowest bit of the byte at 'at' of 'path' flipped.
void FlipBit(const fs::path& path, uint64_t at) {
    const char flipped = static_cast<char>(ReadWholeFile(path)[at] ^ 1);
    Patch(path, at, &flipped, 1);
}

// A folder with a trace and a cache folder beside it, and the lines the cache says.
struct CacheSetup {
    fs::path dir;
    fs::path cacheDir;
    std::mutex mutex;
    std::vector<std::string> said;

    explicit CacheSetup(const std::string& name)
        : dir(test::TempDir(name)), cacheDir(dir / "cache" / "marey") {}

    LoadOptions Options() {
        LoadOptions options;
        options.threads = 2;
        options.cache.enabled = true;
        options.cache.folder = cacheDir.string();
        options.cache.say = [this](const std::string& line) {
            std::lock_guard<std::mutex> lock(mutex);
            said.push_back(line);
        };
        return options;
    }
    // Loads 'trace' with the cache and waits for the cache to be written.
    std::unique_ptr<TraceModel> Load(const fs::path& trace) {
        auto loaded = LoadTrace(trace.string(), Options());
        REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.message()));
        loaded.value()->cacheWrite.Join();
        return std::move(loaded.value());
    }
    std::unique_ptr<TraceModel> LoadFresh(const fs::path& trace) {
        LoadOptions options;
        options.threads = 2;
        auto loaded = LoadTrace(trace.string(), options);
        REQUIRE(loaded.ok());
        return std::move(loaded.value());
    }
    fs::path CacheFileOf(const fs::path& trace) const {
        return CacheFilePath(cacheDir.string(), fs::canonical(trace).string());
    }
    std::vector<std::string> TakeSaid() {
        std::lock_guard<std::mutex> lock(mutex);
        return std::exchange(said, {});
    }
};

fs::path GeneratedTrace(const fs::path& dir, uint64_t events) {
    GeneratorOptions options;
    options.events = events;
    options.seed = 5;
    const fs::path path = dir / "trace.json";
    WriteFile(path, test::WrittenText([&](std::FILE* out) { GenerateTrace(options, out); }));
    return path;
}

}  // namespace

// [SECTION] The model from the cache

TEST_CASE("a trace loaded again comes from the index cache, every array equal to a fresh load") {
    CacheSetup setup("index_cache_same");
    fs::path trace;
    bool ascend = false;
    SUBCASE("a generated Ascend trace") {
        trace = GeneratedTrace(setup.dir, 200000);
        ascend = true;
    }
    SUBCASE("every kind of event, with problems and a row long enough for its level of detail") {
        trace = setup.dir / "kinds.json";
        WriteFile(trace, EveryKindOfEvent());
    }
    const std::unique_ptr<TraceModel> fresh = setup.LoadFresh(trace);
    // Its tasks' types and connection ids are kept, so that a re-open never reads the text.
    if (ascend) CHECK(fresh->sources[0].sliceFields.TaskTypeCount() > 0);
    const std::unique_ptr<TraceModel> first = setup.Load(trace);
    CHECK_FALSE(first->sources[0].fromIndexCache);
    REQUIRE(fs::is_regular_file(setup.CacheFileOf(trace)));
    const std::unique_ptr<TraceModel> second = setup.Load(trace);
    CHECK(second->sources[0].fromIndexCache);
    CheckSameModel(*fresh, *second);
    CHECK(setup.TakeSaid().empty());
    // Nothing is written beside the trace: its folder holds the trace and the test's cache.
    size_t besideTrace = 0;
    for (const fs::directory_entry& entry : fs::directory_iterator(trace.parent_path()))
        besideTrace += entry.path() != trace && entry.path() != setup.dir / "cache";
    CHECK(besideTrace == 0);
}

TEST_CASE("every real trace of the fixtures comes back from the cache as it was parsed") {
    const std::string fixtures = test::FixturesDir();
    if (fixtures.empty()) return;
    CacheSetup setup("index_cache_real");
    size_t compared = 0;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(fixtures)) {
        const std::string path = entry.path().string();
        const bool json = path.ends_with(".json") || path.ends_with(".json.gz");
        if (!entry.is_regular_file() || !json) continue;
        LoadOptions plain;
        plain.threads = 2;
        auto fresh = LoadTrace(path, plain);
        if (!fresh.ok()) continue;  // a file of settings or summaries, not a trace
        CAPTURE(path);
        setup.Load(entry.path());
        const std::unique_ptr<TraceModel> cached = setup.Load(entry.path());
        CHECK(cached->sources[0].fromIndexCache);
        CheckSameModel(*fresh.value(), *cached);
        ++compared;
    }
    CHECK(compared >= 16);
    CHECK(setup.TakeSaid().empty());
}

TEST_CASE("a gzip trace is inflated again but its parse comes from the cache") {
    CacheSetup setup("index_cache_gzip");
    const fs::path trace = setup.dir / "kinds.json.gz";
    {
        const std::string text = EveryKindOfEvent();
        gzFile out = gzopen(trace.c_str(), "wb");
        REQUIRE(out != nullptr);
        REQUIRE(gzwrite(out, text.data(), static_cast<unsigned>(text.size())) ==
                static_cast<int>(text.size()));
        gzclose(out);
    }
    const std::unique_ptr<TraceModel> fresh = setup.LoadFresh(trace);
    setup.Load(trace);
    const std::unique_ptr<TraceModel> cached = setup.Load(trace);
    CHECK(cached->sources[0].fromIndexCache);
    CHECK(cached->sources[0].text.compressed());
    CheckSameModel(*fresh, *cached);
}

TEST_CASE("without the cache enabled nothing is read or written") {
    CacheSetup setup("index_cache_off");
    const fs::path trace = setup.dir / "kinds.json";
    WriteFile(trace, EveryKindOfEvent());
    LoadOptions options = setup.Options();
    options.cache.enabled = false;
    for (int i = 0; i < 2; ++i) {
        auto loaded = LoadTrace(trace.string(), options);
        REQUIRE(loaded.ok());
        CHECK_FALSE(loaded.value()->sources[0].fromIndexCache);
    }
    CHECK_FALSE(fs::exists(setup.cacheDir));
}

TEST_CASE("a cache file gives back what was written, large arrays in place of the file's pages") {
    const fs::path dir = test::TempDir("index_cache_file");
    const std::string path = (dir / "one.index").string();
    const CacheKey key{"/the/trace.json", 1234, 5678};
    const CacheFormat format{7, 9};
    PodArray<uint64_t> large, small;
    for (uint64_t i = 0; i < 100000; ++i) large.push_back(i * 3);
    for (uint64_t i = 0; i < 10; ++i) small.push_back(i);
    const std::vector<uint32_t> wide(20000, 7);
    const std::string text(100000, 'x');
    {
        auto writer = CacheFileWriter::Create(path, key, format);
        REQUIRE(writer.ok());
        writer.value()->WriteValue<uint8_t>(1);  // so that the large array is not on a page
        writer.value()->WriteArray(large.data(), large.size());
        writer.value()->WriteValue<uint8_t>(2);
        writer.value()->WriteArray(small.data(), small.size());
        writer.value()->WriteArray(wide.data(), wide.size());
        writer.value()->WriteString(text);
        writer.value()->WriteValue<uint8_t>(3);
        REQUIRE(writer.value()->Commit().ok());
    }
    const std::string before = ReadWholeFile(path);
    PodArray<uint64_t> largeBack, smallBack;
    std::vector<uint32_t> wideBack;
    std::string textBack;
    uint8_t one = 0, two = 0, three = 0;
    {
        auto reader = CacheFileReader::Open(path, key, format);
        REQUIRE(reader.ok());
        CacheFileReader& in = *reader.value();
        CHECK((in.ReadValue(one) && in.ReadArray(largeBack) && in.ReadValue(two) &&
               in.ReadArray(smallBack) && in.ReadArray(wideBack) && in.ReadString(textBack) &&
               in.ReadValue(three)));
        CHECK(in.Finish().ok());
    }
    CHECK((one == 1 && two == 2 && three == 3));
    CHECK(SameValues(large, largeBack));
    CHECK(SameValues(small, smallBack));
    CHECK(wideBack == wide);
    CHECK(textBack == text);
    // The array outlives the reader, changes only in memory, and grows into memory of its own.
    largeBack[5] = 42;
    for (uint64_t i = 0; i < 50000; ++i) largeBack.push_back(i);
    CHECK(largeBack[5] == 42);
    CHECK(largeBack[99999] == 99999 * 3);
    CHECK(largeBack[149999] == 49999);
    CHECK(ReadWholeFile(path) == before);
    CHECK(fs::directory_iterator(dir)->path() == path);  // no temporary file left
}

TEST_CASE("a cache file is read with every count checked against what is left") {
    const fs::path dir = test::TempDir("index_cache_counts");
    const std::string path = (dir / "one.index").string();
    const CacheKey key{"/the/trace.json", 1, 2};
    {
        auto writer = CacheFileWriter::Create(path, key, CacheFormat{1, 1});
        REQUIRE(writer.ok());
        writer.value()->WriteValue<uint64_t>(uint64_t{1} << 60);  // read as a count
        writer.value()->WriteValue<uint64_t>(0);
        REQUIRE(writer.value()->Commit().ok());
    }
    auto reader = CacheFileReader::Open(path, key, CacheFormat{1, 1});
    REQUIRE(reader.ok());
    PodArray<uint64_t> values;
    CHECK_FALSE(reader.value()->ReadArray(values));
    CHECK(values.empty());
    CHECK(reader.value()->Finish().message() ==
          "it is damaged: a count of 1152921504606846976 is more than the file holds");
}

// [SECTION] Cache files that do not fit

TEST_CASE("a cache file that does not fit its trace is said, ignored and written again") {
    CacheSetup setup("index_cache_refused");
    const fs::path trace = setup.dir / "kinds.json";
    WriteFile(trace, EveryKindOfEvent());
    const std::unique_ptr<TraceModel> fresh = setup.LoadFresh(trace);
    setup.Load(trace);
    const fs::path cacheFile = setup.CacheFileOf(trace);
    const uint64_t cacheBytes = fs::file_size(cacheFile);
    const uint64_t payloadAt = sizeof(CacheHeader) + fs::canonical(trace).string().size();
    std::string reason;
    SUBCASE("truncated") {
        fs::resize_file(cacheFile, cacheBytes / 2);
        reason = "it is truncated: ";
    }
    SUBCASE("one byte short: said in bytes, where megabytes would read the same") {
        fs::resize_file(cacheFile, cacheBytes - 1);
        reason = "it is truncated: " + std::to_string(cacheBytes - 1) + " of " +
                 std::to_string(cacheBytes) + " bytes";
    }
    SUBCASE("a byte of its payload flipped") {
        const std::string bytes = ReadWholeFile(cacheFile);
        const uint64_t at = payloadAt + (cacheBytes - payloadAt) / 2;
        const char flipped = static_cast<char>(bytes[at] ^ 0x10);
        Patch(cacheFile, at, &flipped, 1);
        reason = "it is damaged: its checksum does not match its contents";
    }
    SUBCASE("not a cache file") {
        Patch(cacheFile, 0, "NOTMAREY", 8);
        reason = "it is not an index cache file (no MAREYIDX at its start)";
    }
    SUBCASE("written in an older format") {
        const uint32_t older = kModelCacheVersion - 1;
        Patch(cacheFile, offsetof(CacheHeader, version), &older, sizeof older);
        reason = "it was written in format " + std::to_string(older) +
                 ", this marey reads format " + std::to_string(kModelCacheVersion);
    }
    SUBCASE("written by a build with another record layout") {
        const uint32_t layout = ModelCacheFormat().layout ^ 1;
        Patch(cacheFile, offsetof(CacheHeader, layout), &layout, sizeof layout);
        reason = "it was written by a build whose records have other sizes";
    }
    SUBCASE("its path's length damaged: what follows the path is never quoted") {
        uint32_t pathBytes = 0;
        std::memcpy(&pathBytes, ReadWholeFile(cacheFile).data() + offsetof(CacheHeader, pathBytes),
                    sizeof pathBytes);
        pathBytes += 9;  // the payload's first field, a byte count with zeros in it
        Patch(cacheFile, offsetof(CacheHeader, pathBytes), &pathBytes, sizeof pathBytes);
        reason = "its header is damaged (its checksum does not match)";
    }
    SUBCASE("its path's length past the file: cut short or damaged, said in bytes") {
        const uint32_t pathBytes = 4000;
        Patch(cacheFile, offsetof(CacheHeader, pathBytes), &pathBytes, sizeof pathBytes);
        fs::resize_file(cacheFile, 100);
        reason =
            "its header is cut short or damaged (it names a path of 4000 bytes in a file of "
            "100 bytes)";
    }
    SUBCASE("a byte of its path damaged: not read as another trace's file") {
        Patch(cacheFile, sizeof(CacheHeader) + 1, "\xd0", 1);
        reason = "its header is damaged (its checksum does not match)";
    }
    SUBCASE("its payload's length damaged: not read as a truncation") {
        FlipBit(cacheFile, offsetof(CacheHeader, payloadBytes) + 5);
        reason = "its header is damaged (its checksum does not match)";
    }
    SUBCASE("its header's checksum damaged") {
        FlipBit(cacheFile, offsetof(CacheHeader, headerChecksum));
        reason = "its header is damaged (its checksum does not match)";
    }
    SUBCASE("bytes past its end") {
        std::ofstream(cacheFile, std::ios::app | std::ios::binary) << "junk\n";
        reason = "it is longer than its header says: " + std::to_string(cacheBytes + 5) +
                 " bytes, not " + std::to_string(cacheBytes) + " bytes";
    }
    SUBCASE("a pipe in its place, which would block a reader") {
        fs::remove(cacheFile);
        REQUIRE(::mkfifo(cacheFile.c_str(), 0600) == 0);
        reason = "it is not a file but a pipe";  // replaced by the cache file written after
    }
    SUBCASE("the trace was touched since") {
        fs::last_write_time(trace, fs::last_write_time(trace) + std::chrono::seconds(2));
        reason = "the trace changed since it was written (size or modification time)";
    }
    SUBCASE("the trace grew since") {
        std::ofstream(trace, std::ios::app) << "\n";
        reason = "the trace changed since it was written (size or modification time)";
    }
    SUBCASE("written for another trace whose path has the same file name") {
        const fs::path other = setup.dir / "other.json";
        WriteFile(other, EveryKindOfEvent());
        setup.Load(other);
        fs::copy_file(setup.CacheFileOf(other), cacheFile, fs::copy_options::overwrite_existing);
        reason = "it was written for \"" + fs::canonical(other).string() + "\"";
    }
    setup.TakeSaid();
    const std::unique_ptr<TraceModel> again = setup.Load(trace);
    CHECK_FALSE(again->sources[0].fromIndexCache);
    const std::vector<std::string> said = setup.TakeSaid();
    REQUIRE(said.size() == 1);
    const std::string expected =
        trace.string() + ": index cache " + cacheFile.string() + " ignored: " + reason;
    CHECK(said[0].substr(0, expected.size()) == expected);
    CHECK(said[0].find("; it is written again after this load") != std::string::npos);
    const std::unique_ptr<TraceModel> fresh2 = setup.LoadFresh(trace);
    CheckSameModel(*fresh2, *again);
    // Written again: the next load comes from the cache, the same model.
    const std::unique_ptr<TraceModel> rewritten = setup.Load(trace);
    CHECK(rewritten->sources[0].fromIndexCache);
    CheckSameModel(*fresh2, *rewritten);
    CHECK(setup.TakeSaid().empty());
}

TEST_CASE("a folder in a cache file's place is said once per open, and nothing is written there") {
    CacheSetup setup("index_cache_folder");
    const fs::path trace = setup.dir / "kinds.json";
    WriteFile(trace, EveryKindOfEvent());
    const fs::path cacheFile = setup.CacheFileOf(trace);
    fs::create_directories(cacheFile);
    for (int open = 0; open < 2; ++open) {
        const std::unique_ptr<TraceModel> loaded = setup.Load(trace);
        CHECK_FALSE(loaded->sources[0].fromIndexCache);
        loaded->cacheWrite.Join();
        const std::vector<std::string> said = setup.TakeSaid();
        REQUIRE(said.size() == 1);
        CHECK(said[0] == trace.string() + ": index cache " + cacheFile.string() +
                             " ignored: it is not a file but a folder (remove it so that the "
                             "cache can be written)");
    }
    CHECK(fs::is_directory(cacheFile));
    CHECK(fs::is_empty(cacheFile));
}

TEST_CASE("a cache file whose checksum holds but whose indices point out of range is refused") {
    CacheSetup setup("index_cache_indices");
    const fs::path trace = setup.dir / "kinds.json";
    WriteFile(trace, EveryKindOfEvent());
    std::unique_ptr<TraceModel> model = setup.LoadFresh(trace);
    Row* row = nullptr;
    for (Track& track : model->tracks)
        if (!row && !track.rows.empty()) row = &track.rows[0];
    REQUIRE(row != nullptr);
    std::string reason;
    SUBCASE("a slice's name") {
        row->name[0] = static_cast<StringId>(model->strings.size());
        reason = "it is damaged: a slice's name is not in the string pool";
    }
    SUBCASE("a slice's ref") {
        row->refLow[0] = static_cast<uint32_t>(model->sources[0].text.size());
        reason = "it is damaged: a slice points past the end of the trace";
    }
    SUBCASE("a flow's origin") {
        REQUIRE(!model->flows.empty());
        model->flows[0].toOrigin = static_cast<uint32_t>(model->flowOrigins.size());
        reason = "it is damaged: a flow points out of range";
    }
    SUBCASE("an unfinished slice") {
        REQUIRE(!model->unfinished.empty());
        model->unfinished[0].index = 1u << 30;
        reason = "it is damaged: an unfinished slice is not in its row";
    }
    const IndexCache cache(setup.Options().cache, trace.string());
    REQUIRE(cache.Write(*model).ok());
    setup.TakeSaid();
    const std::unique_ptr<TraceModel> again = setup.Load(trace);
    CHECK_FALSE(again->sources[0].fromIndexCache);
    const std::vector<std::string> said = setup.TakeSaid();
    REQUIRE(said.size() == 1);
    CHECK(said[0] == trace.string() + ": index cache " + cache.FilePath() + " ignored: " + reason +
                         "; it is written again after this load");
}

TEST_CASE("a cache folder that cannot be made leaves the load whole and says so once") {
    CacheSetup setup("index_cache_unwritable");
    const fs::path trace = setup.dir / "kinds.json";
    WriteFile(trace, EveryKindOfEvent());
    WriteFile(setup.dir / "cache", "a file where the cache folder would go");
    const std::unique_ptr<TraceModel> loaded = setup.Load(trace);
    CHECK(loaded->sliceCount > 70000);
    const std::vector<std::string> said = setup.TakeSaid();
    REQUIRE(said.size() == 1);
    CHECK(said[0] == trace.string() + ": index cache not written: cannot create " +
                         (setup.dir / "cache" / "marey").string() + ": Not a directory");
}

// [SECTION] The folder and its limit

TEST_CASE("the cache folder follows XDG_CACHE_HOME, else HOME") {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    const std::string savedXdg = xdg ? xdg : "", savedHome = home ? home : "";
    setenv("XDG_CACHE_HOME", "/x/cache", 1);
    setenv("HOME", "/home/someone", 1);
    CHECK(DefaultCacheFolder() == "/x/cache/marey");
    setenv("XDG_CACHE_HOME", "relative/cache", 1);
    CHECK(DefaultCacheFolder() == "/home/someone/.cache/marey");
    unsetenv("XDG_CACHE_HOME");
    CHECK(DefaultCacheFolder() == "/home/someone/.cache/marey");
    unsetenv("HOME");
    CHECK(DefaultCacheFolder().empty());
    if (xdg) setenv("XDG_CACHE_HOME", savedXdg.c_str(), 1);
    if (home) setenv("HOME", savedHome.c_str(), 1);
}

TEST_CASE("the cache folder is made readable by its owner only") {
    const fs::path dir = test::TempDir("index_cache_mode");
    REQUIRE(CreateCacheFolder((dir / "a" / "b").string()).ok());
    struct stat info {};
    REQUIRE(stat((dir / "a" / "b").c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0700);
    REQUIRE(stat((dir / "a").c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0700);
    CHECK(CacheFilePath("/c", "/t/trace.json") == CacheFilePath("/c", "/t/trace.json"));
    CHECK(CacheFilePath("/c", "/t/trace.json") != CacheFilePath("/c", "/t/trace2.json"));
}

TEST_CASE("eviction removes the least recently used files until the cache fits its limit") {
    const fs::path dir = test::TempDir("index_cache_evict");
    const auto now = fs::file_time_type::clock::now();
    // Five files of 1000 bytes, used from the oldest (0) to the newest (4).
    for (int i = 0; i < 5; ++i) {
        const fs::path path = dir / (std::to_string(i) + kCacheFileExtension);
        WriteFile(path, std::string(1000, 'x'));
        fs::last_write_time(path, now - std::chrono::minutes(10 - i));
    }
    WriteFile(dir / "notes.txt", std::string(5000, 'x'));  // not the cache's: never counted
    const fs::path leftover = dir / (std::string("9") + kCacheFileExtension + ".tmp.1.0");
    WriteFile(leftover, "a crashed writer's file");
    fs::last_write_time(leftover, now - std::chrono::hours(2));
    const fs::path writing = dir / (std::string("8") + kCacheFileExtension + ".tmp.2.0");
    WriteFile(writing, "a writer at work");
    const std::string keep = (dir / ("0" + std::string(kCacheFileExtension))).string();
    // Room for three: 1, 2 go (0 is kept although it is the oldest: it was just written).
    CHECK(EvictOldest(dir.string(), 3000, keep) == 3);
    CHECK(fs::exists(dir / ("0" + std::string(kCacheFileExtension))));
    CHECK_FALSE(fs::exists(dir / ("1" + std::string(kCacheFileExtension))));
    CHECK_FALSE(fs::exists(dir / ("2" + std::string(kCacheFileExtension))));
    CHECK(fs::exists(dir / ("3" + std::string(kCacheFileExtension))));
    CHECK(fs::exists(dir / ("4" + std::string(kCacheFileExtension))));
    CHECK(fs::exists(dir / "notes.txt"));
    CHECK_FALSE(fs::exists(leftover));
    CHECK(fs::exists(writing));
}

TEST_CASE("a trace whose cache is over the limit loads and says its cache is not kept") {
    CacheSetup setup("index_cache_limit");
    const fs::path trace = setup.dir / "kinds.json";
    WriteFile(trace, EveryKindOfEvent());
    LoadOptions options = setup.Options();
    options.cache.limitBytes = 1 << 20;
    auto loaded = LoadTrace(trace.string(), options);
    REQUIRE(loaded.ok());
    loaded.value()->cacheWrite.Join();
    CHECK_FALSE(fs::exists(setup.CacheFileOf(trace)));
    const std::vector<std::string> said = setup.TakeSaid();
    REQUIRE(said.size() == 1);
    CHECK(said[0].find(": index cache not written: its ") != std::string::npos);
    CHECK(said[0].find(" MiB are more than the cache's limit of 1 MiB (MAREY_CACHE_LIMIT)") !=
          std::string::npos);
}

TEST_CASE("MAREY_CACHE_LIMIT is read as a size, 0 turns the cache off, anything else is refused") {
    CHECK(ParseCacheLimit("4G") == (uint64_t{4} << 30));
    CHECK(ParseCacheLimit("500m") == (uint64_t{500} << 20));
    CHECK(ParseCacheLimit("64K") == (uint64_t{64} << 10));
    CHECK(ParseCacheLimit("1T") == (uint64_t{1} << 40));
    CHECK(ParseCacheLimit("123") == uint64_t{123});
    CHECK(ParseCacheLimit("0") == uint64_t{0});
    CHECK_FALSE(ParseCacheLimit("").has_value());
    CHECK_FALSE(ParseCacheLimit("G").has_value());
    CHECK_FALSE(ParseCacheLimit("4GB").has_value());
    CHECK_FALSE(ParseCacheLimit("-1").has_value());
    CHECK_FALSE(ParseCacheLimit("99999999999T").has_value());

    const char* before = std::getenv("MAREY_CACHE_LIMIT");
    const std::string saved = before ? before : "";
    setenv("MAREY_CACHE_LIMIT", "lots", 1);
    const Result<IndexCacheOptions> refused = IndexCacheFromEnvironment(false);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.message() ==
          "MAREY_CACHE_LIMIT: expected a size such as 4G, 500M or 0 (no cache), got \"lots\"");
    setenv("MAREY_CACHE_LIMIT", "0", 1);
    REQUIRE(IndexCacheFromEnvironment(false).ok());
    CHECK_FALSE(IndexCacheFromEnvironment(false).value().enabled);
    setenv("MAREY_CACHE_LIMIT", "2G", 1);
    CHECK(IndexCacheFromEnvironment(false).value().enabled);
    CHECK(IndexCacheFromEnvironment(false).value().limitBytes == (uint64_t{2} << 30));
    CHECK_FALSE(IndexCacheFromEnvironment(true).value().enabled);
    if (before)
        setenv("MAREY_CACHE_LIMIT", saved.c_str(), 1);
    else
        unsetenv("MAREY_CACHE_LIMIT");
}

TEST_CASE("the checksum depends on the bytes only, not on how they were handed over") {
    std::string bytes(100000, '\0');
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 131 + i / 7);
    Checksum whole;
    whole.Add(bytes.data(), bytes.size());
    for (const size_t piece : {1, 3, 31, 32, 33, 4096}) {
        Checksum split;
        for (size_t at = 0; at < bytes.size(); at += piece)
            split.Add(bytes.data() + at, std::min(piece, bytes.size() - at));
        CHECK(split.Value() == whole.Value());
    }
    Checksum shorter, flipped;
    shorter.Add(bytes.data(), bytes.size() - 1);
    CHECK(shorter.Value() != whole.Value());
    bytes[5000] ^= 1;
    flipped.Add(bytes.data(), bytes.size());
    CHECK(flipped.Value() != whole.Value());
}

// [SECTION] The command line

TEST_CASE("marey stats prints the same JSON from the cache as from the trace") {
    const fs::path dir = test::TempDir("index_cache_stats");
    const fs::path trace = GeneratedTrace(dir, 50000);
    const std::string run = "XDG_CACHE_HOME=" + (dir / "xdg").string() + " " + MAREY_BINARY +
                            " stats --json " + trace.string();
    int status = 1;
    const std::string fresh = test::RunCommand(run + " --no-cache 2>&1", &status);
    REQUIRE(status == 0);
    CHECK_FALSE(fs::exists(dir / "xdg"));                      // --no-cache writes nothing
    CHECK(test::RunCommand(run + " 2>&1", &status) == fresh);  // parsed, and the cache written
    const fs::path cacheFile =
        CacheFilePath((dir / "xdg" / "marey").string(), fs::canonical(trace).string());
    REQUIRE(fs::is_regular_file(cacheFile));
    CHECK(test::RunCommand(run + " 2>&1", &status) == fresh);  // from the cache
    CHECK(status == 0);

    const char junk[4] = {'j', 'u', 'n', 'k'};
    Patch(cacheFile, fs::file_size(cacheFile) - 100, junk, sizeof junk);
    const std::string said = test::RunCommand(run + " 2>&1 >/dev/null", &status);
    CHECK(said == "marey: " + trace.string() + ": index cache " + cacheFile.string() +
                      " ignored: it is damaged: its checksum does not match its contents; it is "
                      "written again after this load\n");
    CHECK(test::RunCommand(run + " 2>&1", &status) == fresh);  // written again, and read

    CHECK(test::RunCommand("MAREY_CACHE_LIMIT=lots " + run + " 2>&1", &status) ==
          "marey stats: MAREY_CACHE_LIMIT: expected a size such as 4G, 500M or 0 (no cache), "
          "got \"lots\"\n");
    CHECK(status != 0);
}

#pragma once
// Helpers shared by the tests: loading from text and a canonical dump of a model.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "core/Ids.hpp"
#include "import/chrome_json/TraceLoader.hpp"

namespace marey::test {

// Loads 'json' as a trace; the test fails when nothing loads.
std::unique_ptr<TraceModel> LoadJson(const std::string& json, unsigned threads = 1,
                                     uint64_t chunkBytes = 4 << 20, uint64_t runBytes = 256 << 10);
std::unique_ptr<TraceModel> LoadJson(const std::string& json, const LoadOptions& options);

// Every process, track, row, slice, instant, counter sample and flow as text, in order, with
// names resolved: two loads of the same events give the same dump.
std::string DumpModel(const TraceModel& model);

// What 'write' writes to a FILE, as a string: a generator's output kept in memory.
std::string WrittenText(const std::function<void(std::FILE*)>& write);

// The fixtures folder, or "" (and a message) when it is not there.
std::string FixturesDir();

// Runs a shell command and returns what it printed on standard output; 'status' gets pclose's
// status (0 when it exited with 0).
std::string RunCommand(const std::string& command, int* status);

// "xvfb-run -a -f AUTH -s '-screen 0 SCREEN' ": a prefix that runs a command under a fresh
// Xvfb. The authority file is this test process's own, so that xvfb-run makes no temporary
// folder: removing one can fail while other servers start and stop beside it, and xvfb-run then
// exits 5 in place of the command's own status.
std::string XvfbRun(const std::string& screen = "1920x1080x24");

// A fresh, empty folder under the temporary folder for one test process (ctest may run several
// at once): marey_<name>_<pid>.
std::filesystem::path TempDir(const std::string& name);

// Runs 'sql' on a database the test itself makes or copied: the path must lie in the temporary
// folder (profiler files, the fixtures included, are never written). The test fails on an error.
void ExecuteSql(const std::filesystem::path& path, const std::string& sql);

// Kept problem messages joined by '\n', each as "line:column: message".
std::string ProblemText(const TraceModel& model);

// A parser's problems, each as "line:column: message\n".
std::string ProblemsOf(const std::vector<ImportProblem>& problems);

// Rank ids from numbers, for the tests' short lists: Ranks({0, 1, 2}).
inline std::vector<RankId> Ranks(std::initializer_list<int> numbers) {
    std::vector<RankId> ids;
    for (const int number : numbers) ids.push_back(RankId(number));
    return ids;
}

}  // namespace marey::test

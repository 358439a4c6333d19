#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

namespace {

int g_startedTestCases = 0;

// ctest runs one test case per process, picked by name. A name that stops matching
// (doctest splits filters at commas, CMake splits lists at semicolons) would run nothing
// and still pass; counting what started lets main() refuse such a run.
struct StartedTestCaseCounter : doctest::IReporter {
    explicit StartedTestCaseCounter(const doctest::ContextOptions&) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void test_case_start(const doctest::TestCaseData&) override { ++g_startedTestCases; }
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override {}
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};

REGISTER_LISTENER("started_test_case_counter", 1, StartedTestCaseCounter);

bool PicksTestCasesByName(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument = argv[i];
        if (argument.starts_with("--test-case=") || argument.starts_with("-tc=")) return true;
    }
    return false;
}

// The tests run marey, whose index cache would otherwise land in the user's cache folder: each
// test process gives it a folder of its own, removed at the end.
struct TestCacheFolder {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("marey_test_cache_" + std::to_string(getpid()));
    TestCacheFolder() { setenv("XDG_CACHE_HOME", path.c_str(), 1); }
    ~TestCacheFolder() {
        std::error_code error;
        std::filesystem::remove_all(path, error);
    }
};

}  // namespace

int main(int argc, char** argv) {
    const TestCacheFolder cacheFolder;
    doctest::Context context(argc, argv);
    const int result = context.run();
    if (context.shouldExit()) return result;  // --help, --list-test-cases and the like
    if (result == 0 && g_startedTestCases == 0 && PicksTestCasesByName(argc, argv)) {
        std::fprintf(stderr, "no test case matches the name given; it ran nothing\n");
        return 1;
    }
    return result;
}

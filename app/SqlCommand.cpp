#include "SqlCommand.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <thread>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>

#include "SqlOutput.hpp"
#include "cache/IndexCache.hpp"
#include "import/Importer.hpp"
#include "core/Problem.hpp"
#include "loading/ClusterLoader.hpp"
#include "loading/RankLoader.hpp"
#include "sql/SqlSession.hpp"

namespace marey {
namespace {

void Usage() {
    std::fprintf(stderr,
                 "usage: marey sql PATH [QUERY] [--csv | --json] [--source text|db] [--no-cache]\n"
                 "       without QUERY, the statements are read from standard input\n");
}

// "--tsv" is an option mistyped; "-- a comment\nselect 1" is a query.
bool LooksLikeOption(const char* argument) {
    return argument[0] == '-' && argument[1] != '\0' &&
           std::strpbrk(argument, " \t\r\n") == nullptr;
}

// Runs 'sql', its error (if any) on standard error after 'where'. True when it ran.
bool RunAndSay(SqlSession& session, const std::string& sql, SqlResultSink& output,
               const char* where) {
    const Status ran = session.Run(sql, output);
    std::fflush(stdout);
    if (ran.ok()) return true;
    std::fprintf(stderr, "%s:%s\n", where, ran.message().c_str());
    return false;
}

// A person at a terminal: statements as they complete (sqlite3_complete), ".tables" and ".quit".
int Prompt(SqlSession& session, SqlResultSink& output) {
    std::string statement, line;
    bool allRan = true;
    std::fprintf(stderr, "Tables: ");
    for (const std::string& name : session.TableNames()) std::fprintf(stderr, "%s ", name.c_str());
    std::fprintf(stderr, "\nEnd each statement with ';'. .tables lists the tables, .quit ends.\n");
    while (true) {
        std::fputs(statement.empty() ? "marey> " : "  ...> ", stderr);
        if (!std::getline(std::cin, line)) break;
        if (statement.empty() && (line == ".quit" || line == ".exit")) break;
        if (statement.empty() && line == ".tables") {
            for (const std::string& name : session.TableNames()) std::printf("%s\n", name.c_str());
            continue;
        }
        statement += line + "\n";
        if (!sqlite3_complete(statement.c_str())) continue;
        allRan = RunAndSay(session, statement, output, "query") && allRan;
        statement.clear();
    }
    std::fputc('\n', stderr);
    return allRan ? 0 : 1;
}

// QUERY, else standard input: a script, or a prompt at a terminal.
int RunQueries(SqlSession& session, SqlResultSink& output, bool hasQuery,
               const std::string& query) {
    if (hasQuery) return RunAndSay(session, query, output, "query") ? 0 : 1;
    if (isatty(STDIN_FILENO)) return Prompt(session, output);
    const std::string script{std::istreambuf_iterator<char>(std::cin),
                             std::istreambuf_iterator<char>()};
    return RunAndSay(session, script, output, "<stdin>") ? 0 : 1;
}

}  // namespace

namespace {

// What was wrong with the source, said on standard error before the results so that a query's
// answer is never taken for the whole file's: the count and the first problem.
void NoteImportProblems(const std::string& path, size_t count, const std::string& first) {
    if (count == 0) return;
    std::fprintf(stderr,
                 "marey sql: note: %zu import problem%s in %s (the tables hold what could be "
                 "read; `marey stats` lists them); the first: %s\n",
                 count, count == 1 ? "" : "s", path.c_str(), first.c_str());
}

// The same for a loaded rank: its trace's problems, then its tables'.
void NoteImportProblems(const LoadedRank& rank) {
    const size_t traceProblems = rank.model ? rank.model->report.problemCount : 0;
    const size_t tableProblems = rank.analysis ? rank.analysis->problems.size() : 0;
    std::string first;
    if (traceProblems && !rank.model->report.problems.empty())
        first = FormatProblem(rank.model->Path(), rank.model->report.problems.front());
    else if (tableProblems)
        first = rank.analysis->problems.front();
    NoteImportProblems(rank.path, traceProblems + tableProblems, first);
}

}  // namespace

Result<LoadedRank> LoadSqlSource(const std::string& path, const LoadOptions& options) {
    // A rank folder brings its own tables (kernel, step, communication_op) as the rank views
    // read them; any other source only its timeline, which is not analysed.
    const auto importer = ChooseImporter(path, options.source);
    if (importer.ok() && (importer.value()->kind == SourceKind::kAscendText ||
                          importer.value()->kind == SourceKind::kAscendDatabase))
        return LoadRank(path, options);
    auto timeline = LoadRankTimeline(path, options);
    if (!timeline.ok()) return timeline.status();
    LoadedRank rank;
    rank.path = path;
    rank.model = std::move(timeline.value());
    return rank;
}

int RunSqlCommand(int argc, char** argv) {
    std::string path, query;
    bool hasQuery = false, noCache = false;
    SqlOutputFormat format = SqlOutputFormat::kTable;
    LoadOptions options;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--csv") == 0) {
            format = SqlOutputFormat::kCsv;
        } else if (std::strcmp(argv[i], "--json") == 0) {
            format = SqlOutputFormat::kJson;
        } else if (std::strcmp(argv[i], "--no-cache") == 0) {
            noCache = true;
        } else if (std::strcmp(argv[i], "--source") == 0 && i + 1 < argc) {
            const std::optional<RankSource> parsed = ParseRankSource(argv[++i]);
            if (!parsed) {
                std::fprintf(stderr, "marey sql: --source: expected text or db, got \"%s\"\n",
                             argv[i]);
                return 2;
            }
            options.source = *parsed;
        } else if (LooksLikeOption(argv[i])) {
            std::fprintf(stderr, "marey sql: unknown option \"%s\"\n", argv[i]);
            return 2;
        } else if (path.empty()) {
            path = argv[i];
        } else if (!hasQuery) {
            query = argv[i];
            hasQuery = true;
        } else {
            std::fprintf(stderr, "marey sql: unexpected argument \"%s\" (quote the query)\n",
                         argv[i]);
            return 2;
        }
    }
    if (path.empty()) return Usage(), 2;
    Result<IndexCacheOptions> cache = IndexCacheFromEnvironment(noCache);
    if (!cache.ok()) {
        std::fprintf(stderr, "marey sql: %s\n", cache.message().c_str());
        return 2;
    }
    options.cache = std::move(cache.value());
    const std::unique_ptr<SqlResultSink> output = MakeSqlOutput(format, stdout);
    const auto importer = ChooseImporter(path, options.source);
    if (importer.ok() && importer.value()->kind == SourceKind::kCluster) {
        auto cluster = LoadCluster(path, std::max(1u, std::thread::hardware_concurrency()));
        if (!cluster.ok()) {
            std::fprintf(stderr, "%s\n", cluster.message().c_str());
            return 1;
        }
        NoteImportProblems(
            path, cluster.value().problems.size(),
            cluster.value().problems.empty() ? "" : cluster.value().problems.front());
        auto session = SqlSession::OpenCluster(cluster.value());
        if (!session.ok()) {
            std::fprintf(stderr, "marey sql: %s\n", session.message().c_str());
            return 1;
        }
        return RunQueries(*session.value(), *output, hasQuery, query);
    }
    auto loaded = LoadSqlSource(path, options);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", loaded.message().c_str());
        return 1;
    }
    const LoadedRank rank = std::move(loaded.value());
    NoteImportProblems(rank);
    auto session = SqlSession::Open(rank.model.get(), rank.analysis.get());
    if (!session.ok()) {
        std::fprintf(stderr, "marey sql: %s\n", session.message().c_str());
        return 1;
    }
    return RunQueries(*session.value(), *output, hasQuery, query);
}

}  // namespace marey

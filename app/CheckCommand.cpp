#include "CheckCommand.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cluster/ClusterFolder.hpp"
#include "compare/CheckRules.hpp"
#include "compare/RegressionCheck.hpp"
#include "compare/RunDamage.hpp"
#include "loading/ClusterCheckLoader.hpp"
#include "loading/RankLoader.hpp"
#include "report/CheckHtml.hpp"
#include "report/CheckReport.hpp"
#include "report/ClusterCheckReport.hpp"

namespace marey {
namespace {

void Usage() {
    std::fprintf(
        stderr,
        "usage: marey check BASELINE CANDIDATE [--max RULE]... [--min-time DURATION]\n"
        "                   [--rules FILE] [--markdown FILE] [--html FILE] [--junit FILE] "
        "[--json] [--no-cache]\n"
        "                   [--allow-damaged]\n"
        "  BASELINE, CANDIDATE  traces, rank folders or kernel_details.csv files, or two\n"
        "                   cluster folders, compared rank by rank\n"
        "  --max RULE       step=3%%, phase:free=8%%, op:aclnnMatMul*=8%%, type:NAME=P%%,\n"
        "                   comm:NAME=P%%, input:step_interval=P%%, input:data_loader=P%%\n"
        "                   (defaults: step and phases 5%%, the rest 10%%)\n"
        "  --min-time D     operators and phases smaller per step are not checked (50us);\n"
        "                   default 1%% of the baseline's median step\n"
        "  --rules FILE     rules, one a line: 'max step=3%%', 'min-time 50us', # comments\n"
        "  --markdown FILE  write a pull-request comment\n"
        "  --html FILE      write one self-contained page: tables and plots\n"
        "  --junit FILE     write JUnit XML: a test case per kind of figure, for CI systems\n"
        "  --json           print the result as JSON instead of lines\n"
        "  --no-cache       parse the traces, neither reading nor writing the index cache\n"
        "  --allow-damaged  compare a damaged input (truncated, over 1%% of its events import\n"
        "                   problems, steps cut) instead of refusing it; the check then fails\n"
        "exit status: 0 nothing regressed, 1 something did (or an input is damaged, with\n"
        "--allow-damaged), 2 an error or a damaged input\n");
}

int Fail(const std::string& message) {
    std::fprintf(stderr, "marey check: %s\n", message.c_str());
    return 2;
}

// The rules file's text, or why it cannot be read: a folder opens as a file on Linux and reads
// as nothing, which would check with the default rules.
std::string ReadRulesFile(const std::string& path, std::string* text) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) return path + ": a folder, not a rules file";
    std::ifstream in(path, std::ios::binary);
    if (!in) return path + ": cannot read the rules file";
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) return path + ": cannot read the rules file";
    *text = buffer.str();
    return {};
}

struct CheckArguments {
    std::string baseline, candidate, markdownPath, htmlPath, junitPath;
    bool json = false;
    bool noCache = false;
    bool allowDamaged = false;
    CheckRules rules = CheckRules::Defaults();
};

// Reads the command line into 'args'; an error message, or empty. Rules apply in the order given,
// so a --max after --rules wins over the file.
std::string ParseArguments(int argc, char** argv, CheckArguments& args) {
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--json") {
            args.json = true;
        } else if (arg == "--no-cache") {
            args.noCache = true;
        } else if (arg == "--allow-damaged") {
            args.allowDamaged = true;
        } else if (arg == "--max" && hasValue) {
            const std::string text = argv[++i];
            CheckRule rule;
            if (auto error = ParseMaxRule(text, &rule))
                return "--max \"" + text + "\": column " + std::to_string(error->column + 1) +
                       ": " + error->message;
            args.rules.rules.push_back(rule);
        } else if (arg == "--min-time" && hasValue) {
            TimeNs ns = 0;
            if (auto error = ParseCheckDuration(argv[++i], &ns))
                return "--min-time: " + error->message;
            args.rules.minTimeNs = ns;
        } else if (arg == "--rules" && hasValue) {
            const std::string path = argv[++i];
            std::string text;
            if (std::string error = ReadRulesFile(path, &text); !error.empty()) return error;
            const Status status = ParseRulesText(text, path, &args.rules);
            if (!status.ok()) return status.message();
        } else if (arg == "--markdown" && hasValue) {
            args.markdownPath = argv[++i];
        } else if (arg == "--html" && hasValue) {
            args.htmlPath = argv[++i];
        } else if (arg == "--junit" && hasValue) {
            args.junitPath = argv[++i];
        } else if (!arg.empty() && arg[0] != '-' && args.baseline.empty()) {
            args.baseline = arg;
        } else if (!arg.empty() && arg[0] != '-' && args.candidate.empty()) {
            args.candidate = arg;
        } else if (arg == "--max" || arg == "--min-time" || arg == "--rules" ||
                   arg == "--markdown" || arg == "--html" || arg == "--junit") {
            return arg + ": expected a value after it";
        } else if (!arg.empty() && arg[0] == '-') {
            return "unknown option \"" + arg + "\"";
        } else {
            return "unexpected argument \"" + arg + "\"";
        }
    }
    return {};
}

// A report path that names an input: writing the report would destroy the run it is about.
std::string ReportOverInput(const CheckArguments& args) {
    const std::pair<const std::string&, const char*> reports[] = {
        {args.markdownPath, "--markdown"}, {args.htmlPath, "--html"}, {args.junitPath, "--junit"}};
    const std::pair<const std::string&, const char*> inputs[] = {{args.baseline, "baseline"},
                                                                 {args.candidate, "candidate"}};
    for (const auto& [report, flag] : reports) {
        if (report.empty()) continue;
        for (const auto& [input, side] : inputs) {
            std::error_code error;
            if (report == input || std::filesystem::equivalent(report, input, error))
                return std::string(flag) + " " + report + ": that is the " + side +
                       "; a report is never written over an input";
        }
    }
    return {};
}

// The reports of one check, written and printed the same way for two runs and two clusters.
struct CheckReports {
    std::string markdown, html, junit, printed;
    bool failed = false;
};

// Each report of 'result' that the command line asks for.
template <typename Result>
CheckReports MakeReports(const CheckArguments& args, const Result& result,
                         std::string (*markdown)(const Result&), std::string (*html)(const Result&),
                         std::string (*junit)(const Result&), std::string (*json)(const Result&),
                         std::string (*text)(const Result&)) {
    CheckReports reports;
    if (!args.markdownPath.empty()) reports.markdown = markdown(result);
    if (!args.htmlPath.empty()) reports.html = html(result);
    if (!args.junitPath.empty()) reports.junit = junit(result);
    reports.printed = args.json ? json(result) : text(result);
    reports.failed = result.Failed();
    return reports;
}

// Writes the reports asked for and prints the lines; main's exit status.
int WriteReports(const CheckArguments& args, const CheckReports& reports) {
    const struct {
        const std::string& path;
        const std::string& text;
        const char* what;
    } files[] = {{args.markdownPath, reports.markdown, "Markdown"},
                 {args.htmlPath, reports.html, "HTML"},
                 {args.junitPath, reports.junit, "JUnit"}};
    for (const auto& file : files) {
        if (file.path.empty()) continue;
        std::ofstream out(file.path, std::ios::binary);
        out << file.text;
        // The bytes reach the file when it is closed (a full disk fails only then).
        out.close();
        if (!out)
            return Fail(file.path + ": cannot write the " + file.what +
                        " report: " + std::strerror(errno));
    }
    std::fwrite(reports.printed.data(), 1, reports.printed.size(), stdout);
    return reports.failed ? 1 : 0;
}

int CheckClusters(const CheckArguments& args, const LoadOptions& load) {
    const Result<ClusterCheckResult> result =
        CheckClusterFolders(args.baseline, args.candidate, args.rules, load);
    if (!result.ok()) return Fail(result.message());
    return WriteReports(
        args, MakeReports(args, result.value(), ClusterCheckToMarkdown, ClusterCheckToHtml,
                          ClusterCheckToJunit, ClusterCheckToJson, ClusterCheckToText));
}

}  // namespace

int RunCheckCommand(int argc, char** argv) {
    CheckArguments args;
    const std::string error = ParseArguments(argc, argv, args);
    // A rules file's mistake is already FILE:LINE:COLUMN: error: …, as a compiler writes it.
    if (!error.empty())
        return error.find(": error: ") != std::string::npos
                   ? (std::fprintf(stderr, "%s\n", error.c_str()), 2)
                   : Fail(error);
    if (args.baseline.empty() || args.candidate.empty()) return Usage(), 2;
    if (std::string overInput = ReportOverInput(args); !overInput.empty()) return Fail(overInput);
    Result<IndexCacheOptions> cache = IndexCacheFromEnvironment(args.noCache);
    if (!cache.ok()) return Fail(cache.message());
    LoadOptions load;
    load.cache = std::move(cache.value());
    const bool clusterA = IsClusterPath(args.baseline);
    const bool clusterB = IsClusterPath(args.candidate);
    if (clusterA && clusterB) return CheckClusters(args, load);
    if (clusterA || clusterB)
        return Fail((clusterA ? args.baseline : args.candidate) +
                    ": a cluster folder, and the other side is not: check compares two runs or "
                    "two clusters rank by rank");
    LoadedPair pair = LoadRankPair(args.baseline, args.candidate, load);
    for (const Result<LoadedRank>* side : {&pair.a, &pair.b})
        if (!side->ok()) return Fail(side->message());
    std::vector<std::string> damage;
    for (const Result<LoadedRank>* side : {&pair.a, &pair.b})
        for (std::string& line : FindRunDamage(side->value())) damage.push_back(std::move(line));
    if (!damage.empty() && !args.allowDamaged) {
        std::string message = "damaged input, no verdict:";
        for (const std::string& line : damage) message += "\n  " + line;
        return Fail(message + "\n(--allow-damaged compares what was loaded; the check then fails)");
    }
    const bool withPath = args.rules.Names(CheckKind::kCriticalPath);
    Result<CheckResult> result = CheckSides(MakeCheckSide(pair.a.value(), withPath),
                                            MakeCheckSide(pair.b.value(), withPath), args.rules);
    if (!result.ok()) return Fail(result.message());
    result.value().damage = std::move(damage);
    return WriteReports(args, MakeReports(args, result.value(), CheckToMarkdown, CheckToHtml,
                                          CheckToJunit, CheckToJson, CheckToText));
}

}  // namespace marey

#include "cluster/ClusterRankFile.hpp"

#include <simdjson.h>

#include <cmath>
#include <cstdint>
#include <filesystem>

#include "load/ParallelMetadata.hpp"
#include "load/RankDirectory.hpp"
#include "report/DataPreparationJson.hpp"
#include "report/JsonWriter.hpp"
#include "report/OverviewJson.hpp"

namespace marey {
namespace {

constexpr int64_t kFormatVersion = 1;

void AppendArrayOfStrings(std::string& out, const std::vector<std::string>& items) {
    JsonArray(out, items,
              [](std::string& text, const std::string& item) { AppendJsonString(text, item); });
}

// Reads the fields of one summary; each failure names where it is.
class SummaryReader {
public:
    explicit SummaryReader(const std::string& name) : m_name(name) {}

    Status Read(simdjson::dom::element root, ClusterRank& rank) {
        int64_t version = 0;
        if (root["tracelens_rank_summary"].get(version) || version != kFormatVersion)
            return Fail("", "no \"tracelens_rank_summary\": " + std::to_string(kFormatVersion) +
                                " key: not a rank summary of this version");
        int64_t id = -1;
        if (root["rank"].get(id) || id < -1 || id > kMaxRankId)
            return Fail("rank", "expected a rank id from 0 to " + std::to_string(kMaxRankId) +
                                    ", or -1 for none");
        if (id >= 0) rank.rankId = RankId(static_cast<int>(id));
        Text(root, "path", rank.path), Text(root, "rank_source", rank.rankSource),
            Text(root, "profiler_level", rank.profilerLevel);
        ResolvePath(root, rank.path);
        int64_t worldSize = 0;
        if (!root["world_size"].get(worldSize) && (worldSize < 1 || worldSize > 1 << 24))
            return Fail("world_size", "expected a rank count from 1 to 16777216");
        rank.worldSize = static_cast<int>(worldSize);
        simdjson::dom::array array;
        if (!root["phases"].get(array))
            for (auto phase : array) {
                std::string_view key;
                if (phase.get(key)) return Fail("phases", "expected strings");
                for (int p = 0; p < kStepPhaseCount; ++p)
                    if (key == kStepPhaseJsonKeys[p]) rank.hasPhase[p] = true;
            }
        if (Status s = Rows(root, "steps", kStepPhaseCount + 1,
                            [&](simdjson::dom::array row) {
                                StepRow step;
                                auto it = row.begin();
                                if (!String(*it, step.step)) return false;
                                for (int p = 0; p < kStepPhaseCount; ++p)
                                    if (!Duration(*++it, step.ns[p])) return false;
                                rank.steps.push_back(std::move(step));
                                return true;
                            });
            !s.ok())
            return s;
        simdjson::dom::object overview;
        if (!root["overview"].get(overview)) {
            OverviewFigures& f = rank.overview;
            Int(overview["computing_ns"], f.computingNs),
                Int(overview["pure_computing_ns"], f.pureComputingNs);
            Int(overview["communication_overlapped_ns"], f.commOverlappedNs);
            Int(overview["communication_not_overlapped_ns"], f.commNotOverlappedNs);
            Int(overview["free_ns"], f.freeNs), Int(overview["total_ns"], f.totalNs);
            Text(overview, "source", f.source);
            std::string rule;
            Text(overview, "rule", rule);  // absent in summaries of earlier versions: kNone
            f.rule = OverviewRuleOfKey(rule);
            for (const int64_t ns : {f.computingNs, f.pureComputingNs, f.commOverlappedNs,
                                     f.commNotOverlappedNs, f.freeNs, f.totalNs})
                if (ns < 0)
                    return Fail("overview",
                                "expected durations of 0 or more, got " + std::to_string(ns));
            f.valid = f.totalNs > 0;
        }
        if (!root["names"].get(array))
            for (auto item : array) {
                std::string name;
                if (!String(item, name)) return Fail("names", "expected strings");
                rank.names.push_back(std::move(name));
            }
        if (Status status = ReadCollectivesLinksAndTypes(root, rank); !status.ok()) return status;
        if (!root["problems"].get(array))
            for (auto item : array) {
                std::string problem;
                if (String(item, problem)) rank.problems.push_back(std::move(problem));
            }
        return Status();
    }

private:
    // The rows that point into 'names': collectives and links; and the operator types.
    Status ReadCollectivesLinksAndTypes(simdjson::dom::element root, ClusterRank& rank) {
        const auto nameIndex = [&](simdjson::dom::element e, uint32_t& index) {
            int64_t value = 0;
            if (!Int(e, value) || value < 0 || static_cast<uint64_t>(value) >= rank.names.size())
                return false;
            index = static_cast<uint32_t>(value);
            return true;
        };
        if (Status s = Rows(root, "collectives", 10,
                            [&](simdjson::dom::array row) {
                                RankCollective c;
                                auto it = row.begin();
                                int64_t p2p = 0;
                                const bool ok =
                                    String(*it, c.step) && nameIndex(*++it, c.name) &&
                                    nameIndex(*++it, c.group) && Int(*++it, p2p) &&
                                    Int(*++it, c.startNs) && Duration(*++it, c.elapseNs) &&
                                    Duration(*++it, c.transitNs) && Duration(*++it, c.waitNs) &&
                                    Duration(*++it, c.syncNs) && Duration(*++it, c.idleNs);
                                c.p2p = p2p != 0;
                                rank.collectives.push_back(std::move(c));
                                return ok;
                            });
            !s.ok())
            return s;
        if (Status s = Rows(root, "links", 8,
                            [&](simdjson::dom::array row) {
                                RankLink l;
                                auto it = row.begin();
                                int64_t src = 0, dst = 0, count = 0;
                                const bool ok =
                                    nameIndex(*it, l.op) && nameIndex(*++it, l.group) &&
                                    ReadRankId(*++it, src) && ReadRankId(*++it, dst) &&
                                    String(*++it, l.transport) && Real(*++it, l.transitSizeMb) &&
                                    l.transitSizeMb >= 0 && Duration(*++it, l.transitNs) &&
                                    Duration(*++it, count) && count <= UINT32_MAX;
                                l.srcRank = static_cast<int>(src),
                                l.dstRank = static_cast<int>(dst),
                                l.count = static_cast<uint32_t>(count);
                                rank.links.push_back(std::move(l));
                                return ok;
                            });
            !s.ok())
            return s;
        if (Status s = Rows(root, "operator_types", 3,
                            [&](simdjson::dom::array row) {
                                RankOperatorType t;
                                auto it = row.begin();
                                int64_t count = 0;
                                const bool ok = String(*it, t.type) && Duration(*++it, count) &&
                                                Duration(*++it, t.totalNs);
                                t.count = static_cast<uint64_t>(count);
                                rank.operatorTypes.push_back(std::move(t));
                                return ok;
                            });
            !s.ok())
            return s;
        if (Status s = ReadDataVerdict(root, rank.dataVerdict); !s.ok()) return s;
        if (Status s = ReadParallel(root, rank); !s.ok()) return s;
        if (Status s = ReadPeakMemory(root, rank); !s.ok()) return s;
        return ReadFlops(root, rank);
    }

    // "peak_memory", when present: its bytes, a count up to a pebibyte, and its source.
    Status ReadPeakMemory(simdjson::dom::element root, ClusterRank& rank) const {
        simdjson::dom::object peak;
        if (root["peak_memory"].get(peak)) return Status();
        int64_t bytes = 0;
        std::string source;
        if (!Int(peak["bytes"], bytes) || bytes < 0 || bytes > kMaxPeakMemoryBytes ||
            !String(peak["source"], source) || source.empty())
            return Fail("peak_memory",
                        "expected its bytes (from 0 to 2^50) and the file they came from");
        rank.peakMemory.bytes = bytes;
        rank.peakMemory.source = std::move(source);
        return Status();
    }

    // "parallel", when present: the rank's parallel job, read as its profiler_metadata.json is;
    // a damaged value in it is named among the rank's problems and left out, the rank kept
    // (absent: its files said nothing).
    Status ReadParallel(simdjson::dom::element root, ClusterRank& rank) const {
        simdjson::dom::element parallel;
        if (root["parallel"].get(parallel)) return Status();
        std::vector<std::string> problems;
        rank.parallel =
            ReadParallelInfoJson(simdjson::minify(parallel), m_name + " \"parallel\"", problems);
        rank.problems.insert(rank.problems.end(), problems.begin(), problems.end());
        return Status();
    }

    // "flops", when present: its source and each figure a finite number from 0 up (absent:
    // unknown).
    Status ReadFlops(simdjson::dom::element root, ClusterRank& rank) const {
        simdjson::dom::object flops;
        if (root["flops"].get(flops)) return Status();
        FlopsSummary summary;
        const struct {
            const char* key;
            double* out;
            double most;
        } figures[] = {
            {"mflops", &summary.mflops, kMaxMflops},
            {"gflops_per_s", &summary.gflopsPerS, kMaxGflopsPerS},
            {"utilization_percent", &summary.utilizationPercent, kMaxUtilizationPercent}};
        bool ok = String(flops["source"], rank.flopsSource) && !rank.flopsSource.empty();
        for (const auto& [key, out, most] : figures) {
            simdjson::dom::element value;
            if (!ok || flops[key].get(value)) continue;
            ok = Real(value, *out) && *out >= 0 && *out <= most;
        }
        if (!ok) {
            rank.flopsSource.clear();
            return Fail("flops",
                        "expected its source and figures in their ranges (FlopsFiles.hpp)");
        }
        rank.flops = summary;
        return Status();
    }

    // "data_verdict", when present: a known kind, step counts from 0 with the empty ones among
    // them.
    Status ReadDataVerdict(simdjson::dom::element root, DataVerdict& verdict) const {
        simdjson::dom::object data;
        if (root["data_verdict"].get(data)) return Status();  // absent: no queue record
        std::string key;
        int64_t counts[4] = {};
        const char* names[] = {"device_queue_steps", "empty_device_queue_steps", "host_queue_steps",
                               "empty_host_queue_steps"};
        bool ok = String(data["kind"], key) && DataVerdictFromKey(key, &verdict.kind) &&
                  String(data["text"], verdict.text);
        for (int i = 0; i < 4 && ok; ++i)
            ok = Int(data[names[i]], counts[i]) && counts[i] >= 0 && counts[i] <= 1 << 30;
        if (!ok || counts[1] > counts[0] || counts[3] > counts[2]) {
            verdict = DataVerdict{};
            return Fail("data_verdict",
                        "expected a kind of the documented ones, its text, and step counts with "
                        "the empty steps among them");
        }
        verdict.deviceSteps = static_cast<int>(counts[0]);
        verdict.emptyDeviceSteps = static_cast<int>(counts[1]);
        verdict.hostSteps = static_cast<int>(counts[2]);
        verdict.emptyHostSteps = static_cast<int>(counts[3]);
        // The kind is made from the counts: one that contradicts them was not written so.
        if (const DataVerdictKind made = VerdictKindOf(verdict); made != verdict.kind) {
            verdict = DataVerdict{};
            return Fail("data_verdict", "its kind \"" + key +
                                            "\" is not the one its step counts give (\"" +
                                            DataVerdictKey(made) + "\")");
        }
        return Status();
    }

    // A relative path is relative to the summary file's folder (summarize writes it so); when
    // nothing is there, the absolute path written beside it.
    void ResolvePath(simdjson::dom::element root, std::string& path) const {
        namespace fs = std::filesystem;
        if (path.empty() || fs::path(path).is_absolute()) return;
        const fs::path beside = (fs::path(m_name).parent_path() / path).lexically_normal();
        std::string absolute;
        Text(root, "absolute_path", absolute);
        std::error_code error;
        // Neither there (a summary made on another machine): the absolute path names best where
        // the files were.
        path = !fs::exists(beside, error) && !absolute.empty() ? absolute : beside.string();
    }
    Status Fail(const std::string& where, const std::string& what) const {
        return Status::Error(m_name + ": error: " + (where.empty() ? "" : "\"" + where + "\": ") +
                             what);
    }
    using Element = simdjson::simdjson_result<simdjson::dom::element>;
    static bool String(Element e, std::string& out) {
        std::string_view text;
        if (e.get(text)) return false;
        out = std::string(text);
        return true;
    }
    template <typename Object>
    static void Text(Object object, const char* key, std::string& out) {
        String(object[key], out);
    }
    static bool String(simdjson::dom::element e, std::string& out) {
        return String(Element(std::move(e)), out);
    }
    static bool Int(Element e, int64_t& out) { return !e.get(out); }
    static bool Int(simdjson::dom::element e, int64_t& out) { return !e.get(out); }
    // A duration or a count: never negative (a negative one is damage, not data).
    static bool Duration(simdjson::dom::element e, int64_t& out) { return !e.get(out) && out >= 0; }
    static bool ReadRankId(simdjson::dom::element e, int64_t& out) {
        return !e.get(out) && out >= 0 && out <= 1 << 24;
    }
    static bool Real(simdjson::dom::element e, double& out) {
        if (!e.get(out)) return std::isfinite(out);
        int64_t whole = 0;
        if (e.get(whole)) return false;
        out = static_cast<double>(whole);
        return true;
    }
    // Each row of the array 'key' must be an array of 'width' values read by 'read'.
    template <typename Read>
    Status Rows(simdjson::dom::element root, const char* key, size_t width, const Read& read) {
        simdjson::dom::array rows;
        if (root[key].get(rows)) return Status();  // absent: nothing of that kind
        size_t index = 0;
        for (auto item : rows) {
            simdjson::dom::array row;
            if (item.get(row) || row.size() != width || !read(row))
                return Fail(std::string(key) + "[" + std::to_string(index) + "]",
                            "expected an array of " + std::to_string(width) +
                                " values of the documented types");
            ++index;
        }
        return Status();
    }

    const std::string& m_name;
};

}  // namespace

std::string RankSummaryFileName(int rankId) {
    return "rank_summary_" + std::to_string(rankId) + ".json";
}

bool IsRankSummaryFileName(const std::string& fileName) {
    const std::string prefix = "rank_summary_", suffix = ".json";
    if (fileName.size() <= prefix.size() + suffix.size() ||
        fileName.compare(0, prefix.size(), prefix) != 0 ||
        fileName.compare(fileName.size() - suffix.size(), suffix.size(), suffix) != 0)
        return false;
    for (size_t i = prefix.size(); i < fileName.size() - suffix.size(); ++i)
        if (fileName[i] < '0' || fileName[i] > '9') return false;
    return true;
}

std::string WriteRankSummary(const ClusterRank& rank, const std::string& absolutePath,
                             const std::string& input) {
    std::string out;
    {
        JsonObject root(out);
        root.Int("tracelens_rank_summary", kFormatVersion);
        root.Int("rank", ValueOr(rank.rankId, -1));  // the format's "none"
        root.String("path", rank.path);
        if (!absolutePath.empty()) root.String("absolute_path", absolutePath);
        if (!input.empty()) root.String("input", input);
        root.String("rank_source", rank.rankSource);
        root.String("profiler_level", rank.profilerLevel);
        if (rank.worldSize > 0) root.Int("world_size", rank.worldSize);
        std::vector<std::string> phases;
        for (int p = 0; p < kStepPhaseCount; ++p)
            if (rank.hasPhase[p]) phases.push_back(kStepPhaseJsonKeys[p]);
        AppendArrayOfStrings(root.Key("phases"), phases);
        std::string& steps = root.Key("steps");
        steps += '[';
        for (size_t i = 0; i < rank.steps.size(); ++i) {
            steps += i ? ",\n [" : "\n [";
            AppendJsonString(steps, rank.steps[i].step);
            for (const TimeNs ns : rank.steps[i].ns) steps += ", " + std::to_string(ns);
            steps += ']';
        }
        steps += ']';
        {
            JsonObject overview(root.Key("overview"));
            WriteOverviewFigures(overview, rank.overview);
            overview.String("source", rank.overview.source);
            overview.String("rule", OverviewRuleKey(rank.overview.rule));
        }
        AppendArrayOfStrings(root.Key("names"), rank.names);
        std::string& collectives = root.Key("collectives");
        collectives += '[';
        for (size_t i = 0; i < rank.collectives.size(); ++i) {
            const RankCollective& c = rank.collectives[i];
            collectives += i ? ",\n [" : "\n [";
            AppendJsonString(collectives, c.step);
            for (const int64_t value :
                 {int64_t{c.name}, int64_t{c.group}, int64_t{c.p2p}, c.startNs, c.elapseNs,
                  c.transitNs, c.waitNs, c.syncNs, c.idleNs})
                collectives += ", " + std::to_string(value);
            collectives += ']';
        }
        collectives += ']';
        std::string& links = root.Key("links");
        links += '[';
        for (size_t i = 0; i < rank.links.size(); ++i) {
            const RankLink& l = rank.links[i];
            links += (i ? ",\n [" : "\n [") + std::to_string(l.op) + ", " +
                     std::to_string(l.group) + ", " + std::to_string(l.srcRank) + ", " +
                     std::to_string(l.dstRank) + ", ";
            AppendJsonString(links, l.transport);
            links += ", " + JsonExactNumber(l.transitSizeMb) + ", " + std::to_string(l.transitNs) +
                     ", " + std::to_string(l.count) + "]";
        }
        links += ']';
        std::string& types = root.Key("operator_types");
        types += '[';
        for (size_t i = 0; i < rank.operatorTypes.size(); ++i) {
            const RankOperatorType& t = rank.operatorTypes[i];
            types += i ? ",\n [" : "\n [";
            AppendJsonString(types, t.type);
            types += ", " + std::to_string(t.count) + ", " + std::to_string(t.totalNs) + "]";
        }
        types += ']';
        if (rank.dataVerdict.kind != DataVerdictKind::kNoRecord) {
            JsonObject data(root.Key("data_verdict"));
            WriteDataVerdict(data, rank.dataVerdict);
        }
        if (!rank.parallel.Empty()) root.Key("parallel") += ParallelInfoJson(rank.parallel);
        if (rank.peakMemory.bytes >= 0) {
            JsonObject peak(root.Key("peak_memory"));
            peak.Int("bytes", rank.peakMemory.bytes);
            peak.String("source", rank.peakMemory.source);
        }
        if (!rank.flopsSource.empty()) {
            JsonObject flops(root.Key("flops"));
            flops.String("source", rank.flopsSource);
            const std::pair<const char*, double> figures[] = {
                {"mflops", rank.flops.mflops},
                {"gflops_per_s", rank.flops.gflopsPerS},
                {"utilization_percent", rank.flops.utilizationPercent}};
            for (const auto& [key, value] : figures)
                if (value >= 0) flops.ExactReal(key, value);
        }
        AppendArrayOfStrings(root.Key("problems"), rank.problems);
    }
    out += '\n';
    return out;
}

Result<ClusterRank> ReadRankSummary(std::string_view paddedText, const std::string& name,
                                    std::string* input) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (auto error = parser.parse(paddedText.data(), paddedText.size(), false).get(root))
        return Status::Error(name + ": error: not JSON: " + simdjson::error_message(error));
    ClusterRank rank;
    SummaryReader reader(name);
    if (Status status = reader.Read(root, rank); !status.ok()) return status;
    if (input) {
        std::string_view text;
        *input = root["input"].get(text) ? std::string() : std::string(text);
    }
    return rank;
}

}  // namespace marey

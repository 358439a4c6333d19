#pragma once
// One importer per format: what a path a person gives is, how sure each reader is that it can
// read it, and how it reads it. The registry (Importers.cpp) lists the importers, one line each,
// as the view registry lists the views; nothing else decides which reader reads a path (a text
// export or a database, a trace or a cluster). docs/development.md, "Adding a format", says how to
// add one.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/LoadProgress.hpp"
#include "core/Status.hpp"
#include "import/chrome_json/TraceLoader.hpp"
#include "load/EventDetails.hpp"
#include "model/TraceModel.hpp"
#include "rank/LoadedRank.hpp"

namespace marey {

enum class SourceKind : uint8_t {
    kCluster,         // several ranks: a folder of rank folders or traces, a cluster summary,
                      // msprof-analyze's or MindInsight's output (loading/ClusterLoader reads it)
    kAscendDatabase,  // an Ascend rank's profiler database (a .db, or a rank folder holding one)
    kAscendText,      // an Ascend rank folder's text export, or one of its files
    kChromeJson,      // a Chrome Trace Event / Kineto JSON trace (.json, .json.gz)
    kKernelCsv,       // a kernel_details.csv on its own
    kNsysExport,      // an Nsight Systems SQLite export (.sqlite)
};

// How sure an importer is that it reads a path: 0 it cannot (why says why not), 100 it is
// certainly its format; in between, it can but another may be a better reader.
struct ProbeAnswer {
    int confidence = 0;
    std::string why;
};

struct Importer {
    SourceKind kind;
    const char* name;  // for people: "Ascend profiler database"
    // What the refs of the models it loads point into (the details of a selected row).
    SourceFormat format;
    // Looks at 'path' (names, folders, a file's first bytes; never a whole file).
    ProbeAnswer (*probe)(const std::string& path, RankSource preference);
    // A rank: its timeline and its tables, with progress and Cancel. Null for kCluster.
    Result<LoadedRank> (*loadRank)(const std::string& path, const LoadOptions& options,
                                   LoadProgress* progress);
    // Only its timeline (several ranks in one timeline). Null for kCluster.
    Result<std::unique_ptr<TraceModel>> (*loadTimeline)(const std::string& path,
                                                        const LoadOptions& options,
                                                        LoadProgress* progress);
    // Everything a row of one of its models says, read when a person selects its slice.
    EventDetails (*rowDetails)(const TraceSource& source, uint64_t ref);
};

// Every importer, in the order that settles a tie of confidence.
const std::vector<Importer>& Importers();

// The importer that reads 'path' with the most confidence (kCluster only when 'clusters').
// Fails, naming the path, only when a preference (--source) cannot be met; any other path has a
// reader that says what is wrong with it (the Chrome JSON importer reads what no other does).
Result<const Importer*> ChooseImporter(const std::string& path,
                                       RankSource preference = RankSource::kAuto,
                                       bool clusters = true);

// The details of row 'ref' of 'source', by the importer of its format. O(that row).
EventDetails ReadRowDetails(const TraceSource& source, uint64_t ref);

}  // namespace marey

#include "load/TracePath.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

namespace marey {

Result<std::string> ResolveTraceFile(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    if (!fs::is_directory(path, error)) return path;
    // A rank folder without trace_view.json still has a timeline in kernel_details.csv.
    for (const char* candidate :
         {"ASCEND_PROFILER_OUTPUT/trace_view.json", "trace_view.json",
          "ASCEND_PROFILER_OUTPUT/kernel_details.csv", "kernel_details.csv"}) {
        const fs::path file = fs::path(path) / candidate;
        if (fs::is_regular_file(file, error)) return file.string();
    }
    std::vector<std::string> traces;
    for (fs::directory_iterator it(path, fs::directory_options::skip_permission_denied, error), end;
         !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        const bool json = name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
        const bool gz = name.size() > 8 && name.compare(name.size() - 8, 8, ".json.gz") == 0;
        // The profiler's other JSON files are not traces.
        const bool profilerFile =
            name.rfind("communication", 0) == 0 || name.rfind("profiler_", 0) == 0;
        if ((json || gz) && !profilerFile && it->is_regular_file(error))
            traces.push_back(it->path().string());
    }
    if (error) return Status::Error(path + ": error: cannot list the folder: " + error.message());
    const fs::path output = fs::path(path) / "ASCEND_PROFILER_OUTPUT";
    for (fs::directory_iterator it(fs::is_directory(output, error) ? output : fs::path(path),
                                   fs::directory_options::skip_permission_denied, error),
         end;
         traces.empty() && !error && it != end; it.increment(error)) {
        if (it->path().extension() != ".db") continue;
        // A readable profiler database opens with its own importer before this: what is left
        // is a database of another name, or something that is not a file under a database's.
        std::error_code kind;
        if (!fs::is_regular_file(it->path(), kind)) {
            const bool dangling = fs::is_symlink(fs::symlink_status(it->path(), kind)) &&
                                  !fs::exists(it->path(), kind);
            return Status::Error(it->path().string() + ": error: " +
                                 (dangling                             ? "a link to nothing"
                                  : fs::is_directory(it->path(), kind) ? "a folder"
                                  : fs::is_fifo(it->path(), kind)      ? "a pipe"
                                                                       : "not a regular file") +
                                 ", not a file; not read (and no trace is in " + path + ")");
        }
        const std::string name = it->path().filename().string();
        if (name.rfind("ascend_", 0) == 0 || name.rfind("msprof_", 0) == 0)
            return Status::Error(path +
                                 ": error: no trace in this folder, only its profiler "
                                 "database (" +
                                 name + "): open the folder itself, without --source text");
        return Status::Error(path + ": error: no trace in this folder, and " + name +
                             " is not a profiler database by its name "
                             "(ascend_pytorch_profiler_N.db, ascend_mindspore_profiler_N.db, "
                             "msprof_*.db)");
    }
    error.clear();
    if (traces.empty())
        return Status::Error(
            path +
            ": error: no trace in this folder (looked for ASCEND_PROFILER_OUTPUT/trace_view.json, "
            "trace_view.json, kernel_details.csv and *.json)");
    std::sort(traces.begin(), traces.end());
    return traces.front();
}

}  // namespace marey

#pragma once
// Loads an Nsight Systems export into the model, so that every view and analysis reads it as it
// reads a PyTorch trace: one model for an export of one process; for an export of several
// processes that ran GPU work (a job under torchrun recorded in one file), one rank per process,
// merged into one timeline.
#include <memory>
#include <string>
#include <vector>

#include "core/LoadProgress.hpp"
#include "core/Status.hpp"
#include "import/chrome_json/TraceLoader.hpp"
#include "import/nsys/NsysExport.hpp"
#include "model/TraceModel.hpp"

namespace marey {

// A rank of an export: one of its processes that ran GPU work, and how its id was chosen.
struct NsysRank {
    NsysProcess process;
    int64_t rank = 0;
    std::string rankFrom;  // "its CUDA device", "its place among the processes"
};

// The export's processes that ran GPU work, as ranks: each rank id its CUDA device when every
// process ran on one device of its own, else its place in pid order.
std::vector<NsysRank> NsysRanks(const SqliteFile& db);

// Whether 'path' is an Nsight Systems export, by its name's extension and its tables (no table is
// scanned).
bool IsNsysExportFile(const std::string& path);

// Whether 'path' is an export of a job (two or more processes that ran GPU work): what opens in
// the cluster views when one is asked for. Reads the activity tables' process ids.
bool IsNsysJob(const std::string& path);

struct LoadedNsys {
    std::unique_ptr<TraceModel> model;
    std::vector<NsysRank> ranks;  // empty for an export of one process
    // "schema 3.25.0; not in this export: CUPTI_ACTIVITY_KIND_DRIVER (no CUDA driver calls)"
    std::string note;
};

// Fails only when 'path' cannot be opened as a SQLite database or is not an Nsight Systems
// export; everything else it meets is in model->report.problems, and the rest loads. With
// 'onlyRank', just that rank's process (a rank of a cluster). The model keeps the export open
// (its sources' 'database') for the details of a selected row.
Result<LoadedNsys> LoadNsysExport(const std::string& path, const LoadOptions& options = {},
                                  LoadProgress* progress = nullptr,
                                  std::optional<int64_t> onlyRank = std::nullopt);

// Rank 'rank' of an export whose ranks were listed already (NsysRanks): its process's rows only,
// without listing the processes again.
Result<LoadedNsys> LoadNsysRank(const std::string& path, const LoadOptions& options,
                                const NsysRank& rank);

}  // namespace marey

#pragma once
// An Ascend rank folder's text export (trace_view.json or kernel_details.csv, and the CSV and
// JSON files beside them), or one of its files: the timeline from the trace, the rank's tables
// from the folder.
#include "import/Importer.hpp"

namespace marey {

Importer AscendTextImporter();

// An importer of a trace or CSV file's kind: 'probe' its own, the loads and row details those of
// the text export above (LoadTraceRank, LoadTraceTimeline, the event at a slice's offset).
Importer TraceFileImporter(SourceKind kind, const char* name,
                           ProbeAnswer (*probe)(const std::string&, RankSource));

// The rank of a trace or CSV file, or of a rank folder's text export: its timeline (read by
// LoadTrace) and the analysis of the rank folder it belongs to, if any. What the Chrome JSON
// and kernel_details.csv importers load too. Fails when the timeline cannot be read, unless
// 'path' is a rank folder without any timeline file (its analysis still has value).
Result<LoadedRank> LoadTraceRank(const std::string& path, const LoadOptions& options,
                                 LoadProgress* progress);

// Only the timeline of a trace or CSV file (LoadTrace), as a loader of the registry.
Result<std::unique_ptr<TraceModel>> LoadTraceTimeline(const std::string& path,
                                                      const LoadOptions& options,
                                                      LoadProgress* progress);

}  // namespace marey

#pragma once
// Writes MindSpore's FLOPs files of one rank (load/FlopsFiles.hpp's formats): flops_N.txt with a
// few AI Core operators, flops_summary_N.json made from them by the profiler's rule, and
// flops_scope_N.json with their scopes.
#include <string>

namespace marey {

// MFLOPs of the generated rank's operators before 'scale'.
inline constexpr double kGeneratedMflops = 120000.0;

// Writes the three files into 'folder' for rank 'rank', every operator's FLOPs times 'scale' (a
// heavier pipeline stage: more than 1). Returns false with 'error' set when a file cannot be
// written.
bool WriteFlopsFiles(const std::string& folder, int rank, double scale, std::string* error);

}  // namespace marey

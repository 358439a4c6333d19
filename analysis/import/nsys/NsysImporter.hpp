#pragma once
// An Nsight Systems SQLite export (`nsys export --type sqlite`): its processes' CUDA calls and
// NVTX ranges, its GPUs' streams, read-only; an export of several GPU processes opens as several
// ranks in one timeline. docs/nsight-systems.md has the mapping.
#include "import/Importer.hpp"

namespace marey {

Importer NsysImporter();

}  // namespace marey

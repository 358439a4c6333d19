#pragma once
// An Ascend rank's profiler database (ascend_pytorch_profiler_N.db, ascend_mindspore_profiler_N.db,
// msprof_*.db, with analysis.db beside it), named or in its rank folder: the timeline and the rank
// tables the text export gives, read-only. docs/profiler-database.md has the mapping.
#include "import/Importer.hpp"

namespace marey {

Importer AscendDbImporter();

}  // namespace marey

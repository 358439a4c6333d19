#pragma once
// A kernel_details.csv on its own: one track per stream, the operator tables from its rows.
#include "import/Importer.hpp"

namespace marey {

Importer KernelCsvImporter();

}  // namespace marey

#pragma once
// A rank's data preparation (rank/DataPreparation.hpp) as the "data_preparation" object of
// `marey stats --json` (docs/stats-json.md) and as lines for a terminal.
#include <string>

#include "rank/DataPreparation.hpp"

namespace marey {

// The JSON object, or "null" for a null 'preparation'.
std::string DataPreparationToJson(const DataPreparation* preparation);

// "data preparation …" lines; empty for a null 'preparation'.
std::string DataPreparationToText(const DataPreparation* preparation);

}  // namespace marey

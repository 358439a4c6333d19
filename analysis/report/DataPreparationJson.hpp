#pragma once
// A rank's data preparation (rank/DataPreparation.hpp) as the "data_preparation" object of
// `marey stats --json` (docs/stats-json.md) and as lines for a terminal.
#include <string>

#include "rank/DataPreparation.hpp"
#include "report/JsonWriter.hpp"

namespace marey {

// The verdict's keys into 'object': "kind", the step counts it rests on and "text". The one
// writer of them (a rank's "data_preparation", a cluster rank's summary file).
void WriteDataVerdict(JsonObject& object, const DataVerdict& verdict);

// The JSON object, or "null" for a null 'preparation'.
std::string DataPreparationToJson(const DataPreparation* preparation);

// "data preparation …" lines; empty for a null 'preparation'.
std::string DataPreparationToText(const DataPreparation* preparation);

}  // namespace marey

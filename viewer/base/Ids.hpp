#pragma once
// The viewer's own ids, beside the analysis library's (core/Ids.hpp: rank, step, group).
#include <cstdint>

#include "core/Ids.hpp"

namespace marey {

// A document or cluster of the workspace, numbered from 1 and never reused within a run. Its
// timeline stamps the value on every slice it hands out (SliceRef::document).
using DocumentId = StrongId<struct DocumentIdTag, uint32_t>;

}  // namespace marey

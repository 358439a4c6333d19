#pragma once
// How many bytes a device copy or fill moved: Kineto writes it as args "bytes" of its
// gpu_memcpy and gpu_memset events. Read from the trace text at the event's offset, as
// EventFields reads its fields: the model keeps names and times only.
#include <cstdint>
#include <optional>

#include "load/TraceText.hpp"

namespace marey {

// The args "bytes" of the event object starting at byte 'offset' of 'text': a non-negative
// integer, written as a number or a string of digits. nullopt when absent, not such an integer,
// or the event is damaged before it. O(bytes of the event up to the key).
std::optional<uint64_t> ReadCopyBytes(const TraceText& text, uint64_t offset);

}  // namespace marey

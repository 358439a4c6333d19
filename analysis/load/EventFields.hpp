#pragma once
// The few fields of an event that the device analyses need, read straight from the trace text
// at the event's offset: the model keeps names and times only, and parsing every argument of
// millions of kernels would cost more than the analyses.
#include <cstdint>
#include <optional>
#include <string_view>

#include "load/TraceText.hpp"

namespace marey {

struct ActivityFields {
    std::string_view category;  // "cat", raw (escapes left as written); empty when absent
    std::string_view taskType;  // args "Task Type" (Ascend), raw
    // args "correlation" (Kineto) or "connection_id" (Ascend): what pairs a launch with its
    // activity. Only non-negative integers count; anything else leaves hasCorrelation false.
    int64_t correlation = 0;
    bool hasCorrelation = false;
};

// Reads the event object starting at byte 'offset' of 'text'. A malformed event gives what was
// read before the damage. O(size of the event).
ActivityFields ReadActivityFields(const TraceText& text, uint64_t offset);

// The correlation id among the keys of an "args" object's text, as ReadActivityFields reads it:
// the first "correlation" or "connection_id" that is an integer from 0 to 2^63 - 1 (written as a
// number or a string of digits). A value there that is not such an integer (negative, a
// fraction, past int64, text) is damage, never an id: 'damaged' then holds its text, when no
// valid id follows it. 'args' must lie inside padded trace text (the scan reads 16 bytes at a
// time). O(its size).
std::optional<int64_t> ReadCorrelationInArgs(std::string_view args,
                                             std::string_view* damaged = nullptr);

// What an Ascend event without a "cat" keeps in its "args": its "Task Type" (raw, as
// ReadActivityFields reads it; empty when absent) and its "connection_id" or "correlation" as
// ReadCorrelationInArgs reads it (with 'damaged' the same), except that -1, which Ascend's
// profiler writes for "none", is no id and no damage. 'args' must lie inside padded trace text.
// O(its size).
struct TaskArgs {
    std::string_view taskType;
    std::optional<int64_t> correlation;
    // A value there that is not an id, and its key, when no valid id follows it.
    std::string_view damaged, damagedKey;
};
TaskArgs ReadTaskArgs(std::string_view args);

// How many bytes a device copy or fill moved: Kineto's args "bytes" of its gpu_memcpy and
// gpu_memset events, a non-negative integer written as a number or a string of digits. nullopt
// when absent, not such an integer ("1.5e6", "12abc", negative), or the event is damaged before
// it. O(bytes of the event up to the key).
std::optional<uint64_t> ReadCopyBytes(const TraceText& text, uint64_t offset);

// What PyTorch's profiler records of a collective on its NCCL kernel (PyTorch 2.1 and later):
// args "Collective name" ("allreduce"), "Process Group Name" ("0", or a hash), "Process Group
// Ranks" ("[0, 1]") and, where written, its sequence number in the group ("Seq", "seq" or
// "seq_num"). Strings raw (escapes left as written); empty, or no sequence, when absent.
struct CollectiveFields {
    std::string_view collective, group, groupRanks;
    std::optional<uint64_t> sequence;
};

// Reads those args of the event at byte 'offset' of 'text'. O(size of the event).
CollectiveFields ReadCollectiveFields(const TraceText& text, uint64_t offset);

// What Holistic Trace Analysis 0.5 keeps of an event (docs/hta-compatible.md): whether it has
// "dur" and "cat", its "cat" (raw), and its args "stream" and "correlation" as HTA reads them
// (-1 when absent; a stream written as a decimal string is read, any other string is -1, a
// fraction is cut to its integer part).
struct HtaEventFields {
    bool hasDuration = false, hasCategory = false;
    std::string_view category;
    int64_t stream = -1, correlation = -1;
};

// Reads those fields of the event at byte 'offset' of 'text'. O(size of the event).
HtaEventFields ReadHtaEventFields(const TraceText& text, uint64_t offset);

}  // namespace marey

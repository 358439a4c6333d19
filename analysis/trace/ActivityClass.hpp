#pragma once
// What a device activity is busy with: the one rule that sorts GPU kernels and Ascend tasks into
// computation, communication and memory (docs/trace-analyses.md has the table).
#include <cstdint>
#include <optional>
#include <string_view>

namespace marey {

enum class ActivityClass : uint8_t { kComputation, kCommunication, kMemory };
constexpr int kActivityClassCount = 3;

// A memory activity's kind: a copy and its direction, or a fill.
enum class MemoryKind : uint8_t {
    kNone,  // not a memory activity
    kCopyHostToDevice,
    kCopyDeviceToHost,
    kCopyDeviceToDevice,
    kCopyHostToHost,
    kCopyPeerToPeer,
    kCopyUnknown,
    kSet,
};

struct ActivityKind {
    ActivityClass activityClass = ActivityClass::kComputation;
    MemoryKind memory = MemoryKind::kNone;
};

// The event's category ("kernel", "gpu_memcpy", …; empty on Ascend), its Ascend task type
// ("AI_CORE", "Notify Wait", …; empty on GPUs) and its name. nullopt: not an activity but a
// synchronisation or profiling marker, which occupies no device unit. O(length of the name).
std::optional<ActivityKind> ClassifyDeviceActivity(std::string_view category,
                                                   std::string_view taskType,
                                                   std::string_view name);

// Whether a Kineto category marks an event of a device stream (activity or not): what tells a
// GPU stream's thread from a host thread.
bool IsDeviceStreamCategory(std::string_view category);

const char* ActivityClassName(ActivityClass activityClass);  // "computation", …
const char* MemoryKindName(MemoryKind kind);                 // "HtoD", "DtoH", …, "memset"

}  // namespace marey

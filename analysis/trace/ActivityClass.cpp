#include "trace/ActivityClass.hpp"

#include <array>
#include <cctype>

namespace marey {
namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

bool ContainsNoCase(std::string_view text, std::string_view lowerNeedle) {
    if (text.size() < lowerNeedle.size()) return false;
    for (size_t i = 0; i + lowerNeedle.size() <= text.size(); ++i) {
        size_t j = 0;
        while (j < lowerNeedle.size() &&
               std::tolower(static_cast<unsigned char>(text[i + j])) == lowerNeedle[j])
            ++j;
        if (j == lowerNeedle.size()) return true;
    }
    return false;
}

// Ascend tasks that only order other tasks or mark the profiler's start: no unit works on them.
constexpr std::array<std::string_view, 7> kAscendSynchronisation = {
    "EVENT_RECORD_SQE", "EVENT_WAIT_SQE",   "PLACE_HOLDER_SQE", "EVENT_RECORD",
    "EVENT_WAIT",       "PROFILING_ENABLE", "PROFILING_DISABLE"};

// The tasks HCCL runs on its own streams (written with a space or an underscore by versions).
constexpr std::array<std::string_view, 16> kAscendCommunicationTasks = {
    "Notify Wait", "Notify_Wait", "Notify Record", "Notify_Record", "Write Value", "Write_Value",
    "SDMA",        "RDMA",        "Reduce Inline", "Reduce_Inline", "Reduce TBE",  "Reduce_TBE",
    "Memcpy",      "RDMASend",    "Local",         "HCCL"};

template <size_t N>
bool IsOneOf(std::string_view text, const std::array<std::string_view, N>& list) {
    for (std::string_view item : list)
        if (text == item) return true;
    return false;
}

MemoryKind CopyDirection(std::string_view name) {
    // "Memcpy HtoD (Pageable -> Device)": the word after "Memcpy ".
    std::string_view word = name.size() >= 11 ? name.substr(7, 4) : std::string_view{};
    if (word == "HtoD") return MemoryKind::kCopyHostToDevice;
    if (word == "DtoH") return MemoryKind::kCopyDeviceToHost;
    if (word == "DtoD") return MemoryKind::kCopyDeviceToDevice;
    if (word == "HtoH") return MemoryKind::kCopyHostToHost;
    if (word == "PtoP") return MemoryKind::kCopyPeerToPeer;
    return MemoryKind::kCopyUnknown;
}

}  // namespace

std::optional<ActivityKind> ClassifyDeviceActivity(std::string_view category,
                                                   std::string_view taskType,
                                                   std::string_view name) {
    if (IsOneOf(taskType, kAscendSynchronisation) || IsOneOf(name, kAscendSynchronisation))
        return std::nullopt;
    // Before the memory rule: HCCL's own copies ("Memcpy" tasks) are communication.
    if (IsOneOf(taskType, kAscendCommunicationTasks))
        return ActivityKind{ActivityClass::kCommunication, MemoryKind::kNone};
    if (category == "gpu_memcpy" || category == "Memcpy" || StartsWith(name, "Memcpy ") ||
        name == "Memcpy")
        return ActivityKind{ActivityClass::kMemory, CopyDirection(name)};
    if (category == "gpu_memset" || category == "Memset" || StartsWith(name, "Memset"))
        return ActivityKind{ActivityClass::kMemory, MemoryKind::kSet};
    if (name == "MEMCPY_ASYNC")
        return ActivityKind{ActivityClass::kMemory, MemoryKind::kCopyUnknown};
    if (ContainsNoCase(name, "nccl") || ContainsNoCase(name, "rccl") || StartsWith(name, "hcom_") ||
        StartsWith(name, "Hccl") || IsOneOf(name, kAscendCommunicationTasks))
        return ActivityKind{ActivityClass::kCommunication, MemoryKind::kNone};
    return ActivityKind{ActivityClass::kComputation, MemoryKind::kNone};
}

bool IsDeviceStreamCategory(std::string_view category) {
    return category == "kernel" || category == "gpu_memcpy" || category == "gpu_memset" ||
           category == "Kernel" || category == "Memcpy" || category == "Memset" ||
           category == "gpu_user_annotation" || category == "cuda_sync";
}

const char* ActivityClassName(ActivityClass activityClass) {
    switch (activityClass) {
        case ActivityClass::kComputation:
            return "computation";
        case ActivityClass::kCommunication:
            return "communication";
        case ActivityClass::kMemory:
            return "memory";
    }
    return "computation";
}

const char* MemoryKindName(MemoryKind kind) {
    switch (kind) {
        case MemoryKind::kNone:
            return "";
        case MemoryKind::kCopyHostToDevice:
            return "HtoD";
        case MemoryKind::kCopyDeviceToHost:
            return "DtoH";
        case MemoryKind::kCopyDeviceToDevice:
            return "DtoD";
        case MemoryKind::kCopyHostToHost:
            return "HtoH";
        case MemoryKind::kCopyPeerToPeer:
            return "PtoP";
        case MemoryKind::kCopyUnknown:
            return "copy";
        case MemoryKind::kSet:
            return "memset";
    }
    return "";
}

}  // namespace marey

#pragma once
// How FuzzRankDirectory turns bytes into a rank folder, shared with the regression replay so
// that a saved crash input rebuilds the same folder. The input is split at 0xFF bytes into the
// contents of profiler_info_3.json, step_trace_time.csv, kernel_details.csv, op_statistic.csv,
// communication.json, communication_matrix.json, memory_record.csv and operator_memory.csv;
// bits 0-5 of the first byte say which of the first six exist, bit 6 whether the two memory
// files do, bit 7 whether they all sit in ASCEND_PROFILER_OUTPUT.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace marey::fuzz {

inline void WriteRankFolderInput(const uint8_t* data, size_t size,
                                 const std::filesystem::path& root) {
    namespace fs = std::filesystem;
    fs::remove_all(root);
    if (size == 0) return;
    const uint8_t mask = data[0];
    const fs::path output = (mask & 0x80) ? root / "ASCEND_PROFILER_OUTPUT" : root;
    fs::create_directories(output);
    const char* const names[] = {"profiler_info_3.json", "step_trace_time.csv",
                                 "kernel_details.csv",   "op_statistic.csv",
                                 "communication.json",   "communication_matrix.json",
                                 "memory_record.csv",    "operator_memory.csv"};
    std::vector<std::string> parts(1);
    for (size_t i = 1; i < size; ++i) {
        if (data[i] == 0xFF)
            parts.emplace_back();
        else
            parts.back() += static_cast<char>(data[i]);
    }
    for (size_t i = 0; i < 8; ++i) {
        if (!(mask & (1u << (i < 6 ? i : 6)))) continue;
        const fs::path place = i == 0 ? root / names[i] : output / names[i];
        std::ofstream(place, std::ios::binary) << (i < parts.size() ? parts[i] : std::string());
    }
}

}  // namespace marey::fuzz

#pragma once
// The figures of a generated rank's side files that both its text files and its databases hold:
// one formula each, so that the two exports of one run give the same numbers. Decimal text is
// kept as the text files print it; a database stores the value that text reads back as.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "GeneratedText.hpp"
#include "TraceGenerator.hpp"

namespace marey {

// The value a decimal text reads back as, for a database column that holds a REAL.
inline double TextValue(const std::string& text) {
    return std::strtod(text.c_str(), nullptr);
}

inline std::string Fixed(const char* format, double value) {
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

// One AllReduce per step: mostly waiting for the peers, a short transit over HCCS.
struct StepCommunication {
    int64_t transitNs = 0, waitNs = 0, syncNs = 0, idleNs = 0;
    std::string sizeMb, bandwidthGBps;  // HCCS transit size (MB) and bandwidth, as printed
    double waitRatio = 0, syncRatio = 0;
};
inline StepCommunication CommunicationOf(const GeneratedStep& step, uint32_t rank) {
    StepCommunication c;
    c.transitNs = step.commDurNs / 4;
    c.waitNs = step.commDurNs / 5;
    c.syncNs = c.waitNs * 9 / 10;
    c.idleNs = step.commDurNs - c.transitNs - c.waitNs;
    // HCCS at about 17.5 GB/s (MB per ms), a little slower on higher ranks.
    const double transitMs = static_cast<double>(c.transitNs) / 1e6;
    const double sizeMb = (17.5 - static_cast<double>(rank % 8) * 0.3) * transitMs;
    c.sizeMb = std::to_string(sizeMb);
    c.bandwidthGBps = Fixed("%.4f", sizeMb / transitMs);
    c.waitRatio = static_cast<double>(c.waitNs) / static_cast<double>(c.waitNs + c.transitNs);
    c.syncRatio = static_cast<double>(c.syncNs) / static_cast<double>(c.syncNs + c.transitNs);
    return c;
}

// The HCCS packet sizes: (size in MB as printed, count, total time).
struct PacketBucket {
    const char* sizeMb;
    int count;
    int64_t totalNs;
};
inline std::vector<PacketBucket> PacketBucketsOf(const StepCommunication& c) {
    return {{"2.064384", 12, c.transitNs * 3 / 4}, {"0.262144", 9, c.transitNs / 4}};
}
// The transports that carried nothing, listed with zeros.
inline const char* const kIdleTransports[] = {"RDMA", "PCIE", "SDMA", "SIO"};

// communication_matrix.json's links of a step's AllReduce: to itself, to both ring neighbours.
struct MatrixLink {
    unsigned src = 0, dst = 0;
    const char* transport = "";
    std::string sizeMb, bandwidthGBps;  // as printed
    int64_t transitNs = 0;
};
inline constexpr const char* kMatrixOpGroup = "allreduce-total";
inline std::vector<MatrixLink> MatrixLinksOf(const GeneratedStep& step, unsigned rank) {
    const int64_t transit = step.commDurNs / 4;
    const double transitMs = static_cast<double>(transit) / 1e6;
    auto link = [&](unsigned dst, const char* type, double sizeMb, int64_t ns) {
        return MatrixLink{rank,
                          dst,
                          type,
                          Fixed("%.6f", sizeMb),
                          Fixed("%.4f", sizeMb / (static_cast<double>(ns) / 1e6)),
                          ns};
    };
    return {link(rank, "LOCAL", 500.0 * transitMs / 30, std::max<int64_t>(1, transit / 30)),
            link((rank + 1) % 8, "HCCS", 17.5 * transitMs, transit),
            link((rank + 7) % 8, "HCCS", 17.5 * transitMs, transit * 11 / 10)};
}

// Memory that grows through each step's forward pass and falls back at its end, as a training
// step's activations do: what PyTorch has allocated at the step's i-th task, in MB.
inline double AllocatedMbAt(size_t i, size_t taskCount) {
    return 954.25 + 18.5 * static_cast<double>(i < taskCount / 2 ? i : taskCount - i);
}
inline constexpr double kAppReservedMb = 2109.6015625;
inline constexpr double kPtaReservedMb = 1452.0;
inline constexpr int64_t kStreamPtr = 897357296;

// operator_memory.csv: the first tasks' allocations; every 50th still held when the profile ends.
inline constexpr size_t kOperatorAllocations = 4000;
inline double AllocationKb(const GeneratedTask& task) {
    return 512.0 * static_cast<double>(1 + task.kind % 7) * (task.kind == 0 ? 8 : 1);
}
inline bool ReleasedBeforeEnd(size_t allocation) {
    return allocation % 50 != 49;
}
inline constexpr double kAllocationTotalMb = 960.0;

}  // namespace marey

#pragma once
// Where one rank's device time went: computing, communication hidden behind it or not, and free
// time; with advice for the three problem classes of the tuning method (compute, scheduling,
// communication), each quoting the figures that triggered it.
#include <string>
#include <vector>

#include "core/Time.hpp"
#include "load/KernelTable.hpp"
#include "model/TraceModel.hpp"

namespace marey {

struct OverviewFigures {
    TimeNs computingNs = 0;          // device busy computing (overlapped or not)
    TimeNs pureComputingNs = 0;      // computing while no communication runs
    TimeNs commOverlappedNs = 0;     // communication hidden behind computing
    TimeNs commNotOverlappedNs = 0;  // communication alone
    TimeNs freeNs = 0;               // neither
    TimeNs totalNs = 0;              // pure computing + overlapped + not overlapped + free
    std::string source;              // where the figures come from, for the view
    bool valid = false;

    double Share(TimeNs ns) const {
        return totalNs > 0 ? static_cast<double>(ns) / static_cast<double>(totalNs) : 0.0;
    }
};

// From the trace's "Overlap Analysis" process (tracks Computing, Communication,
// Communication(Not Overlapped), Free), as the profiler computed it. valid = false without it.
// O(slices of that process).
OverviewFigures OverviewFromOverlapTracks(const TraceModel& model);

// Computed from kernel_details.csv: the union of compute tasks, the union of communication
// tasks, their intersection, and the gaps between the first start and the last end.
// O(n log n).
OverviewFigures OverviewFromKernels(const KernelTable& kernels);

enum class AdviceKind { kCompute, kScheduling, kCommunication, kHealthy };

struct Advice {
    AdviceKind kind;
    std::string title;
    std::string text;  // quotes the figures that triggered it
};

// Thresholds: free time over 10 % of the total is a scheduling hint; communication not overlapped
// over 10 % a communication hint; computing over 60 % (with the other two small) a compute hint.
// 'topOperators' (name and share of compute, largest first) is quoted in the compute advice.
std::vector<Advice> AdviseOnOverview(
    const OverviewFigures& figures,
    const std::vector<std::pair<std::string, double>>& topOperators);

const char* AdviceKindName(AdviceKind kind);

}  // namespace marey

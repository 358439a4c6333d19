#pragma once
// The Marey view's data: for one step, every device's operators (from its kernel_details.csv)
// on one time axis from the device's first operator of the step, and which operator on one
// device is the same operator on the next.
//
// The matching rule: within a step, a device's operators are taken in start order, and the k-th
// run of name N on one device is the same operator as the k-th run of N on another ("MatMul_6",
// occurrence 2); with several steps shown, runs are counted within each step. Where a device has no
// k-th run of N, no polygon is drawn to or from it: a missing operator never borrows another's
// place.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/Ids.hpp"
#include "cluster/Cluster.hpp"
#include "load/KernelTable.hpp"

namespace marey {

struct MareyOp {
    uint32_t key = 0;               // index into MareyStep::keys
    TimeNs startNs = 0, endNs = 0;  // from MareyDevice::stepStartNs
};

struct MareyDevice {
    RankId rankId;
    // Absolute, on the device's clock: where its times count from. One moment for every device
    // when their clocks agree (MareyStep::sharedClock), else each device's first operator of the
    // step.
    TimeNs stepStartNs = 0;
    std::vector<MareyOp> ops;      // by start
    std::vector<int32_t> opOfKey;  // per key: index into ops, -1 when the device lacks it
    std::string problem;           // why the device has no operators, when it has none
};

// One matched operator: a name and which of its runs in the step.
struct MareyKey {
    uint32_t name = 0;        // index into MareyStep::names
    uint32_t occurrence = 0;  // 0-based
    CoreClass coreClass = CoreClass::kOther;
    uint32_t step = 0;  // index into MareyStep::steps
};

struct MareyStep {
    std::string step;                // "50", or "50-52" for several
    std::vector<std::string> steps;  // the steps shown, in order
    std::vector<std::string> names;
    std::vector<MareyKey> keys;
    std::vector<MareyDevice> devices;  // in display order
    TimeNs spanNs = 0;                 // the longest device's step
    // The devices' clocks agree: their first operators of the step lie within one step of each
    // other, so that all count from the earliest and a pipeline's stages show their true delays.
    bool sharedClock = false;

    // "MatMul_6 #2".
    std::string KeyLabel(uint32_t key) const;
};

// Rank ids in pipeline order: the cluster's stage groups (or point-to-point groups) in the
// order of their first rank, each in rank order, then the ranks of no stage; else rank order.
std::vector<RankId> MareyDeviceOrder(const Cluster& cluster);

// The kernel_details.csv of each rank of 'rankIds', read on up to 'threads' threads, or the table
// the loader kept (ClusterRank::kernels) without reading anything; a rank without one gets null
// and a line in 'problems' (one per rank, empty when fine).
std::vector<std::shared_ptr<const KernelTable>> LoadKernelTables(
    const Cluster& cluster, const std::vector<RankId>& rankIds, unsigned threads,
    std::vector<std::string>& problems);

// A kernel table's rows by step: what a step's operators are without a pass over every row.
struct KernelStepIndex {
    // Row indexes grouped by their "Step Id" string, each group by start (file order among equal
    // starts); every row in one group when no row has a step (the table is one step).
    std::vector<uint32_t> rows;
    // Per group, ascending by step string id: the id and where its rows begin in 'rows'.
    std::vector<std::pair<StringId, uint32_t>> groups;
    bool noSteps = false;
};
// O(rows log rows).
KernelStepIndex IndexKernelSteps(const KernelTable& table);

// The tables of the devices shown, kept so that another step is built without reading the
// files again.
struct MareyTables {
    std::vector<RankId> rankIds;
    std::vector<std::shared_ptr<const KernelTable>> tables;  // null for a rank without one
    std::vector<KernelStepIndex> stepIndexes;                // per table, empty for null
    std::vector<std::string> problems;                       // per rank, empty when fine
    uint64_t rows = 0;                                       // over every table
};
// The tables and their step indexes, on up to 'threads' threads.
MareyTables LoadMareyTables(const Cluster& cluster, const std::vector<RankId>& rankIds,
                            unsigned threads);
// One step's figures from 'tables': O(the steps' rows over every device), whatever the tables
// hold besides.
MareyStep BuildMareyStep(const MareyTables& tables, const std::vector<std::string>& steps);

// Reads the operators of step 'step' from the kernel_details.csv of each rank in 'rankIds' (in
// that order), on up to 'threads' threads. A rank without the file, or without the step, is a
// device with no operators and a problem saying why. O(rows of those files).
MareyStep LoadMareyStep(const Cluster& cluster, const std::vector<RankId>& rankIds,
                        const std::string& step, unsigned threads);
// Several consecutive steps on one axis: operators match within their own step.
MareyStep LoadMareyStep(const Cluster& cluster, const std::vector<RankId>& rankIds,
                        const std::vector<std::string>& steps, unsigned threads);

// The same from tables already read (tests, the generator's own tables): 'tables[i]' is rank
// 'rankIds[i]'s kernel_details.csv.
MareyStep BuildMareyStep(const std::vector<const KernelTable*>& tables,
                         const std::vector<RankId>& rankIds, const std::string& step);
MareyStep BuildMareyStep(const std::vector<const KernelTable*>& tables,
                         const std::vector<RankId>& rankIds, const std::vector<std::string>& steps);

// Operators of the step matched between neighbouring devices, and those that are not.
struct MareyMatchCount {
    uint64_t matched = 0;    // polygons drawn between neighbours
    uint64_t unmatched = 0;  // runs on a device whose neighbour below lacks them
};
MareyMatchCount CountMatches(const MareyStep& step);

// The slant a device adds: the median, over the operators it shares with the device above it,
// of how much later it ends them. A slow device ends every operator later than the device above
// (and, in a pipeline, every device below inherits that delay without adding to it), so its
// slant stands out; in a healthy job every slant is about the same. The first device has none.
struct DeviceSlant {
    RankId rankId;
    TimeNs slantNs = 0;
    uint64_t operators = 0;  // shared with the device above
};
std::vector<DeviceSlant> DeviceSlants(const MareyStep& step);

// Why the step's devices without operators have none, one line per reason with the ranks it
// holds ("ranks 0-63: no kernel_details.csv (…)", "ranks 4, 9: no operator of step 7 in
// kernel_details.csv"); other problems (a file that cannot be read) one line each, the first
// 'most'. 'noFile' is set when every device lacks kernel_details.csv. O(devices log devices).
std::vector<std::string> SummarizeDeviceProblems(const MareyStep& step, size_t most, bool* noFile);

// The device whose slant exceeds the median slant by the most, among the devices that share
// operators with the one above; none with fewer than two of them or when none exceeds the
// median.
std::optional<RankId> SlowestDevice(const std::vector<DeviceSlant>& slants,
                                    TimeNs* excessNs = nullptr);

// Per operator of 'device' (by start): the latest end among it and those started before it, for
// MareyOpAt. O(operators).
std::vector<TimeNs> MareyRunningEnds(const MareyDevice& device);

// The operator of 'device' that covers 'ns' within 'slackNs' (both from the device's step start),
// however long: the one started last among those covering it; -1 when none. 'runningEnds' from
// MareyRunningEnds. O(log n + operators started since the earliest covering one).
int64_t MareyOpAt(const MareyDevice& device, const std::vector<TimeNs>& runningEnds, double ns,
                  double slackNs);

// A row of the view: one device, or a collapsed stage of several, whose operator spans are the
// union of its devices' ([first start, last end] of the same operator over them).
struct MareyRow {
    std::string label;            // "rank 5", "stage 0-7"
    std::vector<size_t> devices;  // indexes into MareyStep::devices
};

// One row per device, except the stages in 'collapsed' (each a list of device indexes), which
// become one row each in place of their devices.
std::vector<MareyRow> MareyRows(const MareyStep& step,
                                const std::vector<std::vector<size_t>>& collapsed);

// An operator on a row, or the band joining it to the same operator on the row below.
struct MareyShape {
    uint32_t row = 0;  // the upper row
    uint32_t key = 0;
    bool band = false;  // false: the operator's bar on 'row'; true: the band from 'row' to row + 1
    TimeNs topStartNs = 0, topEndNs = 0, bottomStartNs = 0,
           bottomEndNs = 0;  // equal top and bottom for a bar
};

// Every bar and every band of 'rows'. O(rows × keys).
std::vector<MareyShape> MareyShapes(const MareyStep& step, const std::vector<MareyRow>& rows);

}  // namespace marey

#pragma once
// What the Marey view of a cluster keeps between frames: the step loaded off the UI thread, its
// rows (devices, or collapsed stages), the instances for the GPU, and the view range.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/BackgroundJob.hpp"
#include "marey/Marey.hpp"
#include "marey/MareyInput.hpp"
#include "render/MareyRenderer.hpp"

namespace marey {

struct ClusterDocument;

// One load: the step's operators on every device shown, their memory, and the bars and bands
// with every device its own row.
struct MareyLoad {
    std::vector<std::string> steps;
    std::vector<RankId> rankIds;
    MareyStep marey;
    std::vector<MareyMemory> memory;               // per device
    std::vector<std::vector<TimeNs>> runningEnds;  // per device, for hit tests (MareyOpAt)
    std::vector<DeviceSlant> slants;
    MareyMatchCount matches;
    std::vector<MareyInstance> instances;  // for 'rows' below, built on the loading thread
    // The devices' tables, kept for the next step when they are not too large; null otherwise.
    std::shared_ptr<const MareyTables> tables;
};

struct MareyState {
    BackgroundJob<std::shared_ptr<MareyLoad>> job;
    std::shared_ptr<MareyLoad> load;
    std::vector<std::string> requestedSteps;
    int stepsShown = 1;  // consecutive steps from the chosen one
    std::vector<RankId> requestedRanks;
    int devicesPerStage = 0;                  // 0: the cluster's stage groups
    std::vector<std::vector<size_t>> stages;  // device indexes per stage
    std::vector<bool> collapsed;              // per stage
    std::vector<MareyRow> rows;
    uint64_t layoutVersion = 0;             // changes whenever the instances must be uploaded again
    double viewStartNs = 0, viewEndNs = 0;  // from the step's start
    float zoomHeld = 0, panHeld = 0;        // seconds W/S and A/D have been held
    bool brushing = false;
    float brushStartX = 0;
    int selectedDevice = -1;  // the device whose memory the chart shows
    // Per device of the load, its rank when that rank has a FLOPs summary (else null), and the
    // largest MFLOPs and GFLOPS among them: found once per load, not each frame.
    std::vector<const ClusterRank*> flopsRank;
    double mostMflops = 0, mostGflopsPerS = 0;
};

// The instances of 'rows': a bar per operator per row, a band per operator shared by two
// neighbouring rows; computing green, communication orange, AI CPU violet, other grey.
std::vector<MareyInstance> MareyInstances(const MareyStep& step, const std::vector<MareyRow>& rows);

// Shows a finished load: the whole span, the stages of 'document', every device its own row.
void TakeLoad(const ClusterDocument& document, MareyState& state,
              std::shared_ptr<MareyLoad> loaded);

}  // namespace marey

#pragma once
// The pipeline view of a cluster: one lane per stage of one pipeline, each stage's device
// operators over one step in execution order, coloured by operator type, and an arrow from every
// Send to the Receive on the next or previous stage that took it, marked with its microbatch
// (F3, B3). Each lane says its bubble against the 1F1B ideal. The step is read off the UI thread.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/BackgroundJob.hpp"
#include "marey/PipelineSchedule.hpp"
#include "viewkit/View.hpp"
#include "base/Ids.hpp"

namespace marey {

struct ClusterDocument;

// One operator type of the step shown, with the time all the pipeline's stages spent in it.
struct PipeTypeShare {
    std::string type;
    TimeNs ns = 0;
};

// An operator of the pipeline: its stage and its index among that stage's operators.
struct PipeOperatorRef {
    int stage = -1;
    int64_t op = -1;
    bool Valid() const { return stage >= 0 && op >= 0; }
};

// What a load holds: the pipeline's step, its schedule, and the types for the colours.
struct PipelineLoad {
    std::vector<RankId> ranks;  // one per stage, in stage order
    std::string step;
    MareyStep marey;
    PipelineSchedule schedule;
    TimeNs wholeStepEndNs = 0;          // the step's last operator on any stage: the view's far end
    std::vector<std::string> problems;  // why stages have no operators, one line a reason
    std::vector<uint32_t> typeOfKey;    // per key of 'marey': index into 'types'
    std::vector<PipeTypeShare> types;   // computations by time, longest first
    std::vector<TimeNs> longestOp;      // per stage, for the first operator a range shows
    std::vector<std::vector<TimeNs>> runningEnds;  // per stage, for hit tests (MareyOpAt)
    // Per stage: its Receives, then its Sends, each by start.
    std::vector<std::vector<uint32_t>> transferOps;
    std::shared_ptr<const MareyTables> tables;  // kept for the next step of the same ranks
};

class PipelineView : public View {
public:
    explicit PipelineView(ClusterDocument& cluster);
    ~PipelineView() override;

    void Draw(ViewContext& context) override;
    bool Busy() const override;
    void Wait() override;
    // Zooms from the whole step into a fiftieth of it, drifting right.
    void BenchmarkFrame(int frame, int frameCount) override;

private:
    // Starts a load when the step or the pipeline shown changed; takes a finished one in.
    void Refresh();
    void Take(std::shared_ptr<PipelineLoad> load);
    // The pipeline's span to the step's last operator.
    void ShowWholeStep();
    void DrawControls();
    void DrawSummary() const;
    void DrawLegend() const;

    ClusterDocument& m_document;
    BackgroundJob<std::shared_ptr<PipelineLoad>> m_job;
    std::shared_ptr<PipelineLoad> m_load;
    std::vector<RankId> m_requestedRanks;
    std::string m_requestedStep;
    std::optional<RankId> m_pipelineRank;  // the rank whose pipeline is shown; from the first frame
    double m_viewStartNs = 0, m_viewEndNs = 0;  // from the devices' step start
    bool m_dragging = false;
    bool m_denseDrawn = false;       // the last frame merged computations into a pixel's bar
    bool m_arrowsHidden = false;     // the last frame had more transfers than it draws arrows for
    PipeOperatorRef m_selected;      // the operator whose attributes the panel shows
    bool m_doubleClickHeld = false;  // the button is down for a double click's second press
    int m_settleFrames = 0;
    std::optional<GroupIndex>
        m_shownGroup;  // the group picker's choice the pipeline follows          // frames to draw
                       // after a load, while tables size themselves
};

}  // namespace marey

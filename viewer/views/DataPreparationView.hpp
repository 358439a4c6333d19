#pragma once
// Data preparation of one rank, as the tuning method reads it: PyTorch's data loader per step
// (its time, the device's idle time in it, the steps that waited on it); the step interval (each
// step's data queue on the device and host queue, with the verdict of the record) and the data
// processing (the dataset pipeline left to right, each queue coloured by its average usage, the
// bottleneck operators with their suggestion; a click on a queue shows its size over time).
#include "rank/RankAnalysis.hpp"
#include "viewkit/View.hpp"

namespace marey {

struct DataPreparation;
struct DataPipeline;
struct DataLoaderRecord;

class DataPreparationView : public View {
public:
    void Draw(ViewContext& context) override;
    void Draw(const RankAnalysis& analysis);

private:
    void DrawMindData(const DataPreparation& preparation);
    void DrawLoader(const DataLoaderRecord& loader, float height);
    void DrawVerdict(const DataPreparation& preparation);
    void DrawQueues(const DataPreparation& preparation, float height);
    void DrawIntervals(const DataPreparation& preparation, float height);
    void DrawPipeline(const DataPipeline& pipeline);
    void DrawSelectedQueue(const DataPipeline& pipeline);
    void DrawBottlenecks(const DataPipeline& pipeline);
    void DrawProfilerSummary(const DataPreparation& preparation);
    void DrawStageTables(const DataPreparation& preparation);

    size_t m_selected = SIZE_MAX;  // the operator whose output queue is shown over time
};

}  // namespace marey

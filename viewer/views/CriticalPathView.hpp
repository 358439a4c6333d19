#pragma once
// Critical path: what made a step of the open rank as long as it was (docs/critical-path.md).
// The longest path through its host calls, launches, device work and synchronisations, its time
// by what bounds it, the names with the most time on it, and every stretch in order; a stretch
// clicked shows it on the timeline, which outlines the whole path.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/BackgroundJob.hpp"
#include "path/CriticalPath.hpp"
#include "trace/TraceAnalyses.hpp"
#include "viewkit/View.hpp"

namespace marey {

struct Document;
struct TimelineRequest;

class CriticalPathView : public View {
public:
    explicit CriticalPathView(Document& document) : m_document(document) {}
    void Draw(ViewContext& context) override;
    bool Busy() const override { return m_analysesJob.Busy() || m_job.Busy() || m_stepsJob.Busy(); }
    void Update() override;
    void Wait() override;
    void TakeOver(View& previous) override;

private:
    // The steps of the rank (indices into TraceAnalyses::steps) and the one chosen: the longest
    // until a person picks another; nullopt is the whole trace.
    void ChooseDefaultStep();
    // Several ranks in one timeline: paths across the ranks, of steps every rank marks.
    bool Across() const;
    std::string GroupText(uint32_t group) const;  // "rank 3"
    std::string TrackText(uint32_t track) const;  // "rank 3 · stream 7" across ranks
    static std::shared_ptr<const CriticalPath> PathOf(const TraceModel& model,
                                                      const TraceAnalyses& analyses,
                                                      std::optional<uint32_t> step, bool across);
    // The analyses the paths are found with: the rank's, or made for several ranks.
    void TakeAnalyses(std::shared_ptr<const TraceAnalyses> analyses);
    // Chooses the step and starts computing its path, the first time the view is drawn or
    // waited for.
    void StartOnce();
    void Compute();
    std::string WindowLabel() const;
    void DrawHeader(TimelineRequest& request);
    void DrawBound(const CriticalPath& path);
    void DrawContributors(const CriticalPath& path);
    void DrawStretches(const CriticalPath& path, TimelineRequest& request);
    // Every step's path in a table; a row clicked shows that step's path.
    void DrawSteps();
    void TakePath(std::shared_ptr<const CriticalPath> path);
    // Asks the timeline to outline the path and show [startNs, endNs], 'track' brought on screen.
    void ShowOnTimeline(TimelineRequest& request, TimeNs startNs, TimeNs endNs,
                        std::optional<uint32_t> track);
    // The same for one stretch: its own slice selected, a wait shown with the work it waited for.
    void ShowStretch(TimelineRequest& request, const PathStretch& stretch);

    Document& m_document;
    std::vector<uint32_t> m_steps;  // the rank's, by start
    std::optional<uint32_t> m_step;
    bool m_stepChosen = false;
    bool m_started = false;
    BackgroundJob<std::shared_ptr<const TraceAnalyses>> m_analysesJob;
    std::shared_ptr<const TraceAnalyses> m_analyses;  // once taken
    BackgroundJob<std::shared_ptr<const CriticalPath>> m_job;
    std::shared_ptr<const CriticalPath> m_path;  // of the window asked for last, once computed
    using StepPaths = std::vector<std::shared_ptr<const CriticalPath>>;
    BackgroundJob<std::shared_ptr<const StepPaths>> m_stepsJob;
    std::shared_ptr<const StepPaths> m_stepPaths;  // in m_steps' order, once computed
    std::vector<PathContributor> m_contributors;
    size_t m_selected = SIZE_MAX;  // the stretch shown on the timeline
};

}  // namespace marey

#pragma once
// The timeline: process ► track tree, time ruler, minimap, slices from the level-of-detail
// query drawn as one instanced batch, counters, instants and flows, with Tracy- and
// chrome://tracing-style navigation. One file per feature (Timeline_*.cpp).
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <optional>
#include <utility>
#include <vector>

#include "base/Colors.hpp"
#include "base/ViewState.hpp"
#include "index/RowQuery.hpp"
#include "load/EventDetails.hpp"
#include "model/TraceModel.hpp"
#include "path/CriticalPath.hpp"
#include "render/BoxRenderer.hpp"
#include "timeline/SearchIndex.hpp"
#include "timeline/TimelineData.hpp"
#include "timeline/TrackLayout.hpp"

struct ImDrawList;
struct ImVec2;

namespace marey {

struct FrameStats {
    double cpuMs = 0;
    size_t boxes = 0;
    size_t labels = 0;
    size_t flows = 0;
};

class TimelineView {
public:
    // 'documentId' is stamped on every SliceRef this timeline hands out. Builds the derived data
    // itself (tests and tools): O(events).
    explicit TimelineView(const TraceModel& model, uint32_t documentId = 0);
    // The same, with the derived data built beforehand (on the loading thread). O(tracks).
    TimelineView(const TraceModel& model, std::shared_ptr<const TimelineData> data,
                 uint32_t documentId);

    // The derived data again, now with the rank's device analyses, which arrived after the first
    // frames: the tracks are laid out again and the view stays where it is. O(tracks).
    void SetData(std::shared_ptr<const TimelineData> data);

    // Draws the timeline into the current ImGui window region. 'frameDt' drives held-key motion.
    void Draw(BoxRenderer& boxes, float frameDt);

    ViewState& state() { return m_state; }
    const ViewState& state() const { return m_state; }
    const TraceModel& model() const { return m_model; }
    uint32_t documentId() const { return m_documentId; }
    SearchIndex& search() { return m_search; }
    const FrameStats& frameStats() const { return m_frameStats; }
    const std::vector<StringId>& flowCategories() const { return m_data->flowCategories; }
    const TimelineData& data() const { return *m_data; }
    // The device counters laid out under "Device analyses", in lane order (those of a folded
    // group or rank are left out). Lays the tracks out when they changed. O(lanes).
    std::vector<uint32_t> ShownDeviceCounters();
    std::vector<char>& flowCategoryShown() { return m_flowCategoryShown; }

    // Navigation, also used by panels: show [start, end) (relative ns) with a margin.
    void ShowRange(double startNs, double endNs, bool withMargin = true);
    // Shows exactly [start, end) (relative ns), even past the trace's ends: a comparison keeps
    // the other timeline on the same aligned times.
    void SetViewRange(double startNs, double endNs);
    // Width of the track-name column; a person drags its right edge (read it back after Draw).
    void SetHeaderWidth(float widthPx) { m_headerWidthPx = widthPx; }
    float headerWidth() const { return m_headerWidthPx; }
    // Added to this timeline's relative times on its ruler: a comparison shows B's ruler on A's
    // axis (0: the trace's own).
    void SetRulerShiftNs(double shiftNs) { m_rulerShiftNs = shiftNs; }
    // Whether W/A/S/D, F, Home and Esc act on this timeline (a comparison gives them to one half).
    void SetKeyboardEnabled(bool enabled) { m_keyboardEnabled = enabled; }
    void ShowAll();
    // Selects a slice and scrolls it into view; a slice of another document is refused.
    void Select(const SliceRef& slice, bool frame);
    // Scrolls vertically, opening its process, so that row 'row' of 'track' is on screen.
    void ScrollToRow(uint32_t track, uint32_t row);
    // Selects a slice and shows it with context: the zoom stays when it fits (centred on it),
    // else it takes the middle third of the view. For jumps along flows and to parents.
    void Reveal(const SliceRef& slice);
    // Whether a click on the canvas selected a slice since the last call: the side panel then
    // shows its details, whichever tab it showed.
    bool TakeClickSelected() { return std::exchange(m_clickSelected, false); }
    void ExpandToTrack(uint32_t track);
    // Folds the host processes but 'keepProcess' so that the device streams and communication
    // are on screen, not only a deep host stack: every process not labelled NPU or GPU when some
    // are, else those taller than 'maxHeightPx' while another is left open. Returns how many it
    // folded. O(lanes).
    size_t FoldHostProcesses(float maxHeightPx, uint32_t keepProcess = UINT32_MAX,
                             bool firstScreen = false);
    // From the first slice to the last end of the slices of the processes labelled NPU or GPU
    // (not their counters, which span the whole recording), in relative ns; nullopt without
    // any. O(device rows).
    std::optional<std::pair<double, double>> DeviceSpan() const;
    // Opens again the processes a first screen folded (FoldHostProcesses with 'firstScreen'),
    // those a person has not opened or folded since. Home does it.
    void UnfoldFirstScreen();
    // Whether some of the track's lane was on screen at the last frame (pinned lanes always).
    bool TrackOnScreen(uint32_t track) const;
    // The slice named 'name' starting nearest absolute time 'absoluteNs', at most 'toleranceNs'
    // away, on any track; invalid when none. O(rows · log n + slices within the tolerance).
    SliceRef FindSliceNear(std::string_view name, TimeNs absoluteNs, TimeNs toleranceNs) const;
    // Hidden tracks (right-click ▸ Hide) come back; returns how many were hidden.
    size_t ShowHiddenTracks();
    void SetAllCollapsed(bool collapsed);
    // Folds or unfolds every rank of a timeline of several (its groups); the processes inside
    // keep their own state.
    void SetGroupsCollapsed(bool collapsed);
    // Takes the folded, hidden and pinned state and the scroll (and with 'withView' the visible
    // range) of a timeline of the same files (the ranks loaded again with another alignment);
    // nothing when they differ in shape.
    void TakeLayoutFrom(const TimelineView& other, bool withView);
    // Outlines the stretches of 'path' (of this timeline's model) and the jumps between them;
    // null takes the outline away.
    void SetCriticalPath(std::shared_ptr<const CriticalPath> path) {
        m_criticalPath = std::move(path);
    }
    const CriticalPath* criticalPath() const { return m_criticalPath.get(); }
    // Cached details (args) of the event of 'track' at 'ref' (a byte offset in its file).
    const EventDetails& Details(uint32_t track, uint64_t ref);

    // Slice helpers for panels and tooltips.
    TimeNs SliceStart(const SliceRef& s) const {
        return m_model.tracks[s.track].rows[s.row].start[s.index];
    }
    TimeNs SliceEnd(const SliceRef& s) const {
        return m_model.tracks[s.track].rows[s.row].end[s.index];
    }
    StringId SliceName(const SliceRef& s) const {
        return m_model.tracks[s.track].rows[s.row].name[s.index];
    }
    TimeNs SelfTime(const SliceRef& s) const;
    SliceRef Parent(const SliceRef& s) const;
    std::vector<SliceRef> Children(const SliceRef& s, size_t limit) const;
    // The deepest slice of 'track' enclosing absolute time 't', for flow ends.
    SliceRef EnclosingSlice(uint32_t track, TimeNs t) const;
    // Whether a flow end at ('track', 't') belongs to 'slice' (it is the deepest slice there).
    bool FlowEndOn(const SliceRef& slice, uint32_t track, TimeNs t) const;
    // "+12.345 ms" on the ruler's axis: from the trace start, or in a comparison's half B
    // from A's start at the aligned moment (the ruler's shift), as its ruler reads.
    std::string RelativeTime(TimeNs absoluteNs) const;

    const Rgba& NameColor(StringId name);

private:
    // Geometry of this frame.
    struct Canvas {
        float x0, x1;    // slice area, window pixels
        float headerX0;  // track header column
        float bodyTop, bodyBottom;
        float rulerY, minimapY;
        double pxPerNs;
    };
    double ToX(double relativeNs) const {
        return m_canvas.x0 + (relativeNs - m_state.viewStartNs) * m_canvas.pxPerNs;
    }
    double ToRelativeNs(double x) const {
        return m_state.viewStartNs + (x - m_canvas.x0) / m_canvas.pxPerNs;
    }
    TimeNs AbsoluteNs(double relativeNs) const;

    // Timeline_Navigation.cpp
    void HandleKeys(float frameDt);
    void HandleMouse();
    void ZoomAround(double anchorRelativeNs, double factor);
    void Pan(double deltaNs);
    void ClampView();
    // Timeline_Ruler.cpp
    void DrawRuler(ImDrawList* draw);
    // The line and time under the mouse, and the length of the selected range, over the ruler.
    void DrawCursorAndMeasure(ImDrawList* draw);
    void DrawRangeAndMark(ImDrawList* draw);
    // Timeline_Minimap.cpp
    void DrawMinimap(ImDrawList* draw);
    // Timeline_Slices.cpp
    void DrawLanes(ImDrawList* draw, BoxRenderer& boxes, const std::vector<Lane>& lanes,
                   float originY, float clipTop, float clipBottom);
    void DrawSliceTrack(ImDrawList* draw, BoxRenderer& boxes, const Lane& lane, float laneY);
    void DrawHeader(ImDrawList* draw, const Lane& lane, float laneY);
    // The header of one rank of several: click folds it, right-click folds the others.
    void DrawGroupHeader(ImDrawList* draw, const Lane& lane, float laneY, bool hovered);
    // A folded rank or process: how busy its threads are, per pixel, in its header.
    void DrawFoldedSummary(BoxRenderer& boxes, const Lane& lane, float laneY);
    // How many of the process's threads are busy at each pixel of the view (m_foldedBusy).
    void CountBusyThreads(const Process& process);
    // Those counts as boxes between 'top' and 'bottom': a profile, or a band of shades.
    void DrawBusyRuns(BoxRenderer& boxes, const Rgba& color, float top, float bottom, bool profile);
    void DrawLabels(ImDrawList* draw);
    void DrawHoverTooltip();
    void DrawInstants(ImDrawList* draw, const Track& track, float laneY);
    // Timeline_Counters.cpp
    void DrawCounterTrack(ImDrawList* draw, BoxRenderer& boxes, const Lane& lane, float laneY);
    // A step chart of 'n' samples between 'top' and 'bottom', scaled to [minValue, maxValue]: one
    // bar per pixel bucket at the bucket's maximum. O(pixels · log n).
    void DrawCounterBars(BoxRenderer& boxes, const TimeNs* ts, const double* values, size_t n,
                         double minValue, double maxValue, const Rgba& color, float top,
                         float bottom);
    // Timeline_DeviceAnalyses.cpp
    // The header of a device's "Device analyses" (click folds it), with the host-wait legend.
    void DrawAnalysesHeader(ImDrawList* draw, const Lane& lane, float laneY, float x0,
                            bool hovered);
    void DrawAnalysisTrackHeader(ImDrawList* draw, const Lane& lane, float laneY, float x0,
                                 bool hovered);
    void DrawAnalysisCounter(BoxRenderer& boxes, const Lane& lane, float laneY);
    // The host-wait gaps of a stream's track, behind its slices. O(items on screen · log gaps).
    void DrawHostWaits(BoxRenderer& boxes, const Lane& lane, float laneY);
    // The tooltip of a derived counter or a host-wait mark under the mouse; false when neither.
    bool DrawAnalysisTooltip();
    // Timeline_Flows.cpp
    void DrawFlows(ImDrawList* draw, float originY, float pinnedOriginY);
    // Timeline_CriticalPath.cpp
    void DrawCriticalPath(ImDrawList* draw, float originY, float pinnedOriginY);
    void DrawCriticalPathLegend(ImDrawList* draw);
    // The y of the middle of 'row' of 'track' on screen; -1 when its lane is not laid out.
    float RowMiddleY(uint32_t track, uint32_t row, float originY, float pinnedOriginY) const;
    // The selected and hovered slices and the slices their flows lead to (a few hops): whose
    // arrows are drawn when not every flow is.
    void CollectFlowFocus(const Flow* begin, TimeNs viewStart, TimeNs viewEnd);
    bool OnFlowFocus(uint32_t track, TimeNs t) const;
    float FlowEndY(uint32_t track, TimeNs t, float originY, float pinnedOriginY,
                   bool exactDepth) const;

    const TraceModel& m_model;
    std::shared_ptr<const TimelineData> m_data;          // never null
    std::shared_ptr<const CriticalPath> m_criticalPath;  // outlined when set
    uint32_t m_documentId = 0;
    ViewState m_state;
    LayoutMetrics m_metrics;
    TrackLayout m_layout;
    bool m_layoutDirty = true;
    std::vector<uint32_t> m_firstScreenFolded;  // processes the first screen folded
    Canvas m_canvas{};
    SearchIndex m_search;
    FrameStats m_frameStats;

    // Names to colours, computed on first use.
    std::vector<Rgba> m_nameColors;
    std::vector<char> m_nameColorKnown;

    // Per-frame scratch, kept to avoid allocations.
    std::vector<VisibleItem> m_items;
    std::vector<CounterBucket> m_buckets;
    std::vector<HostWaitItem> m_hostWaitItems;
    // Text of the "Device analyses" lanes, made on first draw, not per frame: per device counter
    // its summary; per process its host-wait legend (empty: not made yet).
    std::vector<std::string> m_counterSummaries;
    std::vector<std::string> m_hostWaitLegends;
    std::vector<uint32_t> m_foldedProcesses;  // DrawFoldedSummary: the processes of a folded rank
    std::vector<int32_t> m_foldedBusy;        // CountBusyThreads: threads busy per pixel (+1 spare)
    uint32_t m_foldedThreads = 0;             // and how many threads were counted
    struct PendingLabel {
        float x0, x1, y;
        StringId name;
        bool dark;
    };
    std::vector<PendingLabel> m_labels;
    struct OverlayText {
        float x, y;
        std::string text;
    };
    std::vector<OverlayText> m_overlayTexts;  // drawn over the boxes (counter scales)
    struct OpenEnd {
        float x, y0, y1;
    };
    std::vector<OpenEnd>
        m_openEnds;  // chevrons at the end of unfinished slices, drawn over the boxes

    // Hover: what the mouse is over this frame.
    struct Hover {
        SliceRef slice;
        uint32_t mergedCount = 0;  // > 1 when over a merged run
        TimeNs mergedStart = 0, mergedEnd = 0;
        uint32_t counterTrack = UINT32_MAX;
        TimeNs timeNs = 0;
        uint32_t deviceCounter = UINT32_MAX;  // index into m_data->deviceCounters
        int32_t hostWaits = -1;               // index into m_data->hostWaits
        HostWaitItem hostWait;
    } m_hover;

    // Navigation state.
    bool m_keyboardEnabled = true;
    float m_headerWidthPx = 290.0f;
    double m_rulerShiftNs = 0;
    bool m_headerResizing = false;
    float m_zoomHeld = 0, m_panHeld = 0;
    bool m_dragging = false, m_rangeDragging = false, m_minimapDragging = false;
    bool m_clickSelected = false;  // a click on the canvas selected a slice (TakeClickSelected)
    float m_dragStartX = 0, m_dragStartY = 0;
    double m_dragStartViewNs = 0;
    float m_dragStartScroll = 0;
    float m_scrollY = 0, m_maxScrollY = 0;

    // Counter scale, per track.
    // Flows.
    std::vector<char> m_flowCategoryShown;  // by index into m_data->flowCategories
    std::vector<SliceRef> m_flowFocus;      // this frame's, see CollectFlowFocus

    std::unordered_map<uint64_t, EventDetails> m_detailsCache;
};

}  // namespace marey

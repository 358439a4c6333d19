#pragma once
// Plain view state of the timeline: what is visible, selected and hovered. The model is never
// changed by the viewer; a person's actions change this.
#include <cstdint>
#include <string>
#include <vector>

#include "core/Time.hpp"

namespace marey {

// One slice: its track, row and index in the row, and the document (a DocumentId; 0 outside a
// workspace) whose model they index, so that a reference is never used on another document.
struct SliceRef {
    uint32_t track = UINT32_MAX;
    uint32_t row = 0;
    uint32_t index = 0;
    uint32_t document = 0;
    bool valid() const { return track != UINT32_MAX; }
    bool operator==(const SliceRef& other) const {
        return track == other.track && row == other.row && index == other.index &&
               document == other.document;
    }
};

struct ViewState {
    // Visible time range, in ns relative to the trace's first timestamp; doubles keep sub-ns
    // zoom smooth, and relative values stay exact for any trace shorter than about 100 days.
    double viewStartNs = 0;
    double viewEndNs = 1;
    float scrollY = 0;

    SliceRef selected;
    SliceRef hovered;
    bool hasRange = false;                    // a range selection, shift-drag
    TimeNs rangeStartNs = 0, rangeEndNs = 0;  // relative
    std::vector<uint32_t> rangeTracks;

    // What a jump from another view (a step, an allocation, a communication operator) marked.
    bool hasMark = false;
    TimeNs markStartNs = 0, markEndNs = 0;  // relative
    std::string markLabel;

    bool showFlows = true;
    // Every flow of the shown categories (V), instead of those of the selected and hovered
    // slices and the chains they start.
    bool showAllFlows = false;
    bool showFrameOverlay = false;
    // The gaps where a device stream waited for the host, marked on its track.
    bool showHostWaits = true;
};

}  // namespace marey

#pragma once
// Pieces the analysis views share: what a view asks of the timeline, the missing-file notice,
// stacked bars with a legend, and number formatting with units.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/Colors.hpp"
#include "core/Time.hpp"
#include "load/RankDirectory.hpp"
#include "base/Ids.hpp"

namespace marey {

struct CriticalPath;  // path/CriticalPath.hpp

// What a view asks the application to do in the timeline of document 'document' (the caller of
// the view fills it in); 'kind' kNone when nothing.
// The application acts on the timeline itself (kShowRange) and sends the others to the document's
// views (SendToViews), where its Timeline tab takes them.
struct TimelineRequest {
    enum Kind {
        kNone,
        kShowRange,       // show and mark [startNs, endNs]
        kHighlightNames,  // highlight 'names' as a search, shown in the search panel
        kSearch,          // type 'label' into the search box, run it and select the first match
        kShowPanel,    // bring the side panel tab 'label' forward: details, range, search, issues
        kFocusSearch,  // put the keyboard focus in the search box
        // outline 'criticalPath' on the timeline (none: take it away), then as kShowRange when
        // a range is given
        kShowCriticalPath,
    } kind = kNone;
    std::optional<DocumentId> document;  // the document shown when a view asks; set by the caller
    TimeNs startNs = 0, endNs = 0;       // absolute, as in the trace (kShowRange)
    std::optional<uint32_t> track;       // kShowRange: a track brought on screen, its process open
    // kShowRange: the slice of this exact name starting nearest startNs (within 10 ms) is selected
    // and brought on screen, its details shown.
    std::string selectName;
    std::vector<std::string> names;  // exact slice names (kHighlightNames)
    // What the search box shows (kHighlightNames, kSearch), the mark's name (kShowRange), or the
    // panel (kShowPanel).
    std::string label;
    bool goToFirst = true;  // kHighlightNames: select and frame the first match once found
    bool switchToTimeline = false;
    std::shared_ptr<const CriticalPath> criticalPath;  // kShowCriticalPath
    // kShowRange, kShowCriticalPath: this exact slice (track, row, index) is selected and brought
    // on screen, rather than one found by name.
    std::optional<std::array<uint32_t, 3>> selectSlice;
};

struct BarSegment {
    const char* label;
    double value;
    Rgba color;
};

// The fixed time-class colours: pure computing, overlapped communication, communication alone,
// free.
Rgba ComputingColor();
Rgba OverlappedColor();
Rgba NotOverlappedColor();
Rgba FreeColor();

// "<file> is not in this folder…" with the profiler setting that writes it, in a framed note.
void DrawMissingFile(const RankFileKind& kind, const char* whatNeedsIt);

// A horizontal stacked bar 'width' × 'height' px at the cursor; segments wider than their label
// show it; hovering a segment shows label, value (as 'format' prints ns) and share.
void DrawStackedBar(const std::vector<BarSegment>& segments, float width, float height);

// One line of coloured squares and labels for 'segments'.
void DrawLegend(const std::vector<BarSegment>& segments);

// "12.3 %"
std::string Percent(double share);

// Section title in a brighter colour with a rule under it.
void SectionTitle(const char* text);

// A dimmed note after the last item, 'spacingPx' on, when it fits the rest of the line; else on a
// line of its own, wrapped to the window's width.
void NoteAfter(const char* text, float spacingPx = 20);

// Puts what follows on the last item's line, 'spacingPx' on, when 'widthPx' fits the rest of it;
// else it starts the next line.
void SameLineIfRoom(float widthPx, float spacingPx = 20);

// The label of a table cell whose text may be wider than its column: the text cut in the middle
// to the room left ("hcom_al…586_0_1", never a cut end that several names share), then "###"
// and 'id', so that the cell's id stays put as the column resizes. 'cut' says whether it was cut:
// the tooltip then gives the whole text.
std::string ElidedCellLabel(const std::string& text, const char* id, bool* cut = nullptr);

// Text right-aligned in the current table column (numbers line up).
void RightAligned(const std::string& text);

// Inside a sortable table after its headers: when the person changed the sort, sets 'column'
// (the column's user id) and 'ascending' and returns true.
bool TakeSortSpecs(int* column, bool* ascending);

}  // namespace marey

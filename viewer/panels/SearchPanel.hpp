#pragma once
// Search: a box in the toolbar (Enter: next match, Shift+Enter: previous) and a list of the
// matches in the side panel. Searches run off the UI thread; the timeline shows the last
// finished one until the next is ready.
#include <string>
#include <utility>
#include <vector>

#include "base/BackgroundJob.hpp"
#include "timeline/SearchIndex.hpp"

namespace marey {

class TimelineView;

class SearchPanel {
public:
    // The toolbar part: input, match count, previous / next.
    void DrawToolbar(TimelineView& timeline);
    // The list of matches.
    void DrawContents(TimelineView& timeline);
    // Selects the next (or previous) match after the current selection.
    void Step(TimelineView& timeline, bool forward);
    // Ctrl+F: puts the keyboard in the box with the old query selected, so typing replaces it.
    void FocusInput() { m_focusInput = true; }
    // Types 'query' into the box and runs it to the end (the command line's --search).
    void SetQuery(TimelineView& timeline, const std::string& query);
    // Types 'query' into the box as a person would: the search starts in the background.
    void TypeQuery(const std::string& query);
    // Highlights the slices named exactly one of 'names' (in the background); the box shows
    // 'label'. With 'goToFirst', the first match is selected and framed once the search is done.
    void SetNames(TimelineView& timeline, const std::vector<std::string>& names,
                  const std::string& label, bool goToFirst = true);
    // Empties the box and the highlight (Esc).
    void Clear(TimelineView& timeline);
    // Enter / Shift+Enter (next, previous) and Esc wherever the keyboard focus is, when no text
    // field takes them. Call once per frame while the timeline is shown.
    void HandleKeys(TimelineView& timeline);
    // Takes a finished search into the timeline. Called by DrawToolbar; public for headless use.
    void TakeFinished(TimelineView& timeline);
    bool Searching() const { return m_job.Busy(); }
    // Whether a match was jumped to since the last call (the side panel then shows Details).
    bool TakeJumped() { return std::exchange(m_jumped, false); }

private:
    char m_input[256] = {};
    std::string m_ran;
    bool m_focusInput = false;
    bool m_selectAll = false;  // select the box's text once it takes the keyboard
    bool m_jumped = false;
    int m_pendingSteps = 0;  // Enters (+1) and Shift+Enters (-1) pressed while a search ran
    size_t m_current = 0;
    bool m_goToFirst = false;  // select the first match when the running search is done
    BackgroundJob<SearchIndex> m_job;
};

}  // namespace marey

#pragma once
// The problems met while importing, with their places, as the compiler would print them.

namespace tracelens {

struct TraceModel;

class ImportIssuesPanel {
public:
    void DrawContents(const TraceModel& model);
};

}  // namespace tracelens

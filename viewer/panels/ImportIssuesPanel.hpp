#pragma once
// The problems met while importing, with their places, as the compiler would print them; for
// several ranks in one timeline, each rank's under its name.
#include <string>

namespace marey {

struct TraceModel;
struct ImportReport;

class ImportIssuesPanel {
public:
    void DrawContents(const TraceModel& model);

private:
    static void DrawProblems(const std::string& path, const ImportReport& report);
};

}  // namespace marey

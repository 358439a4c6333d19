#pragma once
// Every document the window holds, the loads still running, and the comparison of two of them.
// Opening never replaces or waits: each path becomes a document of its own once it loads.
#include <future>
#include <optional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compare/Comparison.hpp"
#include "workspace/Document.hpp"
#include "workspace/LoadQueue.hpp"

namespace marey {

// Two documents shown against each other, and their diff computed off the UI thread.
struct ComparisonPair {
    ComparisonPair();
    ~ComparisonPair();
    ComparisonPair(const ComparisonPair&) = delete;
    ComparisonPair& operator=(const ComparisonPair&) = delete;

    DocumentId a, b;
    ComparisonOptions options;
    std::shared_future<Comparison> diff;  // valid once both documents are loaded
    // The diff, or null while it is computed.
    const Comparison* Ready() const;
    // The pair this one replaces (the same documents compared again), kept until its views have
    // handed what a person set up there to this pair's views (View::TakeOver).
    std::unique_ptr<ComparisonPair> replaced;
    // The objects of the comparison's views, which keep what a person chose; declared last.
    ViewList views;
};

// What the window says about a load that did not become a document, shown until dismissed.
struct LoadNotice {
    uint64_t serial = 0;     // unique within the workspace: an id for the window's widgets
    std::string path;        // what was asked for (may be empty for a rank of several)
    std::string reason;      // why, without the path in front: "cannot open the file: …"
    bool cancelled = false;  // a person cancelled it: not an error
    // One line: "Cannot open PATH: REASON", or "Cancelled loading PATH".
    std::string Text() const;
};

// A notice from a load's message: the path and "error: " in front of the message are dropped,
// since the notice names the path itself.
LoadNotice MakeLoadNotice(const std::string& path, const std::string& message, bool cancelled);

class Workspace {
public:
    // Starts loading 'path'; returns the id its document will have.
    DocumentId Open(const std::string& path);
    // The id of the document of 'path' when it is open or loading, else starts loading it.
    DocumentId OpenOnce(const std::string& path);
    // Starts loading several ranks (paths of traces or rank folders) into one timeline, aligned on
    // 'alignStep' (see RanksTimelineOptions); returns the id its document will have.
    DocumentId OpenRanks(const std::vector<std::string>& paths, const std::string& alignStep);
    // Loads the ranks of document 'id' again, aligned on another step; the new document replaces
    // the old one under the same id once it is ready (the old one is shown until then).
    void RealignRanks(DocumentId id, const std::string& alignStep);
    // Starts loading both sides of a comparison, each on half of the cores.
    void OpenComparison(const std::string& pathA, const std::string& pathB);
    // Compares two loaded (or loading) documents.
    void Compare(DocumentId a, DocumentId b, const ComparisonOptions& options = {});
    // Recomputes the diff with other options (another alignment, one step of each).
    void Recompare(const ComparisonOptions& options);
    // Closes a document or a cluster.
    void Close(DocumentId id);
    // Ends the comparison; both documents stay open.
    void EndComparison();

    // Takes finished loads in: call once per frame. Returns the ids that became documents or
    // clusters.
    std::vector<DocumentId> Poll();
    // Whether a shown document's analyses arrived since the last call (the window draws again).
    bool TakeAnalysesArrived() { return std::exchange(m_analysesArrived, false); }

    Document* Find(DocumentId id);
    ClusterDocument* FindCluster(DocumentId id);
    const std::vector<std::unique_ptr<Document>>& documents() const { return m_documents; }
    const std::vector<std::unique_ptr<ClusterDocument>>& clusters() const { return m_clusters; }
    // Documents and clusters together.
    size_t OpenCount() const { return m_documents.size() + m_clusters.size(); }
    LoadQueue& loads() { return m_loads; }
    // Messages of loads that failed, newest last.
    const std::vector<std::string>& errors() const { return m_errors; }
    // Failed and cancelled loads a person has not dismissed yet, oldest first.
    const std::vector<LoadNotice>& notices() const { return m_notices; }
    // Adds a notice about 'path' that no load made (a rank with no folder to open).
    void Notify(const std::string& path, const std::string& reason);
    // Forgets the notice with this serial. O(notices).
    void Dismiss(uint64_t serial);
    ComparisonPair* comparison() { return m_comparison.get(); }

private:
    void StartDiffWhenLoaded();
    // The end of a load whose timeline is shown: its analyses move into that document. Returns
    // whether they did (false when it was closed meanwhile, or the load failed: said).
    bool TakeAnalyses(LoadQueue::Finished& finished);

    bool m_analysesArrived = false;
    std::vector<std::unique_ptr<Document>> m_documents;
    std::vector<std::unique_ptr<ClusterDocument>> m_clusters;
    LoadQueue m_loads;
    std::vector<std::string> m_errors;
    std::vector<LoadNotice> m_notices;
    uint64_t m_nextNotice = 1;
    std::unique_ptr<ComparisonPair> m_comparison;
    uint32_t m_nextId = 1;  // the value of the next DocumentId
};

}  // namespace marey

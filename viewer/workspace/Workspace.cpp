#include "workspace/Workspace.hpp"

#include <algorithm>
#include <string_view>

namespace marey {

ComparisonPair::ComparisonPair() = default;
ComparisonPair::~ComparisonPair() = default;

const Comparison* ComparisonPair::Ready() const {
    if (!diff.valid() || diff.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return nullptr;
    return &diff.get();
}

std::string LoadNotice::Text() const {
    if (cancelled) return "Cancelled loading " + path;
    if (path.empty()) return "Cannot open: " + reason;
    return "Cannot open " + path + ": " + reason;
}

LoadNotice MakeLoadNotice(const std::string& path, const std::string& message, bool cancelled) {
    LoadNotice notice;
    notice.path = path;
    notice.cancelled = cancelled;
    std::string_view reason = message;
    // A message of one of several ranks names its own path: "PATH: error: …".
    if (const size_t at = reason.find(": error: "); path.empty() && at != std::string::npos)
        notice.path = std::string(reason.substr(0, at)), reason.remove_prefix(at + 2);
    if (!path.empty() && reason.rfind(path + ": ", 0) == 0) reason.remove_prefix(path.size() + 2);
    if (reason.rfind("error: ", 0) == 0) reason.remove_prefix(7);
    notice.reason = reason.empty() ? "unknown error" : std::string(reason);
    return notice;
}

void Workspace::Notify(const std::string& path, const std::string& reason) {
    LoadNotice notice = MakeLoadNotice(path, reason, false);
    notice.serial = m_nextNotice++;
    m_notices.push_back(std::move(notice));
}

void Workspace::Dismiss(uint64_t serial) {
    m_notices.erase(std::remove_if(m_notices.begin(), m_notices.end(),
                                   [serial](const LoadNotice& n) { return n.serial == serial; }),
                    m_notices.end());
}

DocumentId Workspace::Open(const std::string& path) {
    const DocumentId id = DocumentId(m_nextId++);
    m_loads.Start(id, path);
    return id;
}

DocumentId Workspace::OpenOnce(const std::string& path) {
    for (const auto& document : m_documents)
        if (document->rank.path == path) return document->id;
    for (const LoadStatus& load : m_loads.Running())
        if (load.path == path) return load.id;
    return Open(path);
}

DocumentId Workspace::OpenRanks(const std::vector<std::string>& paths,
                                const std::string& alignStep) {
    const DocumentId id = DocumentId(m_nextId++);
    m_loads.StartRanks(id, paths, alignStep);
    return id;
}

void Workspace::RealignRanks(DocumentId id, const std::string& alignStep) {
    const Document* document = Find(id);
    if (!document || !document->ranks || m_loads.IsLoading(id)) return;
    m_loads.StartRanks(id, document->ranks->paths, alignStep);
}

void Workspace::OpenComparison(const std::string& pathA, const std::string& pathB) {
    const DocumentId a = DocumentId(m_nextId++);
    const DocumentId b = DocumentId(m_nextId++);
    m_loads.Start(a, pathA, 2);
    m_loads.Start(b, pathB, 2);
    Compare(a, b);
}

void Workspace::Compare(DocumentId a, DocumentId b, const ComparisonOptions& options) {
    std::unique_ptr<ComparisonPair> before = std::move(m_comparison);
    m_comparison = std::make_unique<ComparisonPair>();
    if (before && before->a == a && before->b == b) {
        before->replaced.reset();  // one generation is enough to hand over
        m_comparison->replaced = std::move(before);
    }
    m_comparison->a = a;
    m_comparison->b = b;
    m_comparison->options = options;
    StartDiffWhenLoaded();
}

void Workspace::Recompare(const ComparisonOptions& options) {
    if (!m_comparison) return;
    Compare(m_comparison->a, m_comparison->b, options);
}

void Workspace::StartDiffWhenLoaded() {
    if (!m_comparison || m_comparison->diff.valid()) return;
    const Document* a = Find(m_comparison->a);
    const Document* b = Find(m_comparison->b);
    if (!a || !b || a->analysisPending || b->analysisPending) return;
    // The documents are immutable and outlive the diff: Close() waits for it before freeing them.
    const LoadedRank* rankA = &a->rank;
    const LoadedRank* rankB = &b->rank;
    const ComparisonOptions options = m_comparison->options;
    m_comparison->diff = std::async(std::launch::async, [rankA, rankB, options] {
                             return CompareRanks(*rankA, *rankB, options);
                         }).share();
}

void Workspace::EndComparison() {
    // The diff reads both documents: it finishes before they can be closed.
    if (m_comparison && m_comparison->diff.valid()) m_comparison->diff.wait();
    m_comparison.reset();
}

void Workspace::Close(DocumentId id) {
    m_loads.Cancel(id);
    if (m_comparison && (m_comparison->a == id || m_comparison->b == id)) EndComparison();
    m_documents.erase(
        std::remove_if(m_documents.begin(), m_documents.end(),
                       [id](const std::unique_ptr<Document>& d) { return d->id == id; }),
        m_documents.end());
    m_clusters.erase(
        std::remove_if(m_clusters.begin(), m_clusters.end(),
                       [id](const std::unique_ptr<ClusterDocument>& c) { return c->id == id; }),
        m_clusters.end());
}

std::vector<DocumentId> Workspace::Poll() {
    std::vector<DocumentId> opened;
    bool analysed = false;
    for (LoadQueue::Finished& finished : m_loads.TakeFinished()) {
        if (finished.afterTimeline) {
            analysed |= TakeAnalyses(finished);
            continue;
        }
        if (finished.cluster) {
            opened.push_back(finished.id);
            m_clusters.push_back(std::move(finished.cluster));
            continue;
        }
        if (!finished.document) {
            m_errors.push_back(finished.error);
            LoadNotice notice = MakeLoadNotice(finished.path, finished.error, finished.cancelled);
            notice.serial = m_nextNotice++;
            m_notices.push_back(std::move(notice));
            if (m_comparison && (m_comparison->a == finished.id || m_comparison->b == finished.id))
                m_comparison.reset();
            continue;
        }
        opened.push_back(finished.id);
        for (const std::string& failure : finished.document->ranks
                                              ? finished.document->ranks->failures
                                              : std::vector<std::string>()) {
            m_errors.push_back(failure);
            Notify("", failure);
        }
        // Ranks aligned again take the place of the document they were before.
        auto same =
            std::find_if(m_documents.begin(), m_documents.end(),
                         [&](const std::unique_ptr<Document>& d) { return d->id == finished.id; });
        if (same != m_documents.end()) {
            if (m_comparison && (m_comparison->a == finished.id || m_comparison->b == finished.id))
                EndComparison();
            // The old one stays until its views have handed over what a person set up.
            finished.document->replaced = std::move(*same);
            *same = std::move(finished.document);
        } else {
            m_documents.push_back(std::move(finished.document));
        }
    }
    m_analysesArrived |= analysed;
    if (!opened.empty() || analysed) StartDiffWhenLoaded();
    return opened;
}

bool Workspace::TakeAnalyses(LoadQueue::Finished& finished) {
    Document* shown = Find(finished.id);
    if (!shown) return false;  // closed while its analyses were computed
    shown->analysisPending = false;
    if (!finished.document) {
        m_errors.push_back(finished.error);
        LoadNotice notice = MakeLoadNotice(finished.path, finished.error, finished.cancelled);
        notice.serial = m_nextNotice++;
        m_notices.push_back(std::move(notice));
        return false;
    }
    // The document on screen stays (its views point at it); what the load computed moves in. What
    // it showed before waits in 'replaced' until the views that read it are made again.
    std::unique_ptr<Document> whole = std::move(finished.document);
    std::swap(shown->rank, whole->rank);
    std::swap(shown->summary, whole->summary);
    std::swap(shown->timelineData, whole->timelineData);
    shown->hasOverlapAnalysis = whole->hasOverlapAnalysis;
    shown->analysisArrived = true;
    shown->replaced = std::move(whole);
    return true;
}

ClusterDocument* Workspace::FindCluster(DocumentId id) {
    for (auto& cluster : m_clusters)
        if (cluster->id == id) return cluster.get();
    return nullptr;
}

Document* Workspace::Find(DocumentId id) {
    for (auto& document : m_documents)
        if (document->id == id) return document.get();
    return nullptr;
}

}  // namespace marey

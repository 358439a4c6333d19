#include "load/MatrixLinkSums.hpp"

#include "core/Time.hpp"

namespace marey {

void MatrixLinkSums::Add(const CommunicationLinkView& entry) {
    const Key key{m_strings.Intern(entry.group), m_strings.Intern(entry.transport), entry.srcRank,
                  entry.dstRank};
    const auto [it, added] = m_index.try_emplace(key, m_links.size());
    if (added) {
        CommunicationLink link;
        link.kind = entry.kind;
        // As the matrix's reader names it: "Op Name", else the key without its group hash.
        link.opName =
            entry.opName.empty() ? entry.group.substr(0, entry.group.rfind('@')) : entry.opName;
        link.srcRank = entry.srcRank, link.dstRank = entry.dstRank;
        link.entries = 0;
        m_links.push_back(std::move(link));
        m_keys.push_back(key);
    }
    CommunicationLink& link = m_links[it->second];
    link.transitSizeMb += entry.transitSizeMb;
    link.transitNs = SaturatingAdd(link.transitNs, entry.transitNs);
    link.entries += entry.entries;
}

void MatrixLinkSums::Add(const CommunicationLink& link) {
    CommunicationLinkView view;
    view.kind = link.kind, view.group = link.group, view.opName = link.opName;
    view.srcRank = link.srcRank, view.dstRank = link.dstRank;
    view.transport = link.transport;
    view.transitSizeMb = link.transitSizeMb, view.transitNs = link.transitNs;
    view.entries = link.entries;
    Add(view);
}

std::vector<CommunicationLink> MatrixLinkSums::Finish() {
    for (size_t i = 0; i < m_links.size(); ++i) {
        m_links[i].group = m_strings.Get(m_keys[i].group);
        m_links[i].transport = m_strings.Get(m_keys[i].transport);
    }
    m_index.clear(), m_keys.clear();
    return std::move(m_links);
}

std::vector<CommunicationLink> SumMatrixLinks(const std::vector<CommunicationLink>& links) {
    MatrixLinkSums sums;
    for (const CommunicationLink& link : links) sums.Add(link);
    return sums.Finish();
}

}  // namespace marey

#include "workspace/Document.hpp"

#include <filesystem>

#include "timeline/TimelineData.hpp"

namespace marey {

Document::Document() = default;
Document::~Document() = default;

std::string Document::Title() const {
    if (ranks) {
        const auto& groups = rank.model->groups;
        if (groups.size() > 4) return std::to_string(groups.size()) + " ranks · one timeline";
        std::string title;
        for (const ProcessGroup& group : groups) title += (title.empty() ? "" : ", ") + group.label;
        return title + " · one timeline";
    }
    std::string file = std::filesystem::path(rank.path).filename().string();
    if (rank.source.rfind("database ", 0) == 0) file = rank.source.substr(9);
    const std::optional<RankId> rankId = rank.analysis ? rank.analysis->files.rankId : std::nullopt;
    return rankId ? "rank " + ToString(*rankId) + " · " + file : file;
}

std::string Document::Source() const {
    if (!ranks) return rank.path + (rank.source.empty() ? "" : " (" + rank.source + ")");
    std::string text;
    for (const std::string& path : ranks->paths) text += (text.empty() ? "" : "  ") + path;
    return text;
}

}  // namespace marey

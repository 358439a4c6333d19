#include "workspace/Document.hpp"

#include <filesystem>

namespace tracelens {

std::string Document::Title() const {
    const std::string file = std::filesystem::path(rank.path).filename().string();
    const int rankId = rank.analysis ? rank.analysis->files.rankId : -1;
    return rankId >= 0 ? "rank " + std::to_string(rankId) + " · " + file : file;
}

}  // namespace tracelens

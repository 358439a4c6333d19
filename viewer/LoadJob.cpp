#include "LoadJob.hpp"

#include "stats/LoadedRank.hpp"

namespace tracelens {

LoadJob::~LoadJob() {
    if (m_thread.joinable()) m_thread.join();
}

void LoadJob::Start(const std::string& path) {
    if (m_thread.joinable()) m_thread.join();
    m_path = path;
    m_progress.bytesDone = 0;
    m_progress.bytesTotal = 0;
    m_progress.stage = 0;
    m_finished = false;
    m_running = true;
    m_thread = std::thread([this, path] {
        auto result = LoadTrace(path, LoadOptions{}, &m_progress);
        std::unique_ptr<RankAnalysis> analysis;
        if (result.ok()) analysis = std::make_unique<RankAnalysis>(AnalyzeRank(FindRankFor(path), result.value().get()));
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (result.ok()) {
                m_model = std::move(result.value());
                m_analysis = std::move(analysis);
                m_error.clear();
            } else {
                m_model.reset();
                m_error = result.message();
            }
        }
        m_running = false;
        m_finished = true;
    });
}

float LoadJob::Fraction() const {
    const uint64_t total = m_progress.bytesTotal.load();
    if (total == 0) return 0.0f;
    const float parsed = static_cast<float>(m_progress.bytesDone.load()) / static_cast<float>(total);
    // Parsing is about three quarters of a load; indexing the rest.
    return m_progress.stage.load() >= 2 ? 0.8f : 0.75f * (parsed > 1.0f ? 1.0f : parsed);
}

const char* LoadJob::StageText() const {
    switch (m_progress.stage.load()) {
        case 0: return "reading";
        case 1: return "parsing events";
        case 2: return "building tracks and index";
        default: return "done";
    }
}

std::unique_ptr<TraceModel> LoadJob::Take(std::string* error) {
    if (m_thread.joinable()) m_thread.join();
    std::lock_guard<std::mutex> lock(m_mutex);
    m_finished = false;
    if (error) *error = m_error;
    return std::move(m_model);
}

}  // namespace tracelens

#pragma once
// Loads a trace on a background thread; the window keeps drawing and shows the progress.
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "load/TraceLoader.hpp"
#include "stats/RankAnalysis.hpp"

namespace tracelens {

class LoadJob {
public:
    LoadJob() = default;
    LoadJob(const LoadJob&) = delete;
    LoadJob& operator=(const LoadJob&) = delete;
    ~LoadJob();

    void Start(const std::string& path);
    bool Running() const { return m_running.load(); }
    // True once, when a finished load has not been taken yet.
    bool Finished() const { return m_finished.load(); }
    // 0..1 of the bytes parsed so far.
    float Fraction() const;
    const char* StageText() const;
    const std::string& Path() const { return m_path; }
    // The loaded model, or null with Error() set. Call once Finished() is true.
    std::unique_ptr<TraceModel> Take(std::string* error);
    // The rank folder's summaries, computed after the trace on the same thread (never null after
    // a successful load; its files are empty when the trace is not in a profiler folder).
    std::unique_ptr<RankAnalysis> TakeAnalysis() { return std::move(m_analysis); }

private:
    std::thread m_thread;
    std::string m_path;
    LoadProgress m_progress;
    std::atomic<bool> m_running{false};
    std::atomic<bool> m_finished{false};
    std::mutex m_mutex;
    std::unique_ptr<TraceModel> m_model;
    std::unique_ptr<RankAnalysis> m_analysis;
    std::string m_error;
};

}  // namespace tracelens

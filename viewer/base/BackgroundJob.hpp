#pragma once
// Runs one computation at a time off the UI thread and keeps only the newest request: a request
// made while one runs waits, replacing any request that waited before it, so that typing a
// search or dragging a range never queues stale work. The frame only asks TakeResult().
#include <chrono>
#include <functional>
#include <future>
#include <optional>

namespace marey {

template <typename Result>
class BackgroundJob {
public:
    BackgroundJob() = default;
    BackgroundJob(const BackgroundJob&) = delete;
    BackgroundJob& operator=(const BackgroundJob&) = delete;
    // Waits for the running computation: it may read what the owner is about to free.
    ~BackgroundJob() {
        if (m_running.valid()) m_running.wait();
    }

    // Asks for 'work' to run; what it reads must stay alive and unchanged until it is done.
    void Request(std::function<Result()> work) {
        m_waiting = std::move(work);
        LaunchWaiting();
    }
    // True while a computation runs or waits.
    bool Busy() const { return m_running.valid() || m_waiting; }
    // The result of the newest request once it is done, exactly once; nullopt before. Results of
    // requests that a newer one replaced while they ran are dropped.
    std::optional<Result> TakeResult() {
        if (!m_running.valid() ||
            m_running.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
            return std::nullopt;
        Result result = m_running.get();
        const bool stale = static_cast<bool>(m_waiting);
        LaunchWaiting();
        if (stale) return std::nullopt;
        return result;
    }
    // Blocks until the newest request is done (headless runs that must show its result at once).
    std::optional<Result> Wait() {
        for (;;) {
            if (!m_running.valid()) return std::nullopt;
            m_running.wait();
            if (auto result = TakeResult()) return result;
        }
    }

private:
    void LaunchWaiting() {
        if (m_running.valid() || !m_waiting) return;
        m_running = std::async(std::launch::async, std::move(m_waiting));
        m_waiting = nullptr;
    }

    std::future<Result> m_running;
    std::function<Result()> m_waiting;
};

}  // namespace marey

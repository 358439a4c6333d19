#pragma once
// A thread that its owner joins before it goes: work that reads an object (the index cache
// written from a model) is a member of that object and never outlives it.
#include <thread>
#include <utility>

namespace marey {

class JoinedThread {
public:
    JoinedThread() = default;
    // Not movable: the work holds a reference to the object this is a member of, which must not
    // move either.
    JoinedThread(const JoinedThread&) = delete;
    JoinedThread& operator=(const JoinedThread&) = delete;
    ~JoinedThread() { Join(); }

    // Runs 'work' on a new thread, after waiting for the previous work to end.
    template <typename Work>
    void Start(Work&& work) {
        Join();
        m_thread = std::thread(std::forward<Work>(work));
    }
    // Waits for the work to end; returns at once when there is none.
    void Join() {
        if (m_thread.joinable()) m_thread.join();
    }

private:
    std::thread m_thread;
};

}  // namespace marey

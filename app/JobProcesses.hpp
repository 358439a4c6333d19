#pragma once
// The processes of a job that `marey summarize` runs as: every process of MPI_COMM_WORLD when
// mpirun or srun started it (and this build has MPI), else this process alone. Only the thread
// that made it may call it (MPI_THREAD_FUNNELED).
#include <string>
#include <vector>

namespace marey {

class JobProcesses {
public:
    // Joins the job when a launcher started this process; never when run by hand, so that a plain
    // `marey summarize` needs no MPI runtime.
    JobProcesses(int& argc, char**& argv);
    ~JobProcesses();
    JobProcesses(const JobProcesses&) = delete;
    JobProcesses& operator=(const JobProcesses&) = delete;

    int Index() const { return m_index; }
    int Count() const { return m_count; }
    bool IsFirst() const { return m_index == 0; }
    const std::string& Host() const { return m_host; }
    // Whether this is the first process of its node: the one that looks at the node's files.
    bool LeadsNode() const { return m_leadsNode; }

    // Every process's 'text' on process 0, by process index; nothing elsewhere. Collective.
    std::vector<std::string> GatherOnFirst(const std::string& text);
    // Process 0's 'text' on every process. Collective.
    std::string BroadcastFromFirst(const std::string& text);
    // Sends 'text' to process 0, 'last' with the final one (another process must not send
    // after it). Blocks until process 0 can take it.
    void SendToFirst(const std::string& text, bool last);
    // On process 0: takes one message from another process if one has arrived, without waiting.
    bool TryReceive(std::string& text, int& from, bool& last);
    // Ends every process of the job with 'code' (a fault that leaves nothing to gather).
    [[noreturn]] void Abort(int code);

private:
    int m_index = 0, m_count = 1;
    bool m_leadsNode = true, m_joined = false;
    std::string m_host;
};

}  // namespace marey

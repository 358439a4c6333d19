#include "JobProcesses.hpp"

#include <unistd.h>

#include <cstdlib>

#ifdef MAREY_WITH_MPI
#include <mpi.h>
#endif

namespace marey {
namespace {

// Set by mpirun (OpenMPI, MPICH, Intel MPI) or srun in every process it starts.
bool StartedByLauncher() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(name)) return true;
    return false;
}

std::string HostName() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "localhost";
    return name;
}

#ifdef MAREY_WITH_MPI
constexpr int kLineTag = 1, kLastTag = 2;
#endif

}  // namespace

JobProcesses::JobProcesses(int& argc, char**& argv) : m_host(HostName()) {
#ifdef MAREY_WITH_MPI
    if (!StartedByLauncher()) return;
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    m_joined = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &m_index);
    MPI_Comm_size(MPI_COMM_WORLD, &m_count);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m_index, MPI_INFO_NULL, &node);
    int indexOnNode = 0;
    MPI_Comm_rank(node, &indexOnNode);
    MPI_Comm_free(&node);
    m_leadsNode = indexOnNode == 0;
#else
    (void)argc, (void)argv;
    (void)StartedByLauncher;
#endif
}

JobProcesses::~JobProcesses() {
#ifdef MAREY_WITH_MPI
    if (m_joined) MPI_Finalize();
#endif
}

std::vector<std::string> JobProcesses::GatherOnFirst(const std::string& text) {
    if (m_count == 1) return {text};
#ifdef MAREY_WITH_MPI
    const int size = static_cast<int>(text.size());
    std::vector<int> sizes(IsFirst() ? m_count : 0), offsets(IsFirst() ? m_count : 0);
    MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::string all;
    if (IsFirst()) {
        long total = 0;
        for (int p = 0; p < m_count; ++p) offsets[p] = static_cast<int>(total), total += sizes[p];
        all.resize(static_cast<size_t>(total));
    }
    MPI_Gatherv(text.data(), size, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR, 0,
                MPI_COMM_WORLD);
    std::vector<std::string> texts;
    for (int p = 0; IsFirst() && p < m_count; ++p)
        texts.push_back(all.substr(static_cast<size_t>(offsets[p]), static_cast<size_t>(sizes[p])));
    return texts;
#else
    return {text};
#endif
}

std::string JobProcesses::BroadcastFromFirst(const std::string& text) {
    if (m_count == 1) return text;
#ifdef MAREY_WITH_MPI
    unsigned long size = text.size();
    MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);
    std::string copy = IsFirst() ? text : std::string(size, '\0');
    MPI_Bcast(copy.data(), static_cast<int>(size), MPI_CHAR, 0, MPI_COMM_WORLD);
    return copy;
#else
    return text;
#endif
}

void JobProcesses::SendToFirst(const std::string& text, bool last) {
#ifdef MAREY_WITH_MPI
    if (m_count > 1)
        MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0,
                 last ? kLastTag : kLineTag, MPI_COMM_WORLD);
#else
    (void)text, (void)last;
#endif
}

bool JobProcesses::TryReceive(std::string& text, int& from, bool& last) {
#ifdef MAREY_WITH_MPI
    if (m_count == 1) return false;
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
    if (!arrived) return false;
    int size = 0;
    MPI_Get_count(&status, MPI_CHAR, &size);
    text.assign(static_cast<size_t>(size), '\0');
    MPI_Recv(text.data(), size, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    from = status.MPI_SOURCE;
    last = status.MPI_TAG == kLastTag;
    return true;
#else
    (void)text, (void)from, (void)last;
    return false;
#endif
}

void JobProcesses::Abort(int code) {
#ifdef MAREY_WITH_MPI
    if (m_joined) MPI_Abort(MPI_COMM_WORLD, code);
#endif
    std::exit(code);
}

}  // namespace marey

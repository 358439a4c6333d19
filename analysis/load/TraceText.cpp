#include "load/TraceText.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace marey {
namespace {

constexpr uint64_t kPageBytes = 4096;

uint64_t RoundUpToPage(uint64_t bytes) {
    return (bytes + kPageBytes - 1) / kPageBytes * kPageBytes;
}

uint64_t AvailableMemoryBytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    uint64_t kilobytes = 0;
    std::string unit;
    while (meminfo >> key >> kilobytes >> unit) {
        if (key == "MemAvailable:") return kilobytes * 1024;
    }
    return 8ull << 30;
}

// SIGBUS guard: reading a mapped page past the end of a file that another process truncated
// raises SIGBUS. The handler maps a zero page over the faulting page of one of our mappings,
// marks it, and lets the read go on, so the load ends with a message instead of a crash.
constexpr int kGuardSlots = 64;
struct GuardSlot {
    std::atomic<uintptr_t> begin{0};
    std::atomic<uintptr_t> end{0};
    std::atomic<bool> faulted{false};
};
GuardSlot g_guards[kGuardSlots];
std::atomic<bool> g_handlerInstalled{false};
struct sigaction g_previousHandler {};

void OnSigbus(int signal, siginfo_t* info, void* context) {
    const uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
    for (GuardSlot& slot : g_guards) {
        if (address >= slot.begin.load() && address < slot.end.load()) {
            void* page = reinterpret_cast<void*>(address & ~(kPageBytes - 1));
            mmap(page, kPageBytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            slot.faulted.store(true);
            return;
        }
    }
    // Not ours: behave as if we were never here.
    if (g_previousHandler.sa_flags & SA_SIGINFO) {
        g_previousHandler.sa_sigaction(signal, info, context);
    } else if (g_previousHandler.sa_handler != SIG_IGN && g_previousHandler.sa_handler != SIG_DFL) {
        g_previousHandler.sa_handler(signal);
    } else {
        ::signal(SIGBUS, SIG_DFL);
        raise(SIGBUS);
    }
}

int GuardMapping(const void* begin, uint64_t bytes) {
    if (!g_handlerInstalled.exchange(true)) {
        struct sigaction action {};
        action.sa_sigaction = OnSigbus;
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        sigaction(SIGBUS, &action, &g_previousHandler);
    }
    for (int i = 0; i < kGuardSlots; ++i) {
        uintptr_t expected = 0;
        if (g_guards[i].end.load() == 0 && g_guards[i].begin.compare_exchange_strong(expected, 1)) {
            g_guards[i].faulted = false;
            g_guards[i].end = reinterpret_cast<uintptr_t>(begin) + bytes;
            g_guards[i].begin = reinterpret_cast<uintptr_t>(begin);
            return i;
        }
    }
    return -1;  // more than 64 files open at once: the rest are unguarded
}

void Unguard(int slot) {
    if (slot < 0) return;
    g_guards[slot].end = 0;
    g_guards[slot].begin = 0;
}

std::string Errno(const std::string& path, const char* what) {
    return path + ": error: cannot " + what + ": " + std::strerror(errno);
}

// Inflates a gzip stream (several members allowed) into 'out', stopping at 'limitBytes'.
void Inflate(const unsigned char* input, uint64_t inputBytes, uint64_t limitBytes,
             PodArray<char>& out, std::vector<ImportProblem>& problems) {
    // The last four bytes of a gzip member hold its size modulo 2^32: a good first reservation.
    uint64_t hint = inputBytes * 4;
    if (inputBytes >= 4) {
        uint32_t size32;
        std::memcpy(&size32, input + inputBytes - 4, 4);
        if (size32 > hint) hint = size32;
    }
    out.reserve(std::min(hint, limitBytes) + kTextPaddingBytes);

    z_stream stream{};
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) {
        problems.push_back({0, 0, 0, "cannot start zlib inflation"});
        return;
    }
    constexpr uint64_t kOutputStep = 1 << 20;
    uint64_t fed = 0;  // input bytes handed to zlib so far
    bool ended = false;
    for (;;) {
        if (stream.avail_in == 0) {
            if (fed >= inputBytes) break;
            stream.next_in = const_cast<unsigned char*>(input + fed);
            stream.avail_in = static_cast<uInt>(std::min<uint64_t>(inputBytes - fed, 1u << 30));
            fed += stream.avail_in;
        }
        if (out.size() >= limitBytes) {
            problems.push_back({out.size(), 0, 0,
                                "inflated text exceeds the memory limit of " +
                                    std::to_string(limitBytes) +
                                    " bytes; the rest of the compressed file was not read"});
            inflateEnd(&stream);
            return;
        }
        const uint64_t room = std::min<uint64_t>(kOutputStep, limitBytes - out.size());
        const uint64_t before = out.size();
        out.resize(before + room);
        stream.next_out = reinterpret_cast<unsigned char*>(out.data() + before);
        stream.avail_out = static_cast<uInt>(room);
        const int status = inflate(&stream, Z_NO_FLUSH);
        out.resize(before + room - stream.avail_out);
        if (status == Z_STREAM_END) {
            // Another gzip member may follow: concatenated .gz files are valid.
            const uint64_t next = fed - stream.avail_in;
            if (next < inputBytes && input[next] == 0x1f) {
                inflateReset(&stream);
                continue;
            }
            // Anything else after the gzip data is not read: named, unless it is zeros (what
            // block-padded writers leave), so that a damaged tail is never passed over silently.
            if (next < inputBytes &&
                std::any_of(input + next, input + inputBytes, [](unsigned char c) { return c; }))
                problems.push_back(
                    {out.size(), 0, 0,
                     std::to_string(inputBytes - next) + " bytes after the gzip data (from byte " +
                         std::to_string(next) +
                         " of the compressed file) are not another gzip member; not read"});
            ended = true;
            break;
        }
        if (status == Z_BUF_ERROR || status == Z_OK) continue;
        problems.push_back({out.size(), 0, 0,
                            std::string("compressed data is corrupt (zlib: ") +
                                (stream.msg ? stream.msg : "error") + ") after " +
                                std::to_string(out.size()) + " inflated bytes"});
        inflateEnd(&stream);
        return;
    }
    inflateEnd(&stream);
    if (!ended) {
        problems.push_back({out.size(), 0, 0,
                            "compressed file is truncated: the gzip stream ends early, after " +
                                std::to_string(out.size()) + " inflated bytes"});
    }
}

}  // namespace

TraceText::TraceText(TraceText&& other) noexcept {
    *this = std::move(other);
}

TraceText& TraceText::operator=(TraceText&& other) noexcept {
    if (this == &other) return *this;
    Reset();
    m_data = other.m_data;
    m_size = other.m_size;
    m_fileBytes = other.m_fileBytes;
    m_mapping = other.m_mapping;
    m_mappingBytes = other.m_mappingBytes;
    m_read = std::move(other.m_read);
    m_inflated = std::move(other.m_inflated);
    m_compressed = other.m_compressed;
    m_guardSlot = other.m_guardSlot;
    m_problems = std::move(other.m_problems);
    other.m_guardSlot = -1;
    other.m_data = nullptr;
    other.m_mapping = nullptr;
    other.m_size = other.m_mappingBytes = 0;
    return *this;
}

TraceText::~TraceText() {
    Reset();
}

bool TraceText::ShrankWhileMapped() const {
    return m_guardSlot >= 0 && g_guards[m_guardSlot].faulted.load();
}

void TraceText::Reset() {
    Unguard(m_guardSlot);
    m_guardSlot = -1;
    if (m_mapping) munmap(m_mapping, m_mappingBytes);
    m_mapping = nullptr;
    m_mappingBytes = 0;
    m_read.reset();
    m_inflated.Release();
    m_data = nullptr;
    m_size = 0;
}

TraceText TraceText::FromString(const std::string& text) {
    TraceText result;
    result.m_inflated.resize(text.size() + kTextPaddingBytes);
    std::memcpy(result.m_inflated.data(), text.data(), text.size());
    std::memset(result.m_inflated.data() + text.size(), 0, kTextPaddingBytes);
    result.m_data = result.m_inflated.data();
    result.m_size = text.size();
    result.m_fileBytes = text.size();
    return result;
}

Status TraceText::ReadSmall(int fd, const std::string& path, const TraceTextOptions& options) {
    // One allocation with the padding zeroed; a file that shrinks meanwhile is read as it is now.
    m_read.reset(new char[m_fileBytes + kTextPaddingBytes]);
    uint64_t got = 0;
    while (got < m_fileBytes) {
        const ssize_t n = ::read(fd, m_read.get() + got, m_fileBytes - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return Status::Error(Errno(path, "read the file"));
        if (n == 0) break;
        got += static_cast<uint64_t>(n);
    }
    std::memset(m_read.get() + got, 0, kTextPaddingBytes);
    m_data = m_read.get();
    m_size = got;
    const auto* bytes = reinterpret_cast<const unsigned char*>(m_data);
    if (got >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b) {
        uint64_t limit =
            options.maxInflatedBytes ? options.maxInflatedBytes : AvailableMemoryBytes() / 4 * 3;
        limit = std::min(limit, kMaxTextBytes - 1);
        Inflate(bytes, got, limit, m_inflated, m_problems);
        m_read.reset();
        const uint64_t inflated = m_inflated.size();
        m_inflated.resize(inflated + kTextPaddingBytes);
        std::memset(m_inflated.data() + inflated, 0, kTextPaddingBytes);
        m_data = m_inflated.data();
        m_size = inflated;
        m_compressed = true;
    }
    return Status();
}

Result<TraceText> TraceText::Open(const std::string& path, const TraceTextOptions& options) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Status::Error(Errno(path, "open the file"));
    struct stat info {};
    if (fstat(fd, &info) != 0) {
        const Status status = Status::Error(Errno(path, "read the file's size"));
        ::close(fd);
        return status;
    }
    if (S_ISDIR(info.st_mode)) {
        ::close(fd);
        return Status::Error(path + ": error: is a directory, not a trace file");
    }
    const uint64_t fileBytes = static_cast<uint64_t>(info.st_size);
    if (fileBytes >= kMaxTextBytes) {
        ::close(fd);
        return Status::Error(path + ": error: the file is " + std::to_string(fileBytes) +
                             " bytes; traces of 1 TiB or more are not supported");
    }
    TraceText text;
    text.m_fileBytes = fileBytes;
    if (fileBytes == 0) {
        ::close(fd);
        text.m_inflated.resize(kTextPaddingBytes);
        std::memset(text.m_inflated.data(), 0, kTextPaddingBytes);
        text.m_data = text.m_inflated.data();
        return text;
    }
    if (fileBytes <= kReadBelowBytes) {
        const Status read = text.ReadSmall(fd, path, options);
        ::close(fd);
        if (!read.ok()) return read;
        return text;
    }
    // Reserve the file's pages plus at least one page of padding, then map the file over the
    // front: bytes past the end of the file read as zeros, also when its size is a page multiple.
    const uint64_t mappingBytes = RoundUpToPage(fileBytes + kTextPaddingBytes);
    void* reserved =
        mmap(nullptr, mappingBytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reserved == MAP_FAILED) {
        const Status status = Status::Error(Errno(path, "reserve address space for the file"));
        ::close(fd);
        return status;
    }
    void* mapped = mmap(reserved, fileBytes, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
    ::close(fd);
    if (mapped == MAP_FAILED) {
        munmap(reserved, mappingBytes);
        return Status::Error(Errno(path, "map the file"));
    }
    madvise(mapped, fileBytes, MADV_SEQUENTIAL);
    const auto* bytes = static_cast<const unsigned char*>(mapped);
    if (fileBytes >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b) {
        uint64_t limit =
            options.maxInflatedBytes ? options.maxInflatedBytes : AvailableMemoryBytes() / 4 * 3;
        limit = std::min(limit, kMaxTextBytes - 1);
        Inflate(bytes, fileBytes, limit, text.m_inflated, text.m_problems);
        munmap(reserved, mappingBytes);
        const uint64_t inflated = text.m_inflated.size();
        text.m_inflated.resize(inflated + kTextPaddingBytes);
        std::memset(text.m_inflated.data() + inflated, 0, kTextPaddingBytes);
        text.m_data = text.m_inflated.data();
        text.m_size = inflated;
        text.m_compressed = true;
        return text;
    }
    text.m_mapping = reserved;
    text.m_mappingBytes = mappingBytes;
    text.m_guardSlot = GuardMapping(mapped, fileBytes);
    text.m_data = static_cast<const char*>(mapped);
    text.m_size = fileBytes;
    return text;
}

}  // namespace marey

#include "load/TraceText.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace tracelens {
namespace {

constexpr uint64_t kPageBytes = 4096;

uint64_t RoundUpToPage(uint64_t bytes) { return (bytes + kPageBytes - 1) / kPageBytes * kPageBytes; }

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
                                "inflated text exceeds the memory limit of " + std::to_string(limitBytes) +
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
            ended = true;
            break;
        }
        if (status == Z_BUF_ERROR || status == Z_OK) continue;
        problems.push_back({out.size(), 0, 0,
                            std::string("compressed data is corrupt (zlib: ") + (stream.msg ? stream.msg : "error") +
                                ") after " + std::to_string(out.size()) + " inflated bytes"});
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

TraceText::TraceText(TraceText&& other) noexcept { *this = std::move(other); }

TraceText& TraceText::operator=(TraceText&& other) noexcept {
    if (this == &other) return *this;
    Reset();
    m_data = other.m_data;
    m_size = other.m_size;
    m_fileBytes = other.m_fileBytes;
    m_mapping = other.m_mapping;
    m_mappingBytes = other.m_mappingBytes;
    m_inflated = std::move(other.m_inflated);
    m_compressed = other.m_compressed;
    m_problems = std::move(other.m_problems);
    other.m_data = nullptr;
    other.m_mapping = nullptr;
    other.m_size = other.m_mappingBytes = 0;
    return *this;
}

TraceText::~TraceText() { Reset(); }

void TraceText::Reset() {
    if (m_mapping) munmap(m_mapping, m_mappingBytes);
    m_mapping = nullptr;
    m_mappingBytes = 0;
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
    TraceText text;
    text.m_fileBytes = fileBytes;
    if (fileBytes == 0) {
        ::close(fd);
        text.m_inflated.resize(kTextPaddingBytes);
        std::memset(text.m_inflated.data(), 0, kTextPaddingBytes);
        text.m_data = text.m_inflated.data();
        return text;
    }
    // Reserve the file's pages plus at least one page of padding, then map the file over the
    // front: bytes past the end of the file read as zeros, also when its size is a page multiple.
    const uint64_t mappingBytes = RoundUpToPage(fileBytes + kTextPaddingBytes);
    void* reserved = mmap(nullptr, mappingBytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
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
        uint64_t limit = options.maxInflatedBytes ? options.maxInflatedBytes : AvailableMemoryBytes() / 4 * 3;
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
    text.m_data = static_cast<const char*>(mapped);
    text.m_size = fileBytes;
    return text;
}

}  // namespace tracelens

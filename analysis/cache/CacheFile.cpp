#include "cache/CacheFile.hpp"

#include "core/TextFormat.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace marey {
namespace {

// Small values gather in a buffer of this size; larger writes go straight from the arrays to the
// file, in pieces of kPieceBytes, each checksummed while it is still in the core's cache.
constexpr size_t kBufferBytes = 256 << 10;
constexpr size_t kPieceBytes = 4 << 20;

#ifdef MADV_POPULATE_READ
constexpr int kPopulateRead = MADV_POPULATE_READ;
#else
constexpr int kPopulateRead = 22;
#endif

std::string ErrorText() {
    return std::strerror(errno);
}

// write() until every byte is out; false on an error.
bool WriteAll(int fd, const char* data, size_t bytes) {
    while (bytes > 0) {
        const ssize_t written = ::write(fd, data, bytes);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return false;
        data += written;
        bytes -= static_cast<size_t>(written);
    }
    return true;
}

// A name no other writer uses at the same time: the process id and a counter.
std::string TemporaryName(const std::string& path) {
    static std::atomic<uint64_t> next{0};
    return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(next++);
}

std::string MegabytesText(uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
    return text;
}

// "0.6 MB of 1.2 MB"; in bytes when the two read the same in MB ("1241095 of 1241096 bytes").
std::string SizesText(uint64_t bytes, uint64_t expected) {
    if (MegabytesText(bytes) != MegabytesText(expected))
        return MegabytesText(bytes) + " of " + MegabytesText(expected);
    return std::to_string(bytes) + " of " + std::to_string(expected) + " bytes";
}

uint32_t HeaderChecksum(CacheHeader header, std::string_view path) {
    header.headerChecksum = 0;
    Checksum checksum;
    checksum.Add(&header, sizeof header);
    checksum.Add(path.data(), path.size());
    return static_cast<uint32_t>(checksum.Value());
}

std::string BytesText(uint64_t bytes) {
    return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

}  // namespace

// [SECTION] Writing

Result<std::unique_ptr<CacheFileWriter>> CacheFileWriter::Create(const std::string& path,
                                                                 const CacheKey& key,
                                                                 const CacheFormat& format) {
    if (key.path.size() > kMaxCachedPathBytes)
        return Status::Error("the trace's path is longer than " +
                             std::to_string(kMaxCachedPathBytes) + " bytes");
    std::unique_ptr<CacheFileWriter> writer(new CacheFileWriter());
    writer->m_path = path;
    writer->m_tempPath = TemporaryName(path);
    writer->m_fd =
        ::open(writer->m_tempPath.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (writer->m_fd < 0)
        return Status::Error("cannot create " + writer->m_tempPath + ": " + ErrorText());
    std::memcpy(writer->m_header.magic, kCacheMagic, sizeof kCacheMagic);
    writer->m_header.version = format.version;
    writer->m_header.layout = format.layout;
    writer->m_header.sourceBytes = key.sizeBytes;
    writer->m_header.sourceMtimeNs = key.mtimeNs;
    writer->m_header.pathBytes = static_cast<uint32_t>(key.path.size());
    // The header is written again by Commit, with the payload's length and checksum.
    writer->m_buffer.reserve(kBufferBytes);
    const char* header = reinterpret_cast<const char*>(&writer->m_header);
    writer->m_buffer.insert(writer->m_buffer.end(), header, header + sizeof(CacheHeader));
    writer->m_buffer.insert(writer->m_buffer.end(), key.path.begin(), key.path.end());
    writer->m_headerBytes = writer->m_buffer.size();
    writer->m_keyPath = key.path;
    return writer;
}

CacheFileWriter::~CacheFileWriter() {
    if (m_fd >= 0) ::close(m_fd);
    if (!m_committed && !m_tempPath.empty()) ::unlink(m_tempPath.c_str());
}

void CacheFileWriter::Fail(const std::string& what) {
    if (m_status.ok()) m_status = Status::Error("cannot write " + m_tempPath + ": " + what);
}

void CacheFileWriter::Flush() {
    if (m_status.ok() && !WriteAll(m_fd, m_buffer.data(), m_buffer.size())) Fail(ErrorText());
    m_buffer.clear();
}

void CacheFileWriter::PadToPage() {
    static const char kZeros[kCachePageBytes] = {};
    const uint64_t at = m_headerBytes + m_payloadBytes;
    Write(kZeros, (kCachePageBytes - at % kCachePageBytes) % kCachePageBytes);
}

void CacheFileWriter::Write(const void* data, size_t bytes) {
    if (!m_status.ok() || bytes == 0) return;  // an empty array's data may be null
    const char* p = static_cast<const char*>(data);
    m_payloadBytes += bytes;
    if (m_buffer.size() + bytes <= kBufferBytes) {
        m_checksum.Add(p, bytes);
        m_buffer.insert(m_buffer.end(), p, p + bytes);
        return;
    }
    Flush();
    for (size_t done = 0; done < bytes && m_status.ok();) {
        const size_t piece = std::min(kPieceBytes, bytes - done);
        m_checksum.Add(p + done, piece);
        if (!WriteAll(m_fd, p + done, piece)) Fail(ErrorText());
        done += piece;
    }
}

Result<uint64_t> CacheFileWriter::Commit() {
    Flush();
    if (!m_status.ok()) return m_status;
    m_header.payloadBytes = m_payloadBytes;
    m_header.payloadChecksum = m_checksum.Value();
    m_header.headerChecksum = HeaderChecksum(m_header, m_keyPath);
    if (::pwrite(m_fd, &m_header, sizeof m_header, 0) != static_cast<ssize_t>(sizeof m_header))
        Fail(ErrorText());
    // Without fsync: a cache is not worth a wait for the disk. A file that a crash leaves with
    // holes fails its checksum and is written again.
    if (m_status.ok() && ::close(m_fd) != 0) Fail(ErrorText());
    m_fd = -1;
    if (m_status.ok() && ::rename(m_tempPath.c_str(), m_path.c_str()) != 0)
        m_status =
            Status::Error("cannot rename " + m_tempPath + " to " + m_path + ": " + ErrorText());
    if (!m_status.ok()) return m_status;
    m_committed = true;
    return m_headerBytes + m_payloadBytes;
}

bool CacheFileIsFolder(const std::string& path) {
    struct stat info {};
    return ::lstat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

std::string RewriteNote(const std::string& path, const char* subject) {
    if (CacheFileIsFolder(path)) return "";
    return std::string("; ") + subject + (std::string(subject) == "it" ? " is" : " are") +
           " written again after this load";
}

// [SECTION] Reading

Result<std::unique_ptr<CacheFileReader>> CacheFileReader::Open(const std::string& path,
                                                               const CacheKey& key,
                                                               const CacheFormat& format) {
    std::unique_ptr<CacheFileReader> reader(new CacheFileReader());
    reader->m_path = path;
    // Without blocking: a FIFO in the file's place would wait for a writer forever.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR) return Status::Error("");  // no cache yet
        struct stat info {};
        if (errno == ENXIO && ::stat(path.c_str(), &info) == 0 && S_ISSOCK(info.st_mode))
            return Status::Error("it is not a file but a socket");
        return Status::Error("cannot open it: " + ErrorText());
    }
    struct stat info {};
    const bool statted = ::fstat(fd, &info) == 0;
    if (statted && !S_ISREG(info.st_mode)) {
        ::close(fd);
        // A file is renamed over anything but a folder: only a folder must go by hand.
        return Status::Error(std::string("it is not a file but ") +
                             (S_ISDIR(info.st_mode) ? "a folder (remove it so that the cache can "
                                                      "be written)"
                              : S_ISFIFO(info.st_mode) ? "a pipe"
                              : S_ISSOCK(info.st_mode) ? "a socket"
                                                       : "a device"));
    }
    const uint64_t fileBytes = statted ? static_cast<uint64_t>(info.st_size) : 0;
    if (statted && fileBytes >= sizeof(CacheHeader)) {
        // Private and writable: the arrays that take pages of it may change them in the process
        // (copy on write), never in the file.
        void* mapped = ::mmap(nullptr, fileBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        if (mapped != MAP_FAILED) {
            reader->m_base = static_cast<char*>(mapped);
            reader->m_mappedBytes = fileBytes;
        }
    }
    const std::string error = ErrorText();
    ::close(fd);
    if (!statted) return Status::Error("cannot read it: " + error);
    if (fileBytes < sizeof(CacheHeader))
        return Status::Error("it is shorter than a cache file's header (" + BytesText(fileBytes) +
                             ")");
    if (!reader->m_base) return Status::Error("cannot map it: " + error);
    if (Status fits = reader->CheckHeader(key, format, fileBytes); !fits.ok()) return fits;
    return reader;
}

Status CacheFileReader::CheckHeader(const CacheKey& key, const CacheFormat& format,
                                    uint64_t fileBytes) {
    CacheHeader header{};
    std::memcpy(&header, m_base, sizeof header);
    if (std::memcmp(header.magic, kCacheMagic, sizeof kCacheMagic) != 0)
        return Status::Error("it is not an index cache file (no MAREYIDX at its start)");
    if (header.version != format.version)
        return Status::Error("it was written in format " + std::to_string(header.version) +
                             ", this marey reads format " + std::to_string(format.version));
    if (header.layout != format.layout)
        return Status::Error("it was written by a build whose records have other sizes");
    if (header.pathBytes > kMaxCachedPathBytes || sizeof header + header.pathBytes > fileBytes)
        return Status::Error("its header is cut short or damaged (it names a path of " +
                             BytesText(header.pathBytes) + " in a file of " + BytesText(fileBytes) +
                             ")");
    const std::string_view cachedPath(m_base + sizeof header, header.pathBytes);
    if (header.headerChecksum != HeaderChecksum(header, cachedPath))
        return Status::Error("its header is damaged (its checksum does not match)");
    if (cachedPath != key.path)
        return Status::Error("it was written for " + QuoteForMessage(cachedPath, 4096));
    if (header.sourceBytes != key.sizeBytes || header.sourceMtimeNs != key.mtimeNs)
        return Status::Error("the trace changed since it was written (size or modification time)");
    const uint64_t payloadAt = sizeof header + header.pathBytes;
    if (header.payloadBytes > fileBytes - payloadAt)
        return Status::Error("it is truncated: " +
                             SizesText(fileBytes, payloadAt + header.payloadBytes));
    if (header.payloadBytes < fileBytes - payloadAt)
        return Status::Error("it is longer than its header says: " + BytesText(fileBytes) +
                             ", not " + BytesText(payloadAt + header.payloadBytes));
    // The pages are the page cache's already: one call maps them all, instead of a fault for
    // every few. It fails on kernels before 5.14, and the checksum then faults them in.
    ::madvise(m_base, m_mappedBytes, kPopulateRead);
    Checksum checksum;
    checksum.Add(m_base + payloadAt, header.payloadBytes);
    if (checksum.Value() != header.payloadChecksum)
        return Status::Error("it is damaged: its checksum does not match its contents");
    m_at = payloadAt;
    m_payloadChecksum = header.payloadChecksum;
    m_payloadEnd = payloadAt + header.payloadBytes;
    return Status();
}

CacheFileReader::~CacheFileReader() {
    if (!m_base) return;
    // Every page no array took goes back; the arrays unmap theirs when they go.
    const uint64_t mappedEnd =
        (m_mappedBytes + kCachePageBytes - 1) / kCachePageBytes * kCachePageBytes;
    uint64_t from = 0;
    for (const auto& [begin, end] : m_taken) {
        if (begin > from) ::munmap(m_base + from, begin - from);
        from = end;
    }
    if (mappedEnd > from) ::munmap(m_base + from, mappedEnd - from);
}

void CacheFileReader::Refuse(const std::string& reason) {
    if (m_refused.empty()) m_refused = reason;
}

bool CacheFileReader::CountFits(uint64_t count, size_t elementBytes) {
    if (count <= Remaining() / elementBytes) return true;
    Refuse("it is damaged: a count of " + std::to_string(count) + " is more than the file holds");
    return false;
}

bool CacheFileReader::Read(void* data, size_t bytes) {
    if (!m_refused.empty()) return false;
    if (bytes > Remaining()) {
        Refuse("it is damaged: it ends inside a record");
        return false;
    }
    if (bytes > 0) std::memcpy(data, m_base + m_at, bytes);  // an empty array's data may be null
    m_at += bytes;
    return true;
}

bool CacheFileReader::SkipToPage() {
    const uint64_t next = (m_at + kCachePageBytes - 1) / kCachePageBytes * kCachePageBytes;
    if (!m_refused.empty() || next > m_payloadEnd) {
        Refuse("it is damaged: it ends inside a record");
        return false;
    }
    m_at = next;
    return true;
}

char* CacheFileReader::TakePages(uint64_t bytes, uint64_t* regionBytes) {
    if (!SkipToPage()) return nullptr;
    *regionBytes = (bytes + kCachePageBytes - 1) / kCachePageBytes * kCachePageBytes;
    if (*regionBytes > Remaining()) {
        Refuse("it is damaged: it ends inside a record");
        return nullptr;
    }
    char* data = m_base + m_at;
    m_taken.emplace_back(m_at, m_at + *regionBytes);
    m_at += *regionBytes;
    return data;
}

bool CacheFileReader::ReadString(std::string& text) {
    uint64_t count = 0;
    if (!ReadCount<char>(count)) return false;
    const bool aligned = IsPageAligned(count);  // as WriteArray wrote it
    if (aligned && !SkipToPage()) return false;
    if (count > Remaining()) {
        Refuse("it is damaged: it ends inside a record");
        return false;
    }
    text.assign(m_base + m_at, count);
    m_at += count;
    return !aligned || SkipToPage();
}

bool CacheFileReader::ReadFlag(bool& value) {
    uint8_t byte = 0;
    if (!ReadValue(byte)) return false;
    if (byte > 1) {
        Refuse("it is damaged: a flag of " + std::to_string(byte));
        return false;
    }
    value = byte == 1;
    return true;
}

Status CacheFileReader::Finish() {
    if (!m_refused.empty()) return Status::Error(m_refused);
    if (Remaining() != 0)
        return Status::Error("it is damaged: " + std::to_string(Remaining()) +
                             " bytes follow its last record");
    return Status();
}

}  // namespace marey

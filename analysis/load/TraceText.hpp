#pragma once
// The bytes of one trace file, ready for simdjson: a read-only mapping of the file, or the
// streamed inflation of a gzip file, always followed by readable zero padding.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/PodArray.hpp"
#include "core/Problem.hpp"
#include "core/Status.hpp"

namespace marey {

struct TraceTextOptions {
    // Inflated .gz text may not grow past this many bytes (a gzip bomb stops here, with a
    // message, keeping what came before). 0 = three quarters of the memory available now.
    uint64_t maxInflatedBytes = 0;
};

class TraceText {
public:
    TraceText() = default;
    TraceText(TraceText&& other) noexcept;
    TraceText& operator=(TraceText&& other) noexcept;
    TraceText(const TraceText&) = delete;
    TraceText& operator=(const TraceText&) = delete;
    ~TraceText();

    // Maps or inflates 'path' (a file of at most kReadBelowBytes is read into memory instead:
    // for the thousands of small files of a cluster, a map costs more than the copy). Fails only
    // when nothing can be read at all.
    static Result<TraceText> Open(const std::string& path, const TraceTextOptions& options = {});
    // Wraps a copy of 'text' (tests, generated data).
    static TraceText FromString(const std::string& text);

    const char* data() const { return m_data; }
    uint64_t size() const { return m_size; }
    bool compressed() const { return m_compressed; }
    uint64_t fileBytes() const { return m_fileBytes; }
    // Problems met while reading the bytes (truncated gzip, size limit), in text offsets.
    const std::vector<ImportProblem>& problems() const { return m_problems; }
    // True when the mapped file shrank under us (another process truncated it): the pages past
    // its new end were replaced by zeros instead of killing the process with SIGBUS.
    bool ShrankWhileMapped() const;

private:
    void Reset();
    // Reads the open file 'fd' of m_fileBytes bytes into m_read (inflating it when it is gzip).
    Status ReadSmall(int fd, const std::string& path, const TraceTextOptions& options);

    const char* m_data = nullptr;
    uint64_t m_size = 0;
    uint64_t m_fileBytes = 0;
    void* m_mapping = nullptr;
    uint64_t m_mappingBytes = 0;
    std::unique_ptr<char[]> m_read;  // a small file's bytes and padding, when read
    PodArray<char> m_inflated;
    bool m_compressed = false;
    int m_guardSlot = -1;  // SIGBUS guard of the mapping, -1 when none
    std::vector<ImportProblem> m_problems;
};

// FillLineColumns over the whole text. O(text up to the last problem + problems).
inline void FillLineColumns(const TraceText& text, std::vector<ImportProblem>& problems) {
    FillLineColumns(std::string_view(text.data(), text.size()), problems);
}

// Bytes of zero padding guaranteed readable after data() + size().
constexpr uint64_t kTextPaddingBytes = 64;
// Files up to this size are read, larger ones mapped.
constexpr uint64_t kReadBelowBytes = uint64_t{1} << 20;
// Byte offsets of events are kept in 40 bits: texts of 1 TiB or more are refused.
constexpr uint64_t kMaxTextBytes = uint64_t{1} << 40;

}  // namespace marey

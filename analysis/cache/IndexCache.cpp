#include "cache/IndexCache.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <sys/stat.h>
#include <unistd.h>

#include "cache/CacheFolder.hpp"
#include "cache/ModelSerializer.hpp"
#include "core/LoadTiming.hpp"

namespace marey {

std::optional<uint64_t> ParseCacheLimit(std::string_view text) {
    uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [rest, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc() || rest == text.data()) return std::nullopt;
    if (rest == end) return value;
    if (rest + 1 != end) return std::nullopt;
    int shift = 0;
    switch (std::toupper(static_cast<unsigned char>(*rest))) {
        case 'K':
            shift = 10;
            break;
        case 'M':
            shift = 20;
            break;
        case 'G':
            shift = 30;
            break;
        case 'T':
            shift = 40;
            break;
        default:
            return std::nullopt;
    }
    if (value > (UINT64_MAX >> shift)) return std::nullopt;
    return value << shift;
}

Result<IndexCacheOptions> IndexCacheFromEnvironment(bool noCache) {
    IndexCacheOptions options;
    options.enabled = !noCache;
    options.say = [](const std::string& line) {
        std::fprintf(stderr, "marey: %s\n", line.c_str());
    };
    if (const char* limit = std::getenv("MAREY_CACHE_LIMIT")) {
        const std::optional<uint64_t> bytes = ParseCacheLimit(limit);
        if (!bytes)
            return Status::Error(std::string("MAREY_CACHE_LIMIT: expected a size such as 4G, 500M "
                                             "or 0 (no cache), got \"") +
                                 limit + "\"");
        options.limitBytes = *bytes;
        if (*bytes == 0) options.enabled = false;
    }
    return options;
}

IndexCache::IndexCache(IndexCacheOptions options, const std::string& path)
    : m_options(std::move(options)), m_name(path) {
    if (m_options.folder.empty()) m_options.folder = DefaultCacheFolder();
    std::error_code error;
    const std::filesystem::path canonical = std::filesystem::canonical(path, error);
    struct stat info {};
    if (error || ::stat(canonical.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return;
    m_key.path = canonical.string();
    m_key.sizeBytes = static_cast<uint64_t>(info.st_size);
    m_key.mtimeNs = int64_t{info.st_mtim.tv_sec} * 1'000'000'000 + info.st_mtim.tv_nsec;
    m_keyRead = true;
    // Without a folder nothing is read, and Write says why.
    if (!m_options.folder.empty()) m_filePath = CacheFilePath(m_options.folder, m_key.path);
}

void IndexCache::Say(const std::string& line) const {
    if (m_options.say) m_options.say(line);
}

std::unique_ptr<TraceModel> IndexCache::Read(TraceText& text) const {
    if (!Usable() || m_filePath.empty()) return nullptr;
    auto reader = CacheFileReader::Open(m_filePath, m_key, ModelCacheFormat());
    if (!reader.ok()) {
        if (!reader.message().empty())
            Say(m_name + ": index cache " + m_filePath + " ignored: " + reader.message() +
                RewriteNote(m_filePath));
        return nullptr;
    }
    auto model = std::make_unique<TraceModel>();
    TraceSource& source = model->sources.emplace_back();
    source.path = m_name;
    source.text = std::move(text);
    source.format = SourceFormat::kChromeJson;
    source.fromIndexCache = true;
    source.indexCacheChecksum = reader.value()->PayloadChecksum();
    const Status read = DeserializeModel(*reader.value(), *model);
    if (!read.ok()) {
        text = std::move(model->sources.front().text);
        Say(m_name + ": index cache " + m_filePath + " ignored: " + read.message() +
            RewriteNote(m_filePath));
        return nullptr;
    }
    TouchCacheFile(m_filePath);
    return model;
}

Result<uint64_t> WriteCacheFile(const IndexCacheOptions& options, const std::string& path,
                                const CacheKey& key, const CacheFormat& format,
                                const std::function<void(CacheFileWriter&)>& serialize,
                                uint64_t* checksum) {
    if (Status folder = CreateCacheFolder(options.folder); !folder.ok()) return folder;
    // Its reader said so already: no second line on every open.
    if (CacheFileIsFolder(path)) return Status::Error("");
    auto writer = CacheFileWriter::Create(path, key, format);
    if (!writer.ok()) return writer.status();
    serialize(*writer.value());
    Result<uint64_t> written = writer.value()->Commit();
    if (!written.ok()) return written;
    if (checksum) *checksum = writer.value()->PayloadChecksum();
    if (written.value() > options.limitBytes) {
        ::unlink(path.c_str());
        return Status::Error("its " + std::to_string(written.value() >> 20) +
                             " MiB are more than the cache's limit of " +
                             std::to_string(options.limitBytes >> 20) + " MiB (MAREY_CACHE_LIMIT)");
    }
    EvictOldest(options.folder, options.limitBytes, path);
    return written;
}

Result<uint64_t> IndexCache::Write(const TraceModel& model, uint64_t* checksum) const {
    const LoadTiming timing;
    if (!Usable()) return Status::Error("the trace's size and time cannot be read");
    Result<uint64_t> written = WriteCacheFile(
        m_options, m_filePath, m_key, ModelCacheFormat(),
        [&](CacheFileWriter& out) { SerializeModel(model, out); }, checksum);
    if (written.ok()) timing.Report("index cache written");
    return written;
}

void IndexCache::WriteInBackground(TraceModel& model) const {
    if (!Usable()) return;
    model.cacheWrite.Start([cache = *this, &model] {
        uint64_t checksum = 0;
        const Result<uint64_t> written = cache.Write(model, &checksum);
        if (written.ok()) model.sources.front().indexCacheChecksum = checksum;
        if (!written.ok() && !written.message().empty())
            cache.Say(cache.m_name + ": index cache not written: " + written.message());
    });
}

}  // namespace marey

#include "load/ChunkDecoder.hpp"

#include <simdjson.h>

#include <array>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "core/DigitRun.hpp"
#include "core/Hash.hpp"
#include "load/JsonScan.hpp"
#include "load/JsonString.hpp"
#include "load/TraceText.hpp"

namespace marey {
namespace ondemand = simdjson::ondemand;
using simdjson::error_code;

// [SECTION] Raw tokens: keys, edges, track and series keys, the fields of one event

namespace {

// True when the raw key text (after its opening quote) is exactly 'literal'. The length is a
// compile-time constant, so this compiles to a few byte compares.
template <size_t N>
inline bool KeyIs(const char* raw, const char (&literal)[N]) {
    for (size_t i = 0; i + 1 < N; ++i)
        if (raw[i] != literal[i]) return false;
    return raw[N - 1] == '"';
}
#define TL_KEY_IS(raw, literal) KeyIs(raw, literal)

std::string_view TrimToken(std::string_view token) {
    while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' ||
                              token.back() == '\t'))
        token.remove_suffix(1);
    return token;
}

std::string Quote(std::string_view text) {
    constexpr size_t kShown = 40;
    std::string out;
    AppendJsonString(out, text.size() > kShown ? text.substr(0, kShown) : text);
    if (text.size() > kShown) out.insert(out.size() - 1, "...");
    return out;
}

// The first and last 8 bytes of a token (overlapping when it is shorter): together with its
// size, the whole token when it has at most 16 bytes. Tokens lie in simdjson's padded buffers,
// so 8 bytes can be read from any of them at once.
struct TokenEdges {
    uint64_t head = 0, tail = 0;
    TokenEdges() = default;
    explicit TokenEdges(std::string_view token) {
        const size_t size = token.size();
        if (size == 0) return;
        std::memcpy(&head, token.data(), 8);
        if (size >= 8) {
            std::memcpy(&tail, token.data() + size - 8, 8);
        } else {
            head &= (uint64_t{1} << (8 * size)) - 1;
            tail = head;
        }
    }
    bool operator==(const TokenEdges& other) const {
        return head == other.head && tail == other.tail;
    }
    uint64_t Hash(size_t size) const {
        return (head * kGoldenRatio64) ^ (tail * kMixPrime64) ^ size;
    }
};

struct TrackKey {
    EntityId pid, tid;
    bool operator==(const TrackKey& other) const { return pid == other.pid && tid == other.tid; }
};
struct TrackKeyHash {
    size_t operator()(const TrackKey& key) const {
        uint64_t h = static_cast<uint64_t>(key.pid.number) * kGoldenRatio64;
        h ^= (static_cast<uint64_t>(key.tid.number) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2));
        h ^= (static_cast<uint64_t>(key.pid.text) << 32 | key.tid.text) * kMixPrime64;
        return h ^ (h >> 31);
    }
};

struct SeriesKey {
    uint32_t track;
    StringId name, key;
    bool operator==(const SeriesKey& other) const {
        return track == other.track && name == other.name && key == other.key;
    }
};
struct SeriesKeyHash {
    size_t operator()(const SeriesKey& key) const {
        uint64_t h = (static_cast<uint64_t>(key.track) << 32 | key.name) * kGoldenRatio64;
        return h ^ (key.key * kMixPrime64) ^ (h >> 29);
    }
};

enum EventField : uint8_t {
    kPh,
    kName,
    kCat,
    kTs,
    kDur,
    kPid,
    kTid,
    kId,
    kBp,
    kScope,
    kArgs,
    kBindId,
    kFlowIn,
    kFlowOut,
    kFieldCount
};

// The fields of one event, as raw tokens, before the phase says what they mean. Only the mask
// of present fields is reset for each event: clearing all the tokens cost more than reading them.
class EventFields {
public:
    void Set(EventField field, std::string_view token) {
        m_tokens[field] = {token.data(), token.size()};
        m_present |= 1u << field;
    }
    bool Has(EventField field) const { return (m_present >> field) & 1; }
    bool Empty() const { return m_present == 0; }
    // The raw token, or empty when the event does not have the field.
    std::string_view operator[](EventField field) const {
        return Has(field) ? std::string_view(m_tokens[field].data, m_tokens[field].size)
                          : std::string_view();
    }

private:
    struct Token {
        const char* data;
        size_t size;
    };
    Token m_tokens[kFieldCount];  // set only where m_present has the field's bit
    uint32_t m_present = 0;
};

}  // namespace

// [SECTION] ChunkDecoder::Impl: caches of names, threads and flow origins

struct ChunkDecoder::Impl {
    explicit Impl(const TraceText& text) : text(text) {}

    const TraceText& text;
    ondemand::parser parser;
    ondemand::parser argsParser;
    PodArray<char> buffer;
    std::string scratch;
    std::string nameScratch;
    ChunkEvents* out = nullptr;
    std::unordered_map<TrackKey, uint32_t, TrackKeyHash> trackIndex;
    std::unordered_map<SeriesKey, uint32_t, SeriesKeyHash> seriesIndex;
    std::unordered_map<uint64_t, uint32_t> flowOriginIndex;  // (track << 32 | category) -> index

    void Begin(ChunkEvents& events) {
        out = &events;
        bufferToText = 0;
        trackIndex.clear();
        seriesIndex.clear();
        flowOriginIndex.clear();
        flowOriginCache.fill(CachedFlowOrigin{});
        tokenCache.fill(CachedToken{});
        entityCache.fill(CachedEntities{});
        trackCache.fill(CachedTrack{});
    }

    // Names repeat on almost every event: a small direct-mapped cache keyed by the raw token as
    // written (quotes, escapes and all) skips decoding and hashing it. Equal raw tokens decode
    // to equal names. The cache keeps where the token lies in the text, which stays put: a token
    // in the run buffer lies 'bufferToText' bytes before its place in the text, and the buffer
    // is overwritten by the next run. A repaired event's copy has no place in the text:
    // 'cacheTokens' is off while one is decoded.
    struct CachedToken {
        const char* data = nullptr;
        TokenEdges edges;
        uint32_t size = 0;
        StringId id = 0;
    };
    std::array<CachedToken, 2048> tokenCache{};
    bool cacheTokens = true;
    ptrdiff_t bufferToText = 0;

    StringId InternToken(std::string_view token) {
        if (token.empty()) return 0;
        const TokenEdges edges(token);
        CachedToken& slot = tokenCache[(edges.Hash(token.size()) >> 40) & (tokenCache.size() - 1)];
        if (slot.data && slot.size == token.size() && slot.edges == edges &&
            (token.size() <= 16 || std::memcmp(slot.data, token.data(), token.size()) == 0))
            return slot.id;
        const std::string_view text = DecodeJsonString(token, nameScratch);
        const StringId id = text.empty() ? 0 : out->strings.Intern(text);
        if (cacheTokens && token.size() <= UINT32_MAX)
            slot = {token.data() + bufferToText, edges, static_cast<uint32_t>(token.size()), id};
        return id;
    }

    // Events of one thread follow each other: a small cache keyed by the raw pid and tid tokens
    // (up to 16 bytes each, compared whole) skips parsing them. Only tokens that parse without
    // a problem are cached, so that every event still reports its own.
    struct CachedEntities {
        TokenEdges pidEdges, tidEdges;
        uint32_t pidSize = UINT32_MAX, tidSize = UINT32_MAX;
        EntityId pid, tid;
    };
    std::array<CachedEntities, 256> entityCache{};

    [[gnu::always_inline]] void ParseEntities(std::string_view pidToken, std::string_view tidToken,
                                              uint64_t offset, EntityId* pid, EntityId* tid) {
        const bool cacheable = pidToken.size() <= 16 && tidToken.size() <= 16;
        const TokenEdges pidEdges(pidToken), tidEdges(tidToken);
        const uint64_t key = pidEdges.Hash(pidToken.size()) ^ (tidEdges.Hash(tidToken.size()) * 31);
        CachedEntities& slot = entityCache[(key >> 40) & (entityCache.size() - 1)];
        if (cacheable && slot.pidSize == pidToken.size() && slot.tidSize == tidToken.size() &&
            slot.pidEdges == pidEdges && slot.tidEdges == tidEdges) {
            *pid = slot.pid;
            *tid = slot.tid;
            return;
        }
        const bool pidOk = ParseEntity(pidToken, pid);
        const bool tidOk = ParseEntity(tidToken, tid);
        if (!pidOk) out->problems.Add(offset, "\"pid\" is not an integer; kept as text");
        if (!tidOk) out->problems.Add(offset, "\"tid\" is not an integer; kept as text");
        if (cacheable && pidOk && tidOk)
            slot = {pidEdges,
                    tidEdges,
                    static_cast<uint32_t>(pidToken.size()),
                    static_cast<uint32_t>(tidToken.size()),
                    *pid,
                    *tid};
    }

    // The phase of an event: one ASCII character, or 0 for anything else. A longer phase is read
    // by its first character, as Perfetto reads it; '*longer' says so.
    char PhaseOf(std::string_view token, bool* longer) {
        // As written by every profiler: the character in quotes, nothing to decode.
        if (token.size() >= 3 && token[0] == '"' && token[2] == '"' && token[1] != '\\')
            return static_cast<unsigned char>(token[1]) < 128 ? token[1] : 0;
        const std::string_view ph = DecodeJsonString(token, scratch);
        if (ph.empty() || static_cast<unsigned char>(ph[0]) >= 128 || token.empty() ||
            token[0] != '"')
            return 0;
        *longer = ph.size() > 1;
        return ph[0];
    }

    // A pid or tid token: numbers stay numbers; strings of plain digits become numbers too, so
    // that "tid": "7" and "tid": 7 are one thread; other strings are kept as text.
    bool ParseEntity(std::string_view token, EntityId* id) {
        // Fast path for what profilers write: a plain number of up to 15 digits (the token lies
        // in a padded buffer, as ReadDigitRun needs).
        uint64_t number = 0;
        const size_t digits =
            token.empty() ? 0 : static_cast<size_t>(ReadDigitRun(token.data(), &number));
        if (digits > 0 && digits < 16 && TrimToken(token).size() == digits) {
            *id = EntityId{static_cast<int64_t>(number), 0};
            return true;
        }
        token = TrimToken(token);
        *id = EntityId{};
        if (token.empty()) return true;
        if (token.front() == '"') {
            const std::string_view text = DecodeJsonString(token, nameScratch);
            const bool digits = !text.empty() && text.size() <= 18 &&
                                text.find_first_not_of("0123456789") == std::string_view::npos &&
                                (text.size() == 1 || text[0] != '0');
            if (digits && ParseScaledDecimal(text, 0, &id->number) == DecimalError::kNone)
                return true;
            id->text = out->strings.Intern(text);
            return true;
        }
        if (token == "null") return true;
        if (ParseScaledDecimal(token, 0, &id->number) == DecimalError::kNone) return true;
        id->text = out->strings.Intern(token);
        return false;
    }

    // Whether the element starting at 'start' is "{}" (white space allowed inside).
    static bool IsEmptyObject(const char* start) {
        if (!start || *start != '{') return false;
        ++start;
        while (*start == ' ' || *start == '\n' || *start == '\r' || *start == '\t') ++start;
        return *start == '}';
    }

    struct CachedTrack {
        TrackKey key{};
        uint32_t track = UINT32_MAX;
    };
    std::array<CachedTrack, 64> trackCache{};

    uint32_t TrackFor(const EntityId& pid, const EntityId& tid) {
        const TrackKey key{pid, tid};
        CachedTrack& slot =
            trackCache[(static_cast<uint64_t>(pid.number ^ (tid.number * 31) ^ (tid.text * 17)) *
                        kGoldenRatio64) >>
                       58];
        if (slot.track != UINT32_MAX && slot.key == key) return slot.track;
        auto [it, inserted] =
            trackIndex.try_emplace(key, static_cast<uint32_t>(out->tracks.size()));
        if (inserted) {
            ChunkTrack track;
            track.pid = pid;
            track.tid = tid;
            out->tracks.push_back(std::move(track));
        }
        slot.key = key;
        slot.track = it->second;
        return it->second;
    }

    // Flow events of a thread mostly share a few categories: a small cache before the table.
    struct CachedFlowOrigin {
        uint64_t key = UINT64_MAX;
        uint32_t origin = 0;
    };
    std::array<CachedFlowOrigin, 64> flowOriginCache{};

    // The index of (track, category) in the chunk's flow origins; kMaxFlowOrigins when the table
    // is full.
    uint32_t FlowOriginFor(uint32_t track, StringId category) {
        const uint64_t key = uint64_t{track} << 32 | category;
        CachedFlowOrigin& slot = flowOriginCache[(key * kGoldenRatio64) >> 58];
        if (slot.key == key) return slot.origin;
        const auto size = static_cast<uint32_t>(out->flowOrigins.size());
        auto [it, inserted] = flowOriginIndex.try_emplace(key, size);
        if (inserted) {
            if (size == kMaxFlowOrigins) {
                flowOriginIndex.erase(it);
                return kMaxFlowOrigins;
            }
            out->flowOrigins.push_back({track, category});
        }
        slot = {key, it->second};
        return it->second;
    }

    // [SECTION] Fields to records: times, ids, metadata, counters, slices, flows

    bool ParseTime(std::string_view token, const char* field, uint64_t offset, TimeNs* value) {
        const DecimalError error = ParseMicrosToNsPadded(token, value);
        if (error == DecimalError::kNone) return true;
        out->problems.Add(
            offset, std::string("\"") + field + "\" is " +
                        (error == DecimalError::kOutOfRange ? "out of range" : "not a number") +
                        ": " + std::string(TrimToken(token)) + "; event skipped");
        return false;
    }

    // Inlined into DecodeEvent, so that the tokens stay in registers rather than in memory.
    [[gnu::always_inline]] error_code ReadFields(ondemand::object& object, EventFields& fields) {
        for (auto fieldResult : object) {
            ondemand::field field;
            if (auto error = std::move(fieldResult).get(field)) return error;
            const char* key = field.key().raw();
            ondemand::value value = field.value();
            switch (key[0]) {
                case 'p':
                    if (TL_KEY_IS(key, "ph")) {
                        fields.Set(kPh, value.raw_json_token());
                    } else if (TL_KEY_IS(key, "pid")) {
                        fields.Set(kPid, value.raw_json_token());
                    }
                    break;
                case 'n':
                    if (TL_KEY_IS(key, "name")) fields.Set(kName, value.raw_json_token());
                    break;
                case 'c':
                    if (TL_KEY_IS(key, "cat")) fields.Set(kCat, value.raw_json_token());
                    break;
                case 't':
                    if (TL_KEY_IS(key, "ts")) {
                        fields.Set(kTs, value.raw_json_token());
                    } else if (TL_KEY_IS(key, "tid")) {
                        fields.Set(kTid, value.raw_json_token());
                    }
                    break;
                case 'd':
                    if (TL_KEY_IS(key, "dur")) {
                        fields.Set(kDur, value.raw_json_token());
                    }
                    break;
                case 'i':
                    if (TL_KEY_IS(key, "id")) {
                        fields.Set(kId, value.raw_json_token());
                    } else if (TL_KEY_IS(key, "id2")) {
                        ondemand::object id2;
                        if (value.get_object().get(id2) == simdjson::SUCCESS) {
                            std::string_view raw;
                            if (auto error = id2.raw_json().get(raw)) return error;
                            fields.Set(kId, raw);
                        }
                    }
                    break;
                case 'b':
                    if (TL_KEY_IS(key, "bp"))
                        fields.Set(kBp, value.raw_json_token());
                    else if (TL_KEY_IS(key, "bind_id"))
                        fields.Set(kBindId, value.raw_json_token());
                    break;
                case 'f':
                    if (TL_KEY_IS(key, "flow_in"))
                        fields.Set(kFlowIn, value.raw_json_token());
                    else if (TL_KEY_IS(key, "flow_out"))
                        fields.Set(kFlowOut, value.raw_json_token());
                    break;
                case 's':
                    if (TL_KEY_IS(key, "s")) fields.Set(kScope, value.raw_json_token());
                    break;
                case 'a':
                    if (TL_KEY_IS(key, "args")) {
                        ondemand::object args;
                        if (value.get_object().get(args) == simdjson::SUCCESS) {
                            std::string_view raw;
                            if (auto error = args.raw_json().get(raw)) return error;
                            fields.Set(kArgs, raw);
                        }
                    }
                    break;
                default:
                    break;
            }
        }
        return simdjson::SUCCESS;
    }

    // The text of a flow or async id: strings decoded, numbers as written.
    StringId IdText(std::string_view token) {
        token = TrimToken(token);
        if (!token.empty() && token.front() == '"') return InternToken(token);
        return out->strings.Intern(token);
    }

    void AddMetadata(const EventFields& fields, uint32_t track, uint64_t offset) {
        const std::string_view name = DecodeJsonString(fields[kName], nameScratch);
        MetadataKind kind;
        const char* argKey;
        if (name == "process_name") {
            kind = MetadataKind::kProcessName, argKey = "name";
        } else if (name == "thread_name") {
            kind = MetadataKind::kThreadName, argKey = "name";
        } else if (name == "process_labels") {
            kind = MetadataKind::kProcessLabels, argKey = "labels";
        } else if (name == "process_sort_index") {
            kind = MetadataKind::kProcessSortIndex, argKey = "sort_index";
        } else if (name == "thread_sort_index") {
            kind = MetadataKind::kThreadSortIndex, argKey = "sort_index";
        } else {
            return;  // other metadata (trace_config, ...) is counted but not used
        }
        if (fields[kArgs].empty()) {
            out->problems.Add(offset, "metadata event " + Quote(name) + " has no \"args\" object");
            return;
        }
        ondemand::document doc;
        std::string_view token;
        const simdjson::padded_string_view view(fields[kArgs].data(), fields[kArgs].size(),
                                                fields[kArgs].size() + simdjson::SIMDJSON_PADDING);
        if (argsParser.iterate(view).get(doc) ||
            doc.find_field_unordered(argKey).raw_json_token().get(token)) {
            out->problems.Add(offset,
                              "metadata event " + Quote(name) + " has no \"args\"." + argKey);
            return;
        }
        RawMetadata record{offset, track, kind, 0, 0};
        token = TrimToken(token);
        if (kind == MetadataKind::kProcessSortIndex || kind == MetadataKind::kThreadSortIndex) {
            if (ParseScaledDecimal(token, 0, &record.number) != DecimalError::kNone) {
                out->problems.Add(offset,
                                  "\"sort_index\" is not an integer: " + std::string(token));
                return;
            }
        } else {
            record.text = token.front() == '"' ? InternToken(token) : out->strings.Intern(token);
        }
        out->metadata.push_back(record);
    }

    void AddCounter(const EventFields& fields, uint32_t track, TimeNs ts, uint64_t offset) {
        if (fields[kArgs].empty()) {
            out->problems.Add(offset, "counter event has no \"args\" object");
            return;
        }
        StringId name = InternToken(fields[kName]);
        if (fields.Has(kId)) {
            // Chrome shows counters with an id as "name id": they are separate series.
            std::string combined(out->strings.Get(name));
            combined += ' ';
            combined += DecodeJsonString(TrimToken(fields[kId]), nameScratch);
            name = out->strings.Intern(combined);
        }
        ondemand::document doc;
        ondemand::object args;
        const simdjson::padded_string_view view(fields[kArgs].data(), fields[kArgs].size(),
                                                fields[kArgs].size() + simdjson::SIMDJSON_PADDING);
        if (argsParser.iterate(view).get(doc) || doc.get_object().get(args)) {
            out->problems.Add(offset, "counter \"args\" is not an object");
            return;
        }
        for (auto fieldResult : args) {
            ondemand::field field;
            if (std::move(fieldResult).get(field)) break;
            std::string_view key;
            if (field.unescaped_key().get(key)) break;
            const StringId keyId = out->strings.Intern(key);
            double value;
            if (field.value().get_double().get(value)) {
                // Numbers written as strings are accepted; anything else is not a sample.
                std::string_view token = TrimToken(field.value().raw_json_token());
                if (token.size() < 2 || token.front() != '"') continue;
                const std::string text(token.substr(1, token.size() - 2));
                char* end = nullptr;
                value = std::strtod(text.c_str(), &end);
                if (end == text.c_str() || *end != '\0') continue;
            }
            const SeriesKey seriesKey{track, name, keyId};
            auto [it, inserted] = seriesIndex.try_emplace(
                seriesKey, static_cast<uint32_t>(out->counterSeries.size()));
            if (inserted) out->counterSeries.push_back({track, name, keyId});
            out->counters.push_back({ts, value, it->second});
        }
    }

    // The flow's key, and the place of its id relative to its event, where the matcher reads
    // it again should two ids share a key.
    void SetFlowId(std::string_view token, const char* eventStart, StringId category,
                   RawFlow& flow) {
        token = TrimToken(token);
        const uint64_t delta = static_cast<uint64_t>(token.data() - eventStart);
        flow.idOffset = delta < kIdTooFar ? static_cast<uint16_t>(delta) : kIdTooFar;
        flow.key = FlowKey(FlowIdText(token), out->strings.Hash(category));
        ++out->flowsPerBucket[FlowBucket(flow.key)];
    }

    // Chrome's flow events v2: a slice with "bind_id" and "flow_out": true starts an arrow that
    // ends at the slice with the same "bind_id" and "flow_in": true (both: the arrow goes on).
    // Matched like 's' / 't' / 'f' events bound to the slices themselves, in one category of
    // their own, since v2 ids join slices whatever their categories.
    void AddBoundFlow(const EventFields& fields, uint32_t track, TimeNs ts, uint64_t offset,
                      const char* eventStart) {
        const bool in = TrimToken(fields[kFlowIn]) == "true",
                   outgoing = TrimToken(fields[kFlowOut]) == "true";
        if (!in && !outgoing) return;
        const StringId category = out->strings.Intern("bind_id");  // each chunk has its own strings
        const FlowPhase phase = in && outgoing ? FlowPhase::kStep
                                : outgoing     ? FlowPhase::kStart
                                               : FlowPhase::kFinish;
        AddFlow(track, category, ts, offset, phase, true, fields[kBindId], eventStart);
    }

    // One end of a flow arrow on (track, category), its id token 'idToken' kept where the matcher
    // can read it again; the chunk's table of (track, category) pairs is bounded.
    void AddFlow(uint32_t track, StringId category, TimeNs ts, uint64_t offset, FlowPhase phase,
                 bool bindToEnclosing, std::string_view idToken, const char* eventStart) {
        const uint32_t origin = FlowOriginFor(track, category);
        if (origin == kMaxFlowOrigins) {
            out->problems.Add(
                offset,
                "flow events on more than " + std::to_string(kMaxFlowOrigins) +
                    " (thread, category) pairs in one part of the file are not matched; skipped");
            return;
        }
        RawFlow flow{};
        flow.ts = ts;
        flow.ref = offset;
        flow.origin = origin;
        flow.phase = phase;
        flow.bindToEnclosing = bindToEnclosing;
        SetFlowId(idToken, eventStart, category, flow);
        out->flows.push_back(flow);
    }

    // An 'X' event: its slice (a missing or negative "dur" drawn as 0 ns), and its bound flow.
    void AddComplete(const EventFields& fields, uint32_t track, TimeNs ts, uint64_t offset,
                     const char* eventStart) {
        ChunkEvents& events = *out;
        TimeNs dur = 0;
        if (!fields.Has(kDur)) {
            events.problems.Add(offset, "complete event has no \"dur\"; drawn as 0 ns");
        } else if (!ParseTime(fields[kDur], "dur", offset, &dur)) {
            return;
        }
        if (dur < 0) {
            events.problems.Add(offset, "\"dur\" is negative (" +
                                            std::string(TrimToken(fields[kDur])) +
                                            "); drawn as 0 ns");
            dur = 0;
        }
        if (ts > INT64_MAX - dur) {
            events.problems.Add(offset, "\"ts\" + \"dur\" is out of range; event skipped");
            return;
        }
        // The category of a slice is not kept: it is read from the file when shown. Those of
        // device work and runtime calls, with their correlation ids, are what the device analyses
        // read of millions of events: kept aside while the event is at hand.
        events.AddSlice(track, ts, dur, offset, InternToken(fields[kName]));
        if (const KeptCategory category = KeptCategoryOf(fields[kCat]);
            category != KeptCategory::kNone) {
            std::string_view damaged;
            const int64_t correlation =
                fields.Has(kArgs) ? ReadCorrelationInArgs(fields[kArgs], &damaged).value_or(-1)
                                  : -1;
            // A damaged id is never an id: the event stays, linked to no launch, and is named.
            if (!damaged.empty())
                events.problems.Add(offset, "args \"correlation\" is " + std::string(damaged) +
                                                ": expected an integer from 0 to 2^63 - 1; "
                                                "linked to no launch");
            events.sliceFields.Append(offset, category, correlation);
        } else if (!fields.Has(kCat) && fields.Has(kArgs)) {
            KeepTaskFields(fields[kArgs], offset);
        }
        if (fields.Has(kBindId)) AddBoundFlow(fields, track, ts, offset, eventStart);
    }

    // An Ascend event has no "cat": its task type and connection id, when its args hold either,
    // are kept as a kept category's are (Ascend writes tens of millions of them).
    void KeepTaskFields(std::string_view args, uint64_t offset) {
        const TaskArgs task = ReadTaskArgs(args);
        if (!task.damaged.empty())
            out->problems.Add(offset, "args \"" + std::string(task.damagedKey) + "\" is " +
                                          std::string(task.damaged) +
                                          ": expected an integer from 0 to 2^63 - 1; linked to "
                                          "no launch");
        if (task.taskType.empty() && !task.correlation) return;
        out->sliceFields.AppendTask(offset, out->sliceFields.TaskTypeCode(task.taskType),
                                    task.correlation.value_or(-1));
    }

    // An async event ('b', 'e', 'n', and the older 'S', 'F', 'T', 'p'), matched later by its id.
    void AddAsync(const EventFields& fields, char phase, uint32_t track, TimeNs ts,
                  uint64_t offset) {
        ChunkEvents& events = *out;
        if (!fields.Has(kId)) {
            events.problems.Add(offset,
                                std::string("async event '") + phase + "' has no \"id\"; skipped");
            return;
        }
        const AsyncKind kind = (phase == 'b' || phase == 'S')   ? AsyncKind::kBegin
                               : (phase == 'e' || phase == 'F') ? AsyncKind::kEnd
                                                                : AsyncKind::kInstant;
        events.asyncs.push_back({ts, offset, InternToken(fields[kName]), InternToken(fields[kCat]),
                                 IdText(fields[kId]), track, kind});
    }

    // A flow event ('s', 't', 'f'), matched later by its id and category.
    void AddFlowEvent(const EventFields& fields, char phase, uint32_t track, TimeNs ts,
                      uint64_t offset, const char* eventStart) {
        ChunkEvents& events = *out;
        if (!fields.Has(kId)) {
            events.problems.Add(offset,
                                std::string("flow event '") + phase + "' has no \"id\"; skipped");
            return;
        }
        const bool enclosing = DecodeJsonString(fields[kBp], scratch) == "e" || phase == 's';
        const FlowPhase flowPhase = phase == 's'   ? FlowPhase::kStart
                                    : phase == 't' ? FlowPhase::kStep
                                                   : FlowPhase::kFinish;
        AddFlow(track, InternToken(fields[kCat]), ts, offset, flowPhase, enclosing, fields[kId],
                eventStart);
    }

    // [SECTION] One event, and the repairs Chrome forgives

    error_code DecodeEvent(ondemand::value element, uint64_t offset, const char* eventStart) {
        ondemand::object object;
        if (auto error = element.get_object().get(object)) return error;
        EventFields fields;
        if (auto error = ReadFields(object, fields)) return error;
        ChunkEvents& events = *out;

        if (fields.Empty() && IsEmptyObject(eventStart))
            return simdjson::SUCCESS;  // JAX/XLA end with {}
        bool longerPhase = false;
        const char phase = PhaseOf(fields[kPh], &longerPhase);
        if (phase) {
            ++events.phases.byChar[static_cast<unsigned char>(phase)];
            if (longerPhase)
                events.problems.Add(offset, "phase " +
                                                Quote(DecodeJsonString(fields[kPh], scratch)) +
                                                " is longer than one character; read as '" + phase +
                                                "', as Perfetto does");
        } else {
            ++events.phases.other;
            events.problems.Add(offset, fields[kPh].empty()
                                            ? std::string("event has no \"ph\"; skipped")
                                            : "unknown phase " +
                                                  Quote(DecodeJsonString(fields[kPh], scratch)) +
                                                  "; event skipped");
            return simdjson::SUCCESS;
        }
        EntityId pid, tid;
        // Without a "tid" an event belongs to its process's main thread (tid = pid), as in
        // Perfetto; metadata without one names the process.
        const bool tidFromPid = phase != 'M' && !fields.Has(kTid) && fields.Has(kPid);
        ParseEntities(fields[kPid], tidFromPid ? fields[kPid] : fields[kTid], offset, &pid, &tid);

        if (phase == 'M') {
            AddMetadata(fields, TrackFor(pid, tid), offset);
            return simdjson::SUCCESS;
        }
        static constexpr std::string_view kDrawnPhases = "XBEbenSFTpiIRCstf";
        if (kDrawnPhases.find(phase) == std::string_view::npos)
            return simdjson::SUCCESS;  // counted only

        TimeNs ts = 0;
        if (!fields.Has(kTs)) {
            events.problems.Add(offset, "\"ts\" is missing; event skipped");
            return simdjson::SUCCESS;
        }
        if (!ParseTime(fields[kTs], "ts", offset, &ts)) return simdjson::SUCCESS;
        const uint32_t track = TrackFor(pid, tid);

        switch (phase) {
            case 'X':
                AddComplete(fields, track, ts, offset, eventStart);
                break;
            case 'B':
            case 'E':
                events.tracks[track].boundaries.push_back(
                    {ts, offset, InternToken(fields[kName]),
                     phase == 'B' ? BoundaryKind::kBegin : BoundaryKind::kEnd});
                if (phase == 'B' && fields.Has(kBindId))
                    AddBoundFlow(fields, track, ts, offset, eventStart);
                break;
            case 'b':
            case 'e':
            case 'n':
            case 'S':
            case 'F':
            case 'T':
            case 'p':
                AddAsync(fields, phase, track, ts, offset);
                break;
            case 'i':
            case 'I':
            case 'R': {
                const std::string_view scope = DecodeJsonString(fields[kScope], scratch);
                const InstantScope instantScope = scope == "g"   ? InstantScope::kGlobal
                                                  : scope == "p" ? InstantScope::kProcess
                                                                 : InstantScope::kThread;
                events.instants.push_back(
                    {ts, offset, InternToken(fields[kName]), track, instantScope});
                break;
            }
            case 'C':
                AddCounter(fields, track, ts, offset);
                break;
            case 's':
            case 't':
            case 'f':
                AddFlowEvent(fields, phase, track, ts, offset, eventStart);
                break;
            default:
                break;
        }
        return simdjson::SUCCESS;
    }

    // What Chrome's and Perfetto's JSON readers forgive and simdjson does not: a comma before a
    // closing '}' or ']', and raw control characters (a newline, a tab) inside strings. Repairs a
    // copy of the event in place, same length, so that every offset stays the file's: the comma
    // and the control characters become spaces. Decodes it and says what was repaired, the control
    // characters once per chunk. Returns the error of the repaired event, or the first one when
    // there was nothing to repair.
    error_code DecodeRepaired(const char* event, uint64_t length, uint64_t offset,
                              ChunkEvents& events, error_code first) {
        buffer.resize(length + simdjson::SIMDJSON_PADDING);
        std::memcpy(buffer.data(), event, length);
        std::memset(buffer.data() + length, 0, simdjson::SIMDJSON_PADDING);
        bool commas = false, controls = false, inString = false;
        for (uint64_t i = 0; i < length; ++i) {
            char& c = buffer[i];
            if (inString) {
                if (c == '\\')
                    ++i;
                else if (c == '"')
                    inString = false;
                else if (static_cast<unsigned char>(c) < 0x20)
                    c = ' ', controls = true;
            } else if (c == '"') {
                inString = true;
            } else if (c == ',') {
                uint64_t next = i + 1;
                while (next < length && (buffer[next] == ' ' || buffer[next] == '\n' ||
                                         buffer[next] == '\r' || buffer[next] == '\t'))
                    ++next;
                if (next < length && (buffer[next] == '}' || buffer[next] == ']'))
                    c = ' ', commas = true;
            }
        }
        if (!commas && !controls) return first;
        ondemand::document doc;
        ondemand::value value;
        error_code error = parser.iterate(buffer.data(), length, buffer.size()).get(doc);
        if (!error) error = doc.get_value().get(value);
        cacheTokens = false;  // the copy is overwritten by the next repair
        if (!error) error = DecodeEvent(value, offset, buffer.data());
        cacheTokens = true;
        if (error) return error;
        if (commas)
            events.problems.Add(
                offset, "a comma before a closing '}' or ']'; read as if it were not there");
        if (controls && !reportedControlCharacters) {
            events.problems.Add(
                offset,
                "a raw control character (a newline or a tab) inside a string; read as a space "
                "(further ones in this part of the file are not listed)");
            reportedControlCharacters = true;
        }
        return simdjson::SUCCESS;
    }
    bool reportedControlCharacters = false;

    // Parses one element in place (or from a repaired copy) and decodes it.
    error_code DecodeOne(const char* begin, const char* end, uint64_t offset) {
        const uint64_t readable = text.data() + text.size() + kTextPaddingBytes - begin;
        ondemand::document doc;
        if (auto error = parser.iterate(begin, end - begin, readable).get(doc)) return error;
        ondemand::value value;
        if (auto error = doc.get_value().get(value)) return error;
        return DecodeEvent(value, offset, begin);
    }
};

// [SECTION] ChunkDecoder: runs of events, fast and one at a time

ChunkDecoder::ChunkDecoder(const TraceText& text) : m_impl(std::make_unique<Impl>(text)) {}
ChunkDecoder::~ChunkDecoder() = default;

void ChunkDecoder::Reserve(uint64_t runBytes) {
    // The fast path parses a run behind a '[' and before a ']'.
    if (m_impl->parser.allocate(runBytes + 2) != simdjson::SUCCESS)
        return;  // iterate() retries and reports
    m_impl->buffer.reserve(runBytes + 2 + simdjson::SIMDJSON_PADDING);
    m_impl->buffer.Populate(0, m_impl->buffer.capacity());  // every run is copied into it
}

bool ChunkDecoder::DecodeFast(std::span<const EventRun> runs, ChunkEvents& out) {
    Impl& impl = *m_impl;
    impl.Begin(out);
    if (!runs.empty()) out.refBase = runs.front().begin;
    for (const EventRun& run : runs) {
        const uint64_t length = run.end - run.begin;
        impl.buffer.resize(length + 2 + simdjson::SIMDJSON_PADDING);
        char* buffer = impl.buffer.data();
        buffer[0] = '[';
        std::memcpy(buffer + 1, impl.text.data() + run.begin, length);
        buffer[length + 1] = ']';
        std::memset(buffer + length + 2, 0, simdjson::SIMDJSON_PADDING);

        impl.bufferToText = (impl.text.data() + run.begin) - (buffer + 1);

        ondemand::document doc;
        if (impl.parser.iterate(buffer, length + 2, impl.buffer.size()).get(doc)) return false;
        ondemand::array array;
        if (doc.get_array().get(array)) return false;
        for (auto elementResult : array) {
            ondemand::value element;
            if (std::move(elementResult).get(element)) return false;
            const char* location;
            if (element.current_location().get(location)) return false;
            const uint64_t offset = run.begin + static_cast<uint64_t>(location - (buffer + 1));
            if (impl.DecodeEvent(element, offset, location)) return false;
            ++out.eventCount;
        }
        // On-Demand does not match brackets on its own: a stray '}' can end the array early. The
        // run counts only if the array ended at the ']' appended behind it.
        const char* rest = nullptr;
        if (doc.current_location().get(rest) != simdjson::OUT_OF_BOUNDS) return false;
    }
    return true;
}

void ChunkDecoder::DecodeSlow(uint64_t beginOffset, uint64_t stopOffset, ChunkEvents& out) {
    Impl& impl = *m_impl;
    impl.Begin(out);
    const char* const base = impl.text.data();
    const char* const end = base + impl.text.size();
    const char* p = base + beginOffset;
    out.beginOffset = beginOffset;
    out.refBase = beginOffset;
    bool expectComma = false;
    auto offsetOf = [base](const char* at) { return static_cast<uint64_t>(at - base); };
    for (;;) {
        p = SkipWhitespace(p, end);
        if (p >= end) {
            // Chrome's format allows the closing ']' to be missing after the last event.
            out.endOffset = impl.text.size();
            out.reachedArrayEnd = true;
            return;
        }
        if (*p == ']') {
            out.endOffset = offsetOf(p);
            out.reachedArrayEnd = true;
            return;
        }
        if (*p == ',') {
            if (!expectComma)
                out.problems.Add(offsetOf(p), "unexpected ',' where an event was expected");
            expectComma = false;
            ++p;
            continue;
        }
        // Reported before a possible stop, so that a chunk boundary here changes nothing.
        if (expectComma) out.problems.Add(offsetOf(p), "expected ',' or ']' after an event");
        if (offsetOf(p) >= stopOffset) {
            out.endOffset = offsetOf(p);
            return;
        }
        const ScanResult scan = SkipValue(p, end);
        if (scan.status == ScanStatus::kOk && *p != '{') {
            ++out.eventCount;
            out.problems.Add(offsetOf(p),
                             "expected an event object, found " +
                                 Quote(std::string_view(p, std::min<size_t>(scan.end - p, 40))) +
                                 "; skipped");
            p = scan.end;
            expectComma = true;
            continue;
        }
        if (scan.status == ScanStatus::kUnexpected) {
            ++out.eventCount;
            const char shown = *p;
            out.problems.Add(offsetOf(p),
                             std::string("expected an event object, found '") +
                                 (shown >= 32 && shown < 127 ? std::string(1, shown) : "?") + "'");
            const char* next = FindLikelyEventStart(p, end, end);
            if (!next) {
                out.endOffset = impl.text.size();
                out.reachedArrayEnd = true;
                return;
            }
            p = next;
            expectComma = false;
            continue;
        }
        if (scan.status == ScanStatus::kTruncated) {
            // A string or bracket never closes: either the file was cut here, or this event is
            // malformed and swallowed the rest; resume at the next plausible event if any.
            ++out.eventCount;
            const char* next = FindLikelyEventStart(p, end, end);
            if (next) {
                out.problems.Add(offsetOf(p),
                                 "malformed event (an unterminated string or object); skipped");
                p = next;
                expectComma = false;
                continue;
            }
            out.problems.Add(
                offsetOf(p),
                "file is truncated: the event starting here is incomplete (the file ends at byte " +
                    std::to_string(impl.text.size()) + ")");
            out.endOffset = impl.text.size();
            out.reachedArrayEnd = true;
            return;
        }
        ++out.eventCount;
        error_code error = impl.DecodeOne(p, scan.end, offsetOf(p));
        if (error == simdjson::UTF8_ERROR) {
            // Keep the event: replace the bad bytes in a copy (same length, same offsets).
            const uint64_t length = scan.end - p;
            impl.buffer.resize(length + simdjson::SIMDJSON_PADDING);
            std::memcpy(impl.buffer.data(), p, length);
            std::memset(impl.buffer.data() + length, 0, simdjson::SIMDJSON_PADDING);
            ReplaceInvalidUtf8(impl.buffer.data(), length);
            ondemand::document doc;
            ondemand::value value;
            error = impl.parser.iterate(impl.buffer.data(), length, impl.buffer.size()).get(doc);
            if (!error) error = doc.get_value().get(value);
            impl.cacheTokens = false;  // the copy is overwritten by the next repair
            if (!error) error = impl.DecodeEvent(value, offsetOf(p), impl.buffer.data());
            impl.cacheTokens = true;
            if (!error)
                out.problems.Add(offsetOf(p), "invalid UTF-8 in the event; bad bytes shown as '?'");
        }
        if (error) error = impl.DecodeRepaired(p, scan.end - p, offsetOf(p), out, error);
        if (error) {
            out.problems.Add(offsetOf(p), std::string("malformed event: ") +
                                              simdjson::error_message(error) + "; skipped");
            const char* next = FindLikelyEventStart(p + 1, scan.end, end);
            if (next && next < scan.end) {
                // The bad event hid others behind a broken string: go back for them.
                p = next;
                expectComma = false;
                continue;
            }
        }
        p = scan.end;
        expectComma = true;
    }
}

}  // namespace marey

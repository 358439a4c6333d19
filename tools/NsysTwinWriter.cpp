#include "NsysTwinWriter.hpp"

#include <simdjson.h>

#include <memory>
#include <optional>
#include <unordered_map>

#include "SqliteWriter.hpp"

namespace marey {
namespace {

namespace ondemand = simdjson::ondemand;

// A Kineto time in µs with up to three decimals ("1712195495500012.800") as exact ns.
std::optional<int64_t> MicrosToNs(std::string_view token) {
    while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == ','))
        token.remove_suffix(1);
    int64_t whole = 0, fraction = 0;
    int fractionDigits = 0;
    bool inFraction = false, any = false;
    for (const char c : token) {
        if (c == '.' && !inFraction) {
            inFraction = true;
        } else if (c >= '0' && c <= '9') {
            any = true;
            if (!inFraction) {
                whole = whole * 10 + (c - '0');
            } else if (fractionDigits < 3) {
                fraction = fraction * 10 + (c - '0');
                ++fractionDigits;
            }
        } else {
            return std::nullopt;
        }
    }
    if (!any) return std::nullopt;
    while (fractionDigits++ < 3) fraction *= 10;
    return whole * 1000 + fraction;
}

// What the twin needs of one event.
struct Event {
    std::string_view phase, category, name;
    int64_t pid = 0, tid = 0;
    std::optional<int64_t> ts, dur;
    int64_t device = 0, stream = 0, correlation = -1, bytes = -1;
    std::string_view metadataName;  // args.name of a process_name / thread_name record
};

int64_t IntOf(ondemand::value value) {
    int64_t number = 0;
    if (value.get_int64().get(number) == simdjson::SUCCESS) return number;
    std::string_view text;
    if (value.get_string().get(text) == simdjson::SUCCESS) {
        number = 0;
        for (const char c : text)
            if (c >= '0' && c <= '9') number = number * 10 + (c - '0');
    }
    return number;
}

bool ReadEvent(ondemand::object object, Event& event) {
    for (auto field : object) {
        std::string_view key;
        if (field.unescaped_key().get(key) != simdjson::SUCCESS) return false;
        ondemand::value value;
        if (field.value().get(value) != simdjson::SUCCESS) return false;
        if (key == "ph") {
            if (value.get_string().get(event.phase)) return false;
        } else if (key == "cat") {
            if (value.get_string().get(event.category)) return false;
        } else if (key == "name") {
            if (value.get_string().get(event.name)) return false;
        } else if (key == "pid") {
            event.pid = IntOf(value);
        } else if (key == "tid") {
            event.tid = IntOf(value);
        } else if (key == "ts") {
            event.ts = MicrosToNs(value.raw_json_token());
        } else if (key == "dur") {
            event.dur = MicrosToNs(value.raw_json_token());
        } else if (key == "args") {
            ondemand::object args;
            if (value.get_object().get(args)) return false;
            for (auto arg : args) {
                std::string_view argKey;
                if (arg.unescaped_key().get(argKey)) return false;
                ondemand::value argValue;
                if (arg.value().get(argValue)) return false;
                if (argKey == "device")
                    event.device = IntOf(argValue);
                else if (argKey == "stream")
                    event.stream = IntOf(argValue);
                else if (argKey == "correlation")
                    event.correlation = IntOf(argValue);
                else if (argKey == "bytes")
                    event.bytes = IntOf(argValue);
                else if (argKey == "name" && argValue.get_string().get(event.metadataName))
                    return false;
            }
        }
    }
    return true;
}

// ENUM_CUDA_MEMCPY_OPER of Kineto's direction word; ENUM_CUDA_MEM_KIND of its memory words.
int64_t CopyKindOf(std::string_view name) {
    const std::string_view word = name.size() >= 11 ? name.substr(7, 4) : std::string_view{};
    if (word == "HtoD") return 1;
    if (word == "DtoH") return 2;
    if (word == "DtoD") return 8;
    if (word == "HtoH") return 9;
    if (word == "PtoP") return 10;
    return 0;
}
int64_t MemoryKindOf(std::string_view word) {
    if (word == "Pageable") return 0;
    if (word == "Pinned") return 1;
    if (word == "Device") return 2;
    return 7;
}
// "Memcpy HtoD (Pinned -> Device)": the words in the parentheses.
std::pair<int64_t, int64_t> CopyEnds(std::string_view name) {
    const size_t open = name.find('('), arrow = name.find(" -> "), close = name.rfind(')');
    if (open == std::string_view::npos || arrow == std::string_view::npos ||
        close == std::string_view::npos || arrow < open || close < arrow)
        return {7, 7};
    return {MemoryKindOf(name.substr(open + 1, arrow - open - 1)),
            MemoryKindOf(name.substr(arrow + 4, close - arrow - 4))};
}
int64_t SyncTypeOf(std::string_view name) {
    if (name == "Event Sync") return 1;
    if (name == "Stream Wait Event") return 2;
    if (name == "Stream Sync") return 3;
    if (name == "Context Sync") return 4;
    return 0;
}

class TwinWriter {
public:
    explicit TwinWriter(const std::string& path) : m_db(path) {
        m_db.Exec(
            "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT "
            "NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT "
            "NULL, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, "
            "shortName INTEGER NOT NULL, gridX INTEGER, blockX INTEGER);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT "
            "NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT "
            "NULL, correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind "
            "INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT "
            "NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT "
            "NULL, correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes "
            "INTEGER NOT NULL, memKind INTEGER);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, end "
            "INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId "
            "INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, syncType INTEGER NOT "
            "NULL);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT "
            "NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId "
            "INTEGER NOT NULL, returnValue INTEGER NOT NULL);"
            "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT "
            "NULL, rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, "
            "endGlobalTid INTEGER, textId INTEGER, domainId INTEGER);"
            "CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);"
            "CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid "
            "INTEGER);"
            "CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);"
            "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3.25.0');");
        m_kernel.reset(new SqliteInsert(
            m_db, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?,?,?,1,?,?,?,?,?,1,1)"));
        m_memcpy.reset(new SqliteInsert(
            m_db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?,?,?,1,?,?,?,?,?,?,?)"));
        m_memset.reset(new SqliteInsert(
            m_db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (?,?,?,1,?,?,?,0,?,2)"));
        m_sync.reset(new SqliteInsert(
            m_db, "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (?,?,?,1,?,?,?,?)"));
        m_runtime.reset(new SqliteInsert(
            m_db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,0,?,?,?,0)"));
        m_nvtx.reset(new SqliteInsert(
            m_db, "INSERT INTO NVTX_EVENTS VALUES (?,?,59,NULL,NULL,NULL,?,?,NULL,NULL,0)"));
        m_string.reset(new SqliteInsert(m_db, "INSERT INTO StringIds VALUES (?,?)"));
    }

    // One event of the trace; false when it is not one the generator writes.
    bool Add(const Event& event, NsysTwinReport& report) {
        if (event.phase == "M") return AddMetadata(event);
        if (event.phase != "X" || !event.ts || !event.dur) return true;
        const int64_t start = *event.ts, end = *event.ts + *event.dur;
        const std::string_view category = event.category;
        if (category == "cuda_runtime" || category == "cuda_driver") {
            if (!m_hostPid) m_hostPid = event.pid;
            m_runtime->Int(1, start).Int(2, end).Int(3, GlobalTid(event.pid, event.tid));
            if (event.correlation >= 0)
                m_runtime->Int(4, event.correlation);
            else
                m_runtime->Null(4);
            m_runtime->Int(5, StringId(std::string(event.name) + "_v3020")).Row();
            ++report.calls;
        } else if (category == "cpu_op" || category == "user_annotation") {
            std::string text(event.name);
            if (category == "cpu_op") text += ", op_id = " + std::to_string(++m_operatorId);
            m_nvtx->Int(1, start).Int(2, end).Text(3, text).Int(4, GlobalTid(event.pid, event.tid));
            m_nvtx->Row();
            ++report.ranges;
        } else if (category == "kernel" || category == "gpu_memcpy" || category == "gpu_memset" ||
                   category == "cuda_sync") {
            return AddDeviceRow(event, start, end, report);
        }
        return true;
    }

    bool Finish(std::string* error) {
        for (const auto& [pid, name] : m_processNames) {
            SqliteInsert insert(m_db, "INSERT INTO PROCESSES VALUES (?,?,?)");
            insert.Int(1, GlobalPid(pid)).Int(2, pid).Text(3, name).Row();
        }
        m_kernel.reset(), m_memcpy.reset(), m_memset.reset(), m_sync.reset();
        m_runtime.reset(), m_nvtx.reset(), m_string.reset();
        if (!m_db.Finish()) {
            *error = m_db.error();
            return false;
        }
        return true;
    }

private:
    // Nsight's serialised ids: a hardware id in the top bits, the pid in bits 24-47, the tid
    // below.
    static int64_t GlobalPid(int64_t pid) { return int64_t{1} << 48 | (pid & 0xFFFFFF) << 24; }
    static int64_t GlobalTid(int64_t pid, int64_t tid) { return GlobalPid(pid) | (tid & 0xFFFFFF); }

    int64_t StringId(const std::string& text) {
        auto [it, inserted] = m_strings.try_emplace(text, static_cast<int64_t>(m_strings.size()));
        if (inserted) m_string->Int(1, it->second).Text(2, text).Row();
        return it->second;
    }

    bool AddMetadata(const Event& event) {
        if (event.name == "process_name" && !event.metadataName.empty())
            m_processNames.try_emplace(event.pid, std::string(event.metadataName));
        if (event.name == "thread_name" && !event.metadataName.empty() && event.pid != 0) {
            SqliteInsert insert(m_db, "INSERT INTO ThreadNames VALUES (?,0,?)");
            insert.Int(1, StringId(std::string(event.metadataName)))
                .Int(2, GlobalTid(event.pid, event.tid))
                .Row();
        }
        return true;
    }

    bool AddDeviceRow(const Event& event, int64_t start, int64_t end, NsysTwinReport& report) {
        const int64_t globalPid = GlobalPid(m_hostPid);
        SqliteInsert& insert = event.category == "kernel"       ? *m_kernel
                               : event.category == "gpu_memcpy" ? *m_memcpy
                               : event.category == "gpu_memset" ? *m_memset
                                                                : *m_sync;
        insert.Int(1, start).Int(2, end).Int(3, event.device).Int(4, event.stream);
        if (event.correlation >= 0)
            insert.Int(5, event.correlation);
        else
            insert.Null(5);
        insert.Int(6, globalPid);
        if (event.category == "kernel") {
            const int64_t name = StringId(std::string(event.name));
            insert.Int(7, name).Int(8, name);
            ++report.kernels;
        } else if (event.category == "gpu_memcpy") {
            const auto [source, destination] = CopyEnds(event.name);
            insert.Int(7, std::max<int64_t>(0, event.bytes)).Int(8, CopyKindOf(event.name));
            insert.Int(9, source).Int(10, destination);
            ++report.copies;
        } else if (event.category == "gpu_memset") {
            insert.Int(7, std::max<int64_t>(0, event.bytes));
            ++report.fills;
        } else {
            insert.Int(7, SyncTypeOf(event.name));
            ++report.synchronizations;
        }
        insert.Row();
        return true;
    }

    SqliteWriter m_db;
    std::unique_ptr<SqliteInsert> m_kernel, m_memcpy, m_memset, m_sync, m_runtime, m_nvtx, m_string;
    std::unordered_map<std::string, int64_t> m_strings;
    std::unordered_map<int64_t, std::string> m_processNames;
    int64_t m_hostPid = 0;
    int64_t m_operatorId = 0;
};

}  // namespace

bool WriteNsysTwin(std::string_view kineto, const std::string& path, NsysTwinReport* report,
                   std::string* error) {
    NsysTwinReport counts;
    const simdjson::padded_string text(kineto);
    ondemand::parser parser;
    ondemand::document document;
    ondemand::array events;
    if (parser.iterate(text).get(document) || document["traceEvents"].get_array().get(events)) {
        *error = "not a Kineto trace: no traceEvents array";
        return false;
    }
    TwinWriter writer(path);
    for (auto element : events) {
        ondemand::object object;
        Event event;
        if (element.get_object().get(object) || !ReadEvent(object, event)) {
            *error = "not a Kineto trace: an event that is not an object of known fields";
            return false;
        }
        writer.Add(event, counts);
    }
    if (!writer.Finish(error)) return false;
    if (report) *report = counts;
    return true;
}

}  // namespace marey

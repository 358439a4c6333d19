#pragma once
// The fields the device analyses read of each task and CANN call of a profiler database (its task
// type and connection id: the text export's "Task Type" and "connection_id" args), kept by the
// database reader while it reads the rows: the model keeps names and times only, and a database,
// unlike a text, cannot be read again at an event's offset.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/PodArray.hpp"
#include "load/EventFields.hpp"

namespace marey {

// By the rows' references (a slice's ref), ascending once Finish has run.
class TaskFieldTable {
public:
    // 'taskType' is the type's text ("AI_CORE", "SDMA"); empty for a row without one (a CANN
    // call). A connection id below 0 means none. 'ref' must be below 2^56.
    void Append(uint64_t ref, std::string_view taskType, int64_t connection) {
        Append(ref, CodeOf(taskType), connection);
    }
    // The same with the type's code, from CodeOf: a reader that knows its rows' types by id
    // looks each one up once.
    void Append(uint64_t ref, uint8_t taskTypeCode, int64_t connection);
    uint8_t CodeOf(std::string_view taskType);
    // Sorts by reference when the rows came in another order. O(n) when they did not.
    void Finish();
    size_t size() const { return m_connection.size(); }
    bool empty() const { return m_connection.empty(); }
    // The kinds of task type met (at most 255; any later one reads as "other").
    size_t TaskTypeCount() const { return m_taskTypes.size(); }

    // The fields of the row of 'ref' (no category: a database has none), or nullopt when none was
    // kept. Searched from 'hint', the previous answer for the same caller: amortised O(1) when
    // refs grow, O(log n) otherwise. Only after Finish.
    std::optional<ActivityFields> Find(uint64_t ref, size_t& hint) const;

private:
    PodArray<uint64_t> m_refAndType;                         // ref << 8 | task type code (0: none)
    PodArray<int64_t> m_connection;                          // -1: none
    std::vector<std::string> m_taskTypes = {std::string()};  // by code
    uint8_t m_lastCode = 0;                                  // the code of the previous row's type
};

}  // namespace marey

#pragma once
// Error values for analysis/: nothing in the library throws across its API.
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace marey {

// A failure with a human-readable message; an empty message means success.
class [[nodiscard]] Status {
public:
    Status() = default;
    static Status Error(std::string message) { return Status(std::move(message), true); }
    bool ok() const { return !m_failed; }
    const std::string& message() const { return m_message; }

private:
    Status(std::string message, bool failed) : m_message(std::move(message)), m_failed(failed) {}
    std::string m_message;
    bool m_failed = false;
};

// Either a value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_value(std::move(value)) {}
    Result(Status status) : m_value(std::move(status)) {}
    bool ok() const { return std::holds_alternative<T>(m_value); }
    T& value() { return std::get<T>(m_value); }
    const T& value() const { return std::get<T>(m_value); }
    const std::string& message() const { return std::get<Status>(m_value).message(); }
    Status status() const { return ok() ? Status() : std::get<Status>(m_value); }

private:
    std::variant<T, Status> m_value;
};

// One problem found while importing: where it is and what was wrong.
struct ImportProblem {
    uint64_t byteOffset = 0;
    uint32_t line = 0;    // 1-based, filled in once the load is done
    uint32_t column = 0;  // 1-based byte column
    std::string message;
};

}  // namespace marey

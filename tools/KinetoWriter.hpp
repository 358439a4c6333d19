#pragma once
// The JSON text of the Kineto trace generator: a buffer written out every MiB, numbers without
// printf, and the counts of what was written.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "TraceGenerator.hpp"

namespace marey {

// Appends the trace to a buffer written out every MiB; counts what it writes.
class KinetoWriter {
public:
    static constexpr size_t kFlushBytes = 1 << 20;

    KinetoWriter(std::FILE* out, GeneratorReport& report) : m_out(out), m_report(report) {
        m_buffer.reserve(kFlushBytes + 16384);
    }
    ~KinetoWriter() { Flush(); }
    KinetoWriter(const KinetoWriter&) = delete;
    KinetoWriter& operator=(const KinetoWriter&) = delete;

    void Text(std::string_view text) { m_buffer.append(text); }
    void Int(int64_t value) {
        char digits[24];
        int n = 0;
        uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : value;
        do {
            digits[n++] = static_cast<char>('0' + magnitude % 10);
            magnitude /= 10;
        } while (magnitude);
        if (value < 0) m_buffer += '-';
        while (n) m_buffer += digits[--n];
    }
    // Microseconds with three decimals, as Kineto writes ts and dur: "1712195495505582.988".
    void Micros(int64_t ns) {
        Int(ns / 1000);
        const int64_t fraction = ns % 1000;
        const char text[4] = {'.', static_cast<char>('0' + fraction / 100),
                              static_cast<char>('0' + fraction / 10 % 10),
                              static_cast<char>('0' + fraction % 10)};
        m_buffer.append(text, 4);
    }
    // An event's opening: the separator from the last one, "{" and the count by phase.
    void BeginEvent(char phase) {
        Text(m_firstEvent ? "\n  {" : ",\n  {");
        m_firstEvent = false;
        ++m_report.events;
        ++m_byPhase[static_cast<unsigned char>(phase)];
    }
    // Closes an event that covers [startNs, endNs] of the timeline.
    void EndEvent(int64_t startNs, int64_t endNs) {
        m_buffer += '}';
        m_report.firstNs = std::min(m_report.firstNs, startNs);
        m_report.lastNs = std::max(m_report.lastNs, endNs);
        if (m_buffer.size() >= kFlushBytes) Flush();
    }
    // Closes a metadata record: it holds no time of the timeline.
    void EndMetadata() { m_buffer += '}'; }
    void Finish() {
        for (int phase = 0; phase < 256; ++phase)
            if (m_byPhase[phase]) m_report.byPhase[static_cast<char>(phase)] = m_byPhase[phase];
        Flush();
    }
    void Flush() {
        if (m_out) std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_out);
        m_report.bytes += m_buffer.size();
        m_buffer.clear();
    }

private:
    std::FILE* m_out;
    GeneratorReport& m_report;
    std::string m_buffer;
    std::array<uint64_t, 256> m_byPhase{};
    bool m_firstEvent = true;
};

}  // namespace marey

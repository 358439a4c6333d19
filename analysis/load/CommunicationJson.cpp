#include "load/CommunicationJson.hpp"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <unordered_set>

#include "core/Problem.hpp"

namespace marey {
namespace {

namespace od = simdjson::ondemand;

// A file cut short (a job killed while writing) fails simdjson's first pass as a whole. Keep
// every object that closed: cut after the last '}' or ']' that ended one and close the brackets
// still open there. Returns "" when nothing closed. O(n).
std::string CloseTruncated(std::string_view text, uint64_t* cutOffset) {
    std::string open, openAtCut;
    size_t cut = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '{' || c == '[')
            open += c;
        else if ((c == '}' || c == ']') && !open.empty()) {
            open.pop_back();
            if (!open.empty()) {
                cut = i + 1;
                openAtCut = open;
            }
        }
    }
    if (cut == 0) return std::string();
    *cutOffset = cut;
    std::string closed(text.substr(0, cut));
    for (auto it = openAtCut.rbegin(); it != openAtCut.rend(); ++it)
        closed += *it == '{' ? '}' : ']';
    const size_t size = closed.size();
    closed.resize(size + simdjson::SIMDJSON_PADDING, '\0');
    closed.resize(size);
    return closed;
}

// [SECTION] Walking the nested objects, checking every value

// Reads one JSON file of the shape { step: { "p2p"|"collective": { key: {…} } } } and hands
// every innermost object to 'visit'. Problems carry byte offsets into 'text'.
class NestedReader {
public:
    NestedReader(std::string_view text, std::vector<ImportProblem>& problems)
        : m_text(text), m_problems(problems) {}

    using Visitor = std::function<void(const std::string& step, const std::string& kind,
                                       std::string_view key, od::object)>;

    // The text closed where it was cut (CloseTruncated), iterated in 'document' with the cut
    // named; false when no cut can be closed or the closed text is not JSON either.
    bool IterateClosed(od::parser& parser, od::document& document, simdjson::error_code error) {
        uint64_t cut = 0;
        m_closed = CloseTruncated(m_text, &cut);
        if (m_closed.empty() || parser
                                    .iterate(m_closed.data(), m_closed.size(),
                                             m_closed.size() + simdjson::SIMDJSON_PADDING)
                                    .get(document))
            return false;
        m_problems.push_back({cut, 0, 0,
                              std::string("the file is cut short or malformed after here (") +
                                  simdjson::error_message(error) +
                                  "); everything before was read"});
        return true;
    }

    // Returns false when the text is not JSON at all (the caller turns that into a fatal error).
    bool Walk(const Visitor& visit, std::string* fatal) {
        od::parser parser;
        od::document document;
        m_document = &document;
        if (auto error = parser
                             .iterate(m_text.data(), m_text.size(),
                                      m_text.size() + simdjson::SIMDJSON_PADDING)
                             .get(document)) {
            if (!IterateClosed(parser, document, error)) {
                *fatal = std::string("not JSON: ") + simdjson::error_message(error);
                return false;
            }
        }
        od::object steps;
        if (auto error = document.get_object().get(steps)) {
            // A file cut short with its strings whole passes the first look and fails only
            // here, as an object that does not end: read what comes before the cut.
            if (!m_closed.empty() || !IterateClosed(parser, document, error) ||
                document.get_object().get(steps)) {
                *fatal = "the top level is not an object of steps";
                return false;
            }
        }
        for (auto stepField : steps) {
            std::string_view stepKey;
            od::object kinds;
            if (Failed(stepField.unescaped_key().get(stepKey), document)) return true;
            if (auto error = stepField.value().get_object().get(kinds)) {
                if (Structural(error)) return Report(document, error), true;
                Note(document, "\"" + std::string(stepKey) + "\" is not an object; skipped");
                continue;
            }
            const std::string step(stepKey);
            for (auto kindField : kinds) {
                std::string_view kindKey;
                od::object entries;
                if (Failed(kindField.unescaped_key().get(kindKey), document)) return true;
                if (auto error = kindField.value().get_object().get(entries)) {
                    if (Structural(error)) return Report(document, error), true;
                    Note(document, "\"" + std::string(kindKey) + "\" is not an object; skipped");
                    continue;
                }
                const std::string kind(kindKey);
                for (auto entry : entries) {
                    std::string_view key;
                    od::object body;
                    if (Failed(entry.unescaped_key().get(key), document)) return true;
                    if (auto error = entry.value().get_object().get(body)) {
                        if (Structural(error)) return Report(document, error), true;
                        Note(document, "\"" + std::string(key) + "\" is not an object; skipped");
                        continue;
                    }
                    const std::string keyCopy(key);  // the view dies with the next string read
                    visit(step, kind, keyCopy, body);
                    if (m_stopped) return true;
                }
                if (m_stopped) return true;
            }
        }
        const char* after = nullptr;
        if (!m_stopped && !document.current_location().get(after))
            NoteAt(after, "text after the end of the JSON object; ignored");
        return true;
    }

    // Number at 'value' as exact decimal text, or a problem noted and false.
    bool NumberText(od::value value, std::string_view field, std::string_view* text) {
        od::json_type type;
        if (value.type().get(type) || type != od::json_type::number) {
            const std::string_view raw = TrimmedToken(value.raw_json_token());
            // Python's json writes NaN and ±Infinity bare: no figure at all, unlike a null or a
            // string the writer chose, so the operator or link is not kept with a made-up 0.
            if (raw == "NaN" || raw == "Infinity" || raw == "-Infinity")
                Reject(raw, field, "not a finite number");
            else
                NoteAt(raw.data(), "\"" + std::string(field) + "\" is not a number: " +
                                       std::string(raw.substr(0, 40)) + "; read as 0");
            return false;
        }
        *text = TrimmedToken(value.raw_json_token());
        return true;
    }

    static std::string_view TrimmedToken(std::string_view text) {
        while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' ||
                                 text.back() == '\t'))
            text.remove_suffix(1);
        return text;
    }

    // Milliseconds as written, to ns exactly. A negative time is no time: it is noted and its
    // operator or link is rejected (see Rejected()).
    TimeNs Millis(od::value value, std::string_view field) {
        std::string_view text;
        int64_t ns = 0;
        if (!NumberText(value, field, &text)) return 0;
        if (ParseScaledDecimal(text, 6, &ns) != DecimalError::kNone)
            return Reject(text, field, "out of range"), 0;
        if (ns < 0) return Reject(text, field, "negative"), 0;
        return ns;
    }

    // A count: a non-negative integer that fits 64 bits, else 0 with a problem noted.
    uint64_t Count(od::value value, std::string_view field) {
        std::string_view text;
        int64_t count = 0;
        if (!NumberText(value, field, &text)) return 0;
        if (ParseScaledDecimal(text, 0, &count) != DecimalError::kNone || count < 0) {
            NoteAt(text.data(), "\"" + std::string(field) + "\" is not a count: " +
                                    std::string(text.substr(0, 40)) + "; read as 0");
            return 0;
        }
        return static_cast<uint64_t>(count);
    }

    // A size, bandwidth or ratio: never negative, always finite; else rejected as in Millis.
    // Where the value itself is not kept ('kept' false), a token that can only be a finite,
    // non-negative number (digits and points, a digit first, under 300 bytes) is accepted unread.
    // An amount from 0 to 'most': sizes (MB) and bandwidths (GB/s) up to 10^12, an exabyte or
    // an exabyte a second, far past any link; ratios up to 1. Anything larger is damage.
    double Double(od::value value, std::string_view field, bool kept = true,
                  double most = kMaxAmount) {
        std::string_view text;
        if (!NumberText(value, field, &text)) return 0;
        if (!kept && PlainDecimal(text)) return 0;
        const double number = NumberOfText(value, text);
        if (!std::isfinite(number) || number > most) return Reject(text, field, "out of range"), 0;
        if (number < 0) return Reject(text, field, "negative"), 0;
        return number;
    }
    static constexpr double kMaxAmount = 1e12, kMaxRatio = 1;

    // Digits and points only, a digit first, under 300 bytes: what strtod reads as a finite
    // number of at least 0, whatever else follows the first point.
    static bool PlainDecimal(std::string_view text) {
        if (text.empty() || text.size() >= 300 || static_cast<unsigned>(text[0] - '0') >= 10)
            return false;
        for (const char c : text)
            if (static_cast<unsigned>(c - '0') >= 10 && c != '.') return false;
        return true;
    }

    // What strtod reads from 'text' (the raw token of the number 'value'). simdjson's own
    // parser where it is exact: JSON's number syntax with at most 19 significant digits (the
    // Debian release, 3.0.1, misreads "0." followed by 20 digits). Anything else, an exponent
    // past the double range or a token that is not JSON's syntax, is read by strtod as before.
    static double NumberOfText(od::value& value, std::string_view text) {
        size_t digits = text.size();  // at most; counted only for long tokens
        if (digits > 19) {
            digits = 0;
            for (const char c : text) {
                if (c == 'e' || c == 'E') break;
                digits += static_cast<unsigned>(c - '0') < 10;
            }
        }
        double number = 0;
        if (digits <= 19 && !value.get_double().get(number)) return number;
        return std::strtod(std::string(text).c_str(), nullptr);
    }

    // Whether "Communication Bandwidth Info" is kept (its values are checked either way).
    bool KeepBandwidth() const { return m_keepBandwidth; }
    void SetKeepBandwidth(bool keep) { m_keepBandwidth = keep; }
    // How many values were rejected so far: an operator or link read while it grew is left out.
    int Rejected() const { return m_rejected; }
    // What a rejected value takes with it, for the message: "operator", "link".
    void SetHolder(const char* holder) { m_holder = holder; }

    // A structural error inside an op: keep what was read, stop the walk, say where.
    void Stop(simdjson::error_code error, const char* where) {
        if (m_stopped) return;
        const char* at = nullptr;
        if (!m_document || m_document->current_location().get(at))
            at = m_text.data() + m_text.size();
        NoteAt(at, std::string("malformed JSON in ") + where + ": " +
                       simdjson::error_message(error) + "; the rest of the file is not read");
        m_stopped = true;
    }
    bool stopped() const { return m_stopped; }
    static bool Structural(simdjson::error_code error) {
        return error != simdjson::INCORRECT_TYPE && error != simdjson::NUMBER_ERROR;
    }
    void NoteAt(const char* where, std::string message) {
        const uint64_t offset = where >= m_text.data() && where <= m_text.data() + m_text.size()
                                    ? static_cast<uint64_t>(where - m_text.data())
                                    : m_lastOffset;
        m_lastOffset = offset;
        m_problems.push_back({offset, 0, 0, std::move(message)});
    }

private:
    void Reject(std::string_view text, std::string_view field, const char* what) {
        NoteAt(text.data(), "\"" + std::string(field) + "\" is " + what + ": " +
                                std::string(text.substr(0, 40)) + "; " + m_holder + " left out");
        ++m_rejected;
    }
    bool Failed(simdjson::error_code error, od::document& document) {
        if (!error) return false;
        Report(document, error);
        return true;
    }
    void Report(od::document& document, simdjson::error_code error) {
        const char* at = nullptr;
        if (document.current_location().get(at)) at = m_text.data() + m_text.size();
        NoteAt(at, std::string("malformed JSON: ") + simdjson::error_message(error) +
                       "; the rest of the file is not read");
        m_stopped = true;
    }
    void Note(od::document& document, std::string message) {
        const char* at = nullptr;
        if (document.current_location().get(at)) at = m_text.data() + m_text.size();
        NoteAt(at, std::move(message));
    }

    std::string_view m_text;
    std::vector<ImportProblem>& m_problems;
    od::document* m_document = nullptr;
    std::string m_closed;  // the text with its open brackets closed, when it was cut short
    uint64_t m_lastOffset = 0;
    bool m_stopped = false;
    bool m_keepBandwidth = true;
    int m_rejected = 0;
    const char* m_holder = "operator";
};

// [SECTION] One operator's sections and one link

void SplitKey(std::string_view key, std::string* name, std::string* group) {
    const size_t at = key.rfind('@');
    *name = std::string(key.substr(0, at));
    *group = at == std::string_view::npos ? std::string() : std::string(key.substr(at + 1));
}

// What strtod reads from a packet size key ("2.064384"): std::from_chars where the key is only
// digits and a point, at most 19 of them (where both round exactly alike), else strtod itself,
// which also reads signs, white space, hexadecimal, "inf" and a number's prefix.
double SizeOfKey(std::string_view key) {
    size_t digits = 0, points = 0;
    for (const char c : key) {
        digits += static_cast<unsigned>(c - '0') < 10;
        points += c == '.';
    }
    double size = 0;
    if (!key.empty() && digits > 0 && digits <= 19 && digits + points == key.size() &&
        points <= 1 && key.front() != '.' && key.back() != '.') {
        const auto read = std::from_chars(key.data(), key.data() + key.size(), size);
        if (read.ec == std::errc() && read.ptr == key.data() + key.size()) return size;
    }
    return std::strtod(std::string(key).c_str(), nullptr);
}

// "Size Distribution": {"2.064384": [12, 1.578891625], …}
void ReadSizes(NestedReader& reader, od::object sizes, TransportBandwidth& out) {
    for (auto field : sizes) {
        std::string_view key;
        if (field.unescaped_key().get(key))
            return reader.Stop(simdjson::TAPE_ERROR, "Size Distribution");
        PacketSizeBucket bucket;
        bucket.sizeMb = SizeOfKey(key);
        od::array pair;
        if (auto error = field.value().get_array().get(pair)) {
            if (NestedReader::Structural(error)) return reader.Stop(error, "Size Distribution");
            continue;
        }
        int index = 0;
        for (auto element : pair) {
            od::value value;
            if (auto error = element.get(value)) return reader.Stop(error, "Size Distribution");
            if (index == 0)
                bucket.count = reader.Count(value, "Size Distribution count");
            else if (index == 1)
                bucket.totalNs = reader.Millis(value, "Size Distribution time");
            ++index;
        }
        if (reader.KeepBandwidth()) out.sizes.push_back(bucket);
    }
}

void ReadBandwidth(NestedReader& reader, od::object transports, CommunicationOp& op) {
    for (auto field : transports) {
        std::string_view key;
        od::object body;
        if (field.unescaped_key().get(key))
            return reader.Stop(simdjson::TAPE_ERROR, "Communication Bandwidth Info");
        TransportBandwidth bandwidth;
        if (reader.KeepBandwidth()) bandwidth.transport = std::string(key);
        bandwidth.bandwidthGBps = -1;
        if (auto error = field.value().get_object().get(body)) {
            if (NestedReader::Structural(error))
                return reader.Stop(error, "Communication Bandwidth Info");
            continue;
        }
        for (auto item : body) {
            std::string_view name;
            od::value value;
            if (item.unescaped_key().get(name) || item.value().get(value))
                return reader.Stop(simdjson::TAPE_ERROR, "Communication Bandwidth Info");
            if (name == "Transit Size(MB)")
                bandwidth.transitSizeMb = reader.Double(value, name, reader.KeepBandwidth());
            else if (name == "Transit Time(ms)")
                bandwidth.transitNs = reader.Millis(value, name);
            else if (name == "Bandwidth(GB/s)")
                bandwidth.bandwidthGBps = reader.Double(value, name, reader.KeepBandwidth());
            else if (name == "Large Packet Ratio")
                bandwidth.largePacketRatio =
                    reader.Double(value, name, reader.KeepBandwidth(), NestedReader::kMaxRatio);
            else if (name == "Size Distribution") {
                od::object sizes;
                if (auto error = value.get_object().get(sizes)) {
                    if (NestedReader::Structural(error))
                        return reader.Stop(error, "Size Distribution");
                    continue;
                }
                ReadSizes(reader, sizes, bandwidth);
            }
            if (reader.stopped()) return;
        }
        if (reader.KeepBandwidth()) op.bandwidth.push_back(std::move(bandwidth));
    }
}

void ReadTimeInfo(NestedReader& reader, od::object info, CommunicationOp& op) {
    for (auto item : info) {
        std::string_view name;
        od::value value;
        if (item.unescaped_key().get(name) || item.value().get(value))
            return reader.Stop(simdjson::TAPE_ERROR, "Communication Time Info");
        if (name == "Start Timestamp(us)") {
            std::string_view text;
            if (reader.NumberText(value, name, &text)) {
                op.hasStart = ParseMicrosToNs(text, &op.startNs) == DecimalError::kNone;
                if (!op.hasStart)
                    reader.NoteAt(text.data(), "\"Start Timestamp(us)\" is out of range; ignored");
                else if (op.startNs < 0)  // before 1970: no profiler clock reads that
                    op.hasStart = false,
                    reader.NoteAt(text.data(), "\"Start Timestamp(us)\" is negative: " +
                                                   std::string(text.substr(0, 40)) + "; ignored");
            }
        } else if (name == "Elapse Time(ms)")
            op.elapseNs = reader.Millis(value, name);
        else if (name == "Transit Time(ms)")
            op.transitNs = reader.Millis(value, name);
        else if (name == "Wait Time(ms)")
            op.waitNs = reader.Millis(value, name);
        else if (name == "Synchronization Time(ms)")
            op.syncNs = reader.Millis(value, name);
        else if (name == "Idle Time(ms)")
            op.idleNs = reader.Millis(value, name);
        else if (name == "Wait Time Ratio")
            op.waitRatio = reader.Double(value, name, true, NestedReader::kMaxRatio);
        else if (name == "Synchronization Time Ratio")
            op.syncRatio = reader.Double(value, name, true, NestedReader::kMaxRatio);
        if (reader.stopped()) return;
    }
}

// The sections of one operator's object: "Communication Time Info", "Communication Bandwidth Info".
void ReadOpSections(NestedReader& reader, od::object body, CommunicationOp& op) {
    for (auto section : body) {
        std::string_view sectionName;
        od::object sectionBody;
        if (section.unescaped_key().get(sectionName))
            return reader.Stop(simdjson::TAPE_ERROR, "operator");
        if (auto error = section.value().get_object().get(sectionBody)) {
            if (NestedReader::Structural(error)) return reader.Stop(error, "operator");
            continue;
        }
        if (sectionName == "Communication Time Info")
            ReadTimeInfo(reader, sectionBody, op);
        else if (sectionName == "Communication Bandwidth Info")
            ReadBandwidth(reader, sectionBody, op);
        if (reader.stopped()) return;
    }
}

// "0-1" → 0, 1
bool ParseLinkKey(std::string_view key, int* src, int* dst) {
    const size_t dash = key.find('-');
    if (dash == std::string_view::npos || dash == 0 || dash + 1 >= key.size()) return false;
    int64_t a = 0, b = 0;
    if (ParseScaledDecimal(key.substr(0, dash), 0, &a) != DecimalError::kNone ||
        ParseScaledDecimal(key.substr(dash + 1), 0, &b) != DecimalError::kNone || a < 0 || b < 0 ||
        a > 1 << 24 || b > 1 << 24)
        return false;
    *src = static_cast<int>(a);
    *dst = static_cast<int>(b);
    return true;
}

Status Finish(std::string_view text, const std::string& name, bool ok, const std::string& fatal,
              std::vector<ImportProblem>& problems) {
    std::stable_sort(
        problems.begin(), problems.end(),
        [](const ImportProblem& a, const ImportProblem& b) { return a.byteOffset < b.byteOffset; });
    FillLineColumns(text, problems);
    if (!ok) return Status::Error(name + ":1:1: error: " + fatal);
    return Status();
}

}  // namespace

// [SECTION] The three files

Status ParseCommunicationJson(std::string_view text, const std::string& name,
                              CommunicationOps& data, const CommunicationReadOptions& options) {
    std::vector<ImportProblem>& problems = data.problems;
    NestedReader reader(text, problems);
    reader.SetKeepBandwidth(options.keepBandwidth);
    std::string fatal;
    const bool ok = reader.Walk(
        [&](const std::string& step, const std::string& kind, std::string_view key,
            od::object body) {
            CommunicationOp op;
            op.step = step;
            op.kind = kind;
            SplitKey(key, &op.name, &op.group);
            // The sum of the others: "Total Op Info", or "Total Op Info@<group>" (msprof-analyze).
            op.isTotal = op.name == "Total Op Info";
            const int rejected = reader.Rejected();
            ReadOpSections(reader, body, op);
            // Kept even when cut short (what was read is right), but not with a value that cannot
            // be.
            if (reader.Rejected() == rejected) data.ops.push_back(std::move(op));
        },
        &fatal);
    return Finish(text, name, ok, fatal, problems);
}

Status ParseClusterCommunicationJson(std::string_view text, const std::string& name,
                                     CommunicationOps& data) {
    std::vector<ImportProblem>& problems = data.problems;
    NestedReader reader(text, problems);
    std::string fatal;
    const bool ok = reader.Walk(
        [&](const std::string& group, const std::string& step, std::string_view key,
            od::object ranks) {
            const std::string opKey(key);
            for (auto rankField : ranks) {
                std::string_view rankKey;
                od::object body;
                if (rankField.unescaped_key().get(rankKey))
                    return reader.Stop(simdjson::TAPE_ERROR, "operator");
                int64_t rank = -1;
                const bool rankOk = ParseScaledDecimal(rankKey, 0, &rank) == DecimalError::kNone &&
                                    rank >= 0 && rank < 1 << 24;
                const std::string rankCopy(rankKey);
                if (auto error = rankField.value().get_object().get(body)) {
                    if (NestedReader::Structural(error)) return reader.Stop(error, "operator");
                    continue;
                }
                if (!rankOk) {
                    reader.NoteAt(nullptr, "rank \"" + rankCopy.substr(0, 40) +
                                               "\" is not a rank id; skipped");
                    continue;
                }
                CommunicationOp op;
                op.step = step;
                op.kind = group;
                op.rank = static_cast<int>(rank);
                SplitKey(opKey, &op.name, &op.group);
                op.isTotal = op.name == "Total Op Info";
                const int rejected = reader.Rejected();
                ReadOpSections(reader, body, op);
                if (reader.Rejected() == rejected) data.ops.push_back(std::move(op));
                if (reader.stopped()) return;
            }
        },
        &fatal);
    return Finish(text, name, ok, fatal, problems);
}

Status ReadCommunicationMatrixLinks(
    std::string_view text, const std::string& name, std::vector<ImportProblem>& problems,
    const std::function<void(const CommunicationLinkView&)>& visit) {
    NestedReader reader(text, problems);
    reader.SetHolder("link");
    std::string fatal;
    const bool ok = reader.Walk(
        [&](const std::string& step, const std::string& kind, std::string_view key,
            od::object body) {
            const std::string group(key);
            // A JSON object's key given twice (a damaged writer's 10,000 copies of one link)
            // would count its link as many times: the first is kept, each repeat named.
            std::unordered_set<uint64_t> linksSeen;
            for (auto linkField : body) {
                std::string_view linkKey;
                od::object linkBody;
                if (linkField.unescaped_key().get(linkKey))
                    return reader.Stop(simdjson::TAPE_ERROR, "link");
                CommunicationLinkView link;
                link.step = step;
                link.kind = kind;
                link.group = group;
                const bool keyOk = ParseLinkKey(linkKey, &link.srcRank, &link.dstRank);
                od::value linkValue;
                if (auto error = linkField.value().get(linkValue))
                    return reader.Stop(error, "link");
                // Where the link's figures start: simdjson gives the key once, as text only.
                const char* valueAt = linkValue.raw_json_token().data();
                if (auto error = linkValue.get_object().get(linkBody)) {
                    if (NestedReader::Structural(error)) return reader.Stop(error, "link");
                    reader.NoteAt(valueAt, "link \"" + std::string(linkKey.substr(0, 40)) +
                                               "\" is not an object of figures; skipped");
                    continue;
                }
                if (!keyOk) {
                    reader.NoteAt(valueAt, "link \"" + std::string(linkKey.substr(0, 40)) +
                                               "\" is not \"<src rank>-<dst rank>\"; skipped");
                    continue;
                }
                const uint64_t pair = uint64_t{static_cast<uint32_t>(link.srcRank)} << 32 |
                                      static_cast<uint32_t>(link.dstRank);
                if (!linksSeen.insert(pair).second) {
                    reader.NoteAt(valueAt, "link \"" + std::string(linkKey.substr(0, 40)) +
                                               "\" again in this operator; the first kept");
                    continue;
                }
                const int rejected = reader.Rejected();
                for (auto item : linkBody) {
                    std::string_view field;
                    od::value value;
                    if (item.unescaped_key().get(field) || item.value().get(value))
                        return reader.Stop(simdjson::TAPE_ERROR, "link");
                    // Strings stay in the parser's buffer (or the text) until the document ends.
                    if (field == "Transport Type") {
                        std::string_view transport;
                        if (!value.get_string().get(transport)) link.transport = transport;
                    } else if (field == "Op Name") {
                        std::string_view opName;
                        if (!value.get_string().get(opName)) link.opName = opName;
                    } else if (field == "Transit Size(MB)")
                        link.transitSizeMb = reader.Double(value, field);
                    else if (field == "Transit Time(ms)")
                        link.transitNs = reader.Millis(value, field);
                    else if (field == "Bandwidth(GB/s)")
                        link.bandwidthGBps = reader.Double(value, field);
                    if (reader.stopped()) return;
                }
                if (reader.Rejected() == rejected) visit(link);
            }
        },
        &fatal);
    return Finish(text, name, ok, fatal, problems);
}

Status ParseCommunicationMatrixJson(std::string_view text, const std::string& name,
                                    CommunicationMatrix& data) {
    return ReadCommunicationMatrixLinks(
        text, name, data.problems, [&](const CommunicationLinkView& view) {
            CommunicationLink link;
            link.step = std::string(view.step);
            link.kind = std::string(view.kind);
            link.group = std::string(view.group);
            link.opName = view.opName.empty() ? link.group.substr(0, link.group.rfind('@'))
                                              : std::string(view.opName);
            link.srcRank = view.srcRank, link.dstRank = view.dstRank;
            link.transport = std::string(view.transport);
            link.transitSizeMb = view.transitSizeMb;
            link.transitNs = view.transitNs;
            link.bandwidthGBps = view.bandwidthGBps;
            data.links.push_back(std::move(link));
        });
}

}  // namespace marey

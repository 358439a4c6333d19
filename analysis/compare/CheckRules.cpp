#include "compare/CheckRules.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/TextFormat.hpp"

namespace marey {
namespace {

constexpr std::string_view kPrefixes[] = {"step", "phase", "op", "type", "comm", "input", "cp"};

// The critical path's figures: its bound kinds (path/PathGraph.hpp BoundKindName).
constexpr std::string_view kCriticalPathFigures[] = {"cpu", "compute", "communication", "launch",
                                                     "kernel_kernel"};

std::string_view Trimmed(std::string_view text, size_t* skipped) {
    size_t first = 0;
    while (first < text.size() && (text[first] == ' ' || text[first] == '\t')) ++first;
    size_t last = text.size();
    while (last > first &&
           (text[last - 1] == ' ' || text[last - 1] == '\t' || text[last - 1] == '\r'))
        --last;
    *skipped = first;
    return text.substr(first, last - first);
}

// A decimal number at the start of 'text'; its length in 'used', 0 when there is none.
double LeadingNumber(std::string_view text, size_t* used) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    *used = error == std::errc() ? static_cast<size_t>(end - text.data()) : 0;
    return value;
}

}  // namespace

const char* CheckKindName(CheckKind kind) {
    return kPrefixes[static_cast<size_t>(kind)].data();
}

CheckRules CheckRules::Defaults() {
    CheckRules rules;
    rules.rules = {{CheckKind::kStep, "*", 5},           {CheckKind::kPhase, "*", 5},
                   {CheckKind::kOperator, "*", 10},      {CheckKind::kType, "*", 10},
                   {CheckKind::kCommunication, "*", 10}, {CheckKind::kInput, "*", 10}};
    return rules;
}

bool CheckRules::Names(CheckKind kind, const std::string& name) const {
    for (const CheckRule& rule : rules)
        if (rule.kind == kind && (name.empty() || GlobMatches(rule.pattern, name))) return true;
    return false;
}

double CheckRules::MaxPercentFor(CheckKind kind, const std::string& name) const {
    double found = kind == CheckKind::kStep || kind == CheckKind::kPhase ? 5 : 10;
    for (const CheckRule& rule : rules)
        if (rule.kind == kind && GlobMatches(rule.pattern, name)) found = rule.maxPercent;
    return found;
}

std::optional<RuleError> ParseMaxRule(std::string_view text, CheckRule* rule) {
    const size_t equals = text.rfind('=');
    if (equals == std::string_view::npos)
        return RuleError{text.size(), "expected '=' and a percentage, as in step=3%"};
    const std::string_view target = text.substr(0, equals);
    const size_t colon = target.find(':');
    const std::string_view prefix = target.substr(0, colon);
    bool known = false;
    for (size_t k = 0; k < std::size(kPrefixes); ++k) {
        if (prefix != kPrefixes[k]) continue;
        known = true;
        rule->kind = static_cast<CheckKind>(k);
    }
    if (!known || (rule->kind == CheckKind::kStep) != (colon == std::string_view::npos))
        return RuleError{
            0,
            "expected step, phase:NAME, op:NAME, type:NAME, comm:NAME, input:NAME or cp:KIND "
            "before '='"};
    rule->pattern = colon == std::string_view::npos ? "*" : std::string(target.substr(colon + 1));
    if (rule->pattern.empty()) return RuleError{colon + 1, "expected a name or pattern after ':'"};
    // The critical path has five figures: a pattern that matches none of them is a mistake.
    if (rule->kind == CheckKind::kCriticalPath &&
        std::none_of(std::begin(kCriticalPathFigures), std::end(kCriticalPathFigures),
                     [&](std::string_view figure) { return GlobMatches(rule->pattern, figure); }))
        return RuleError{colon + 1,
                         "expected cpu, compute, communication, launch or kernel_kernel (or a "
                         "pattern of them) after cp:, got " +
                             QuoteForMessage(rule->pattern)};
    const std::string_view value = text.substr(equals + 1);
    size_t used = 0;
    rule->maxPercent = LeadingNumber(value, &used);
    if (used == 0 || value.substr(used) != "%" || !std::isfinite(rule->maxPercent) ||
        rule->maxPercent < 0)
        return RuleError{equals + 1, "expected a percentage such as 8% after '=', got " +
                                         QuoteForMessage(value)};
    return std::nullopt;
}

std::optional<RuleError> ParseCheckDuration(std::string_view text, TimeNs* ns) {
    size_t used = 0;
    const double value = LeadingNumber(text, &used);
    const std::string_view unit = text.substr(used);
    double scale = 0;
    if (unit == "ns") scale = 1;
    if (unit == "us" || unit == "µs") scale = 1e3;
    if (unit == "ms") scale = 1e6;
    if (unit == "s") scale = 1e9;
    if (used == 0 || scale == 0 || value < 0 || !std::isfinite(value) || value * scale > 9e18)
        return RuleError{
            0, "expected a duration such as 50us (ns, us, ms or s), got " + QuoteForMessage(text)};
    *ns = static_cast<TimeNs>(std::llround(value * scale));
    return std::nullopt;
}

Status ParseRulesText(std::string_view text, const std::string& path, CheckRules* rules) {
    // Editors on Windows start a UTF-8 file with a byte-order mark: not a part of the first rule.
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    size_t lineNumber = 0;
    while (!text.empty()) {
        ++lineNumber;
        const size_t newline = text.find('\n');
        std::string_view line = text.substr(0, newline);
        text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
        line = line.substr(0, line.find('#'));
        size_t indent = 0;
        line = Trimmed(line, &indent);
        if (line.empty()) continue;
        const size_t space = line.find_first_of(" \t");
        const std::string_view keyword = line.substr(0, space);
        size_t gap = 0;
        const std::string_view argument = space == std::string_view::npos
                                              ? std::string_view()
                                              : Trimmed(line.substr(space), &gap);
        const size_t argumentColumn =
            indent + (space == std::string_view::npos ? line.size() : space + gap);
        std::optional<RuleError> error;
        if (keyword == "max") {
            CheckRule rule;
            error = ParseMaxRule(argument, &rule);
            if (!error) rules->rules.push_back(rule);
        } else if (keyword == "min-time") {
            TimeNs ns = 0;
            error = ParseCheckDuration(argument, &ns);
            if (!error) rules->minTimeNs = ns;
        } else {
            error = RuleError{0, "expected 'max' or 'min-time' at the start of a rule, got " +
                                     QuoteForMessage(keyword)};
            error->column = 0;
            return Status::Error(path + ":" + std::to_string(lineNumber) + ":" +
                                 std::to_string(indent + 1) + ": error: " + error->message);
        }
        if (error)
            return Status::Error(path + ":" + std::to_string(lineNumber) + ":" +
                                 std::to_string(argumentColumn + error->column + 1) +
                                 ": error: " + error->message);
    }
    return Status();
}

bool GlobMatches(std::string_view pattern, std::string_view text) {
    size_t p = 0, t = 0, starP = std::string_view::npos, starT = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
            ++p, ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            starP = p++, starT = t;
        } else if (starP != std::string_view::npos) {
            p = starP + 1, t = ++starT;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

}  // namespace marey

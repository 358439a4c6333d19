#pragma once
// The thresholds of `marey check`: how much slower each kind of figure may get before it counts as
// a regression, from the defaults, a rules file and the command line. One rule a line, the same
// text on the command line (after --max or --min-time) as in the file:
//   max step=3%              step time
//   max phase:free=8%        an overview phase (computing, communication_not_overlapped,
//                            overlapped, free; '*' for all)
//   max op:aclnnMatMul*=8%   operators by name ('*' and '?' as in a shell)
//   max type:MatMul=8%       operators by type
//   max comm:hcom_allReduce*=8%  communication operators
//   max input:step_interval=20%  the input figures (step_interval, data_loader)
//   max cp:communication=10%     the critical path's time by what bounds it (cpu, compute,
//                            communication, launch, kernel_kernel); checked only when a rule
//                            names it
//   min-time 50us            figures smaller per step are not checked (ns, us, ms, s)
// A '#' starts a comment. A later rule wins over an earlier one for the figures both match.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"
#include "core/Time.hpp"

namespace marey {

enum class CheckKind { kStep, kPhase, kOperator, kType, kCommunication, kInput, kCriticalPath };

// "step", "phase", "op", "type", "comm", "input", "cp": the rule prefixes and the JSON's "kind".
const char* CheckKindName(CheckKind kind);

struct CheckRule {
    CheckKind kind = CheckKind::kStep;
    std::string pattern = "*";  // glob over the figure's name; always "*" for kStep
    double maxPercent = 5;
};

struct CheckRules {
    std::vector<CheckRule> rules;  // in the order given: the last match wins
    // Operators, communication operators and phases that take less per step on both sides are
    // not checked; unset: 1 % of the baseline's median step time.
    std::optional<TimeNs> minTimeNs;

    // Step time and every phase +5 %, operators, types, communication and input +10 %.
    static CheckRules Defaults();

    // The threshold in percent for the figure 'name' of 'kind'. O(rules).
    double MaxPercentFor(CheckKind kind, const std::string& name) const;
    // Whether a rule of 'kind' matches 'name' (any name when empty): the critical path's figures
    // are checked only then. O(rules).
    bool Names(CheckKind kind, const std::string& name = "") const;
};

// A rule that could not be read: the 0-based byte column in the text given and what was expected.
struct RuleError {
    size_t column = 0;
    std::string message;
};

// Reads "step=3%", "op:aclnnMatMul*=8%" (what follows --max) into 'rule'.
std::optional<RuleError> ParseMaxRule(std::string_view text, CheckRule* rule);

// Reads "50us", "1.5ms", "200ns", "2s" into 'ns'.
std::optional<RuleError> ParseCheckDuration(std::string_view text, TimeNs* ns);

// Reads a rules file's text into 'rules' (appended); on a mistake returns
// "PATH:LINE:COLUMN: error: expected …" and leaves what was read before it in 'rules'.
Status ParseRulesText(std::string_view text, const std::string& path, CheckRules* rules);

// '*' matches any run of characters, '?' one character. O(|pattern| × |text|) at worst.
bool GlobMatches(std::string_view pattern, std::string_view text);

}  // namespace marey

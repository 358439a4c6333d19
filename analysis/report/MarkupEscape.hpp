#pragma once
// Text written into XML or HTML (the JUnit and HTML reports): names from a trace may hold any
// character, so each goes through here before it meets markup.
#include <string>
#include <string_view>

namespace marey {

// 'text' with the five characters that mean something in markup (& < > " ') written as entities:
// safe in element text and in quoted attributes alike. O(text).
std::string EscapeMarkup(std::string_view text);

}  // namespace marey

#pragma once
// Where the viewer finds what it ships with (fonts, the bundled sample): next to the executable
// in a build tree, under ../share/marey once installed with `cmake --install`.
#include <string>

namespace marey {

// The folder of the running executable ("." when /proc does not say).
std::string ExecutableDir();

// The first of 'candidates' (paths relative to ExecutableDir(), or absolute) that is readable;
// empty when none is.
std::string FirstReadable(const std::initializer_list<std::string>& candidates);

}  // namespace marey

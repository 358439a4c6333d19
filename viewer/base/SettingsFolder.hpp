#pragma once
// Where the viewer keeps what a person chose between runs: ~/.config/marey/. The product was
// called tracelens before; a file kept under ~/.config/tracelens/ is copied over the first time
// its new place is asked for and is missing, so nobody loses their layout or recent files.
#include <string>

namespace marey {

// The path of 'name' in the settings folder under 'home' (the HOME variable; "." when unset).
// Copies home/.config/tracelens/name there first when only the old one exists (creating the
// folder); a copy that fails leaves the new path absent, which readers treat as "no settings".
std::string SettingsFilePath(const std::string& home, const std::string& name);

// The same under the HOME of this process.
std::string SettingsFilePath(const std::string& name);

}  // namespace marey

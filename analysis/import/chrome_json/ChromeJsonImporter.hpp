#pragma once
// A Chrome Trace Event or Kineto JSON trace (.json, .json.gz) that came alone: its timeline, and
// the rank tables made from its device activities. The reader of last resort: any path no other
// importer reads is read as a trace, whose loader says what is wrong with it.
#include "import/Importer.hpp"

namespace marey {

Importer ChromeJsonImporter();

}  // namespace marey

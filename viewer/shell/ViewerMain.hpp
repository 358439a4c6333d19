#pragma once
// Command-line entry of the viewer: marey [PATH] [--screenshot OUT.png] [--size WxH] [--keys K]

namespace marey {

int RunViewer(int argc, char** argv);

}  // namespace marey

#pragma once
// Command-line entry of the viewer: tracelens [PATH] [--screenshot OUT.png] [--size WxH] [--keys K]

namespace tracelens {

int RunViewer(int argc, char** argv);

}  // namespace tracelens

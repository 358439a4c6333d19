#include "timeline/KeyMotion.hpp"

#include <algorithm>
#include <cmath>

namespace marey {
namespace {
constexpr double kZoomPerSecond = 2.2;  // e-folds of view width per second, before acceleration
// Held W or S speeds up to 1.6 times over 1.5 s, and no more: from the whole of a 90 s trace a
// person reaches 100 µs in about 5 s and can still let go at the level they want.
constexpr double kZoomMaxSpeedup = 1.6;
constexpr float kZoomAccelerationSeconds = 1.5;
constexpr double kPanViewsPerSecond = 0.9;  // view widths per second, before acceleration
constexpr double kPanMaxSpeedup = 3.0;
constexpr float kPanAccelerationSeconds = 1.2;
}  // namespace

double KeyZoomFactor(float heldSeconds, float frameDt, bool zoomIn) {
    const double speed =
        kZoomPerSecond *
        (1.0 + (kZoomMaxSpeedup - 1.0) * std::min(heldSeconds, kZoomAccelerationSeconds) /
                   kZoomAccelerationSeconds);
    return std::exp((zoomIn ? -1.0 : 1.0) * speed * frameDt);
}

double KeyPanViews(float heldSeconds, float frameDt) {
    const double speed =
        kPanViewsPerSecond *
        (1.0 + (kPanMaxSpeedup - 1.0) * std::min(heldSeconds, kPanAccelerationSeconds) /
                   kPanAccelerationSeconds);
    return speed * frameDt;
}

}  // namespace marey

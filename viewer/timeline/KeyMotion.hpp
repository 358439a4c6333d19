#pragma once
// How far held W/S zoom and A/D pan in one frame, the same in every view that moves through time
// (the timeline, the Marey view): smooth, speeding up while the key is held, and by frame time so
// that a tap moves as far whatever the frame rate.

namespace marey {

// The factor one frame of held W ('zoomIn') or S multiplies the view's width by, after the key
// has been held 'heldSeconds' (this frame included) and the frame took 'frameDt' seconds.
double KeyZoomFactor(float heldSeconds, float frameDt, bool zoomIn);

// How many view widths one frame of held A or D pans, likewise.
double KeyPanViews(float heldSeconds, float frameDt);

}  // namespace marey

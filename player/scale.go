package player

import (
	"fmt"
	"strconv"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// ParseZoom reads -zoom: fit (the picture letterboxed into the window, scaled with the filter),
// 1 (one video pixel per screen pixel, exact) or a factor N (N screen pixels per video pixel).
// Fit is 0.
func ParseZoom(s string) (float64, error) {
	if s == "fit" {
		return 0, nil
	}
	z, err := strconv.ParseFloat(s, 64)
	if err != nil || z <= 0 || z > 64 {
		return 0, fmt.Errorf("bad -zoom %q: fit, 1 (pixel-exact) or a factor up to 64", s)
	}
	return z, nil
}

// ParseRotate reads -rotate: auto (the stream's display matrix), 0, 90, 180 or 270 (clockwise, in
// place of the display matrix). Auto is −1; others are quarter turns.
func ParseRotate(s string) (int, error) {
	switch s {
	case "auto":
		return -1, nil
	case "0", "90", "180", "270":
		d, _ := strconv.Atoi(s)
		return d / 90, nil
	}
	return 0, fmt.Errorf("bad -rotate %q: auto, 0, 90, 180 or 270", s)
}

// zoomName is -zoom's value as -stats reports it.
func zoomName(z float64) string {
	switch z {
	case 0:
		return "fit"
	case 1:
		return "1:1"
	}
	return strconv.FormatFloat(z, 'g', -1, 64)
}

// layout places a w×h picture of display aspect aspect (before turning), turned by o, in a tw×th
// target: the viewport and the scale pass's view. Fit letterboxes the display picture; a zoom
// shows it at zoom screen pixels per video pixel (the sample aspect ratio set aside: 1:1 is one
// video pixel per screen pixel), centred and moved by (panX, panY), only its visible part computed.
// ok is false when nothing of the picture is visible.
func layout(w, h int, aspect float64, o formats.Orientation, zoom float64, panX, panY, tw, th int, f ycbcr.Filter) (x, y, vw, vh int, v ycbcr.ScaleView, ok bool) {
	if zoom <= 0 {
		if o.Transposed() {
			aspect = 1 / aspect
		}
		x, y, vw, vh = Letterbox(tw, th, aspect)
		return x, y, vw, vh, ycbcr.Fit(w, h, vw, vh, o, f), true
	}
	// The picture-aligned grid of the zoomed picture, and its display size.
	P, Q, DW, DH := zoomed(w, h, o, zoom)
	ox, oy := (tw-DW)/2+panX, (th-DH)/2+panY
	a0, a1 := max(0, -ox), min(DW, tw-ox)
	b0, b1 := max(0, -oy), min(DH, th-oy)
	if a1 <= a0 || b1 <= b0 {
		return 0, 0, 0, 0, v, false
	}
	x0, y0 := o.Source(a0, b0, P, Q)
	x1, y1 := o.Source(a1-1, b1-1, P, Q)
	p0, p1 := min(x0, x1), max(x0, x1)+1
	q0, q1 := min(y0, y1), max(y0, y1)+1
	sx, sy := float64(w)/float64(P), float64(h)/float64(Q)
	v = ycbcr.ScaleView{SrcW: w, SrcH: h, OutW: p1 - p0, OutH: q1 - q0, OffX: float64(p0) * sx, OffY: float64(q0) * sy,
		StepX: sx, StepY: sy, Orient: o, Filter: f}
	return ox + a0, oy + b0, a1 - a0, b1 - b0, v, true
}

// zoomed is the picture-aligned size P×Q of a w×h picture at zoom (> 0) and its display size DW×DH.
func zoomed(w, h int, o formats.Orientation, zoom float64) (P, Q, DW, DH int) {
	P, Q = max(1, int(float64(w)*zoom+0.5)), max(1, int(float64(h)*zoom+0.5))
	DW, DH = o.DisplaySize(P, Q)
	return P, Q, DW, DH
}

// panKeep is how much of a zoomed picture panning leaves in the window, in screen pixels along each
// axis (less when the picture or the window is smaller).
const panKeep = 64

// clampPan limits the pan of a w×h picture zoomed (> 0) and turned by o in a tw×th target so that
// the picture cannot leave the window: at least panKeep pixels of it (or all of it, or the whole
// window, when smaller) stay visible along each axis. Fit (zoom 0) is not panned: (0, 0).
func clampPan(w, h int, o formats.Orientation, zoom float64, panX, panY, tw, th int) (int, int) {
	if zoom <= 0 {
		return 0, 0
	}
	_, _, DW, DH := zoomed(w, h, o, zoom)
	// The picture spans [ox, ox+DW) with ox = (tw−DW)/2 + pan: it overlaps [0, tw) by keep or more
	// while |pan| ≤ (tw+DW)/2 − keep (rounded inwards).
	lim := func(pan, d, t int) int {
		l := (t+d)/2 - min(panKeep, d, t)
		return max(-l, min(l, pan))
	}
	return lim(panX, DW, tw), lim(panY, DH, th)
}

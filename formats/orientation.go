package formats

import (
	"fmt"
	"math"
)

// Orientation is how a picture is turned for display: flipped horizontally (Flip), then rotated
// clockwise by Rotate quarter turns (0..3). Every rotation by a multiple of 90° and every flip of a
// display matrix is one of these eight.
type Orientation struct {
	Rotate int
	Flip   bool
}

// Identity says the picture is shown as stored.
func (o Orientation) Identity() bool { return o.Rotate%4 == 0 && !o.Flip }

// Transposed says the display swaps the picture's width and height.
func (o Orientation) Transposed() bool { return o.Rotate%2 == 1 }

// DisplaySize is the size a w×h picture is shown at.
func (o Orientation) DisplaySize(w, h int) (int, int) {
	if o.Transposed() {
		return h, w
	}
	return w, h
}

// Then is o followed by a further clockwise rotation of q quarter turns.
func (o Orientation) Then(q int) Orientation {
	return Orientation{Rotate: ((o.Rotate+q)%4 + 4) % 4, Flip: o.Flip}
}

func (o Orientation) String() string {
	s := fmt.Sprintf("%d", 90*(o.Rotate%4))
	if o.Flip {
		s += " hflip"
	}
	return s
}

// DisplayRotation is the angle of a display matrix (AV_FRAME_DATA_DISPLAYMATRIX, AV_PKT_DATA_DISPLAYMATRIX:
// nine 32-bit values, a b u c d v x y w, a–d in 16.16 fixed point) in degrees counterclockwise, as
// FFmpeg's av_display_rotation_get (libavutil/display.h) defines it.
func DisplayRotation(m [9]int32) float64 {
	fixed := func(v int32) float64 { return float64(v) / 65536 }
	s0 := math.Hypot(fixed(m[0]), fixed(m[3]))
	s1 := math.Hypot(fixed(m[1]), fixed(m[4]))
	if s0 == 0 || s1 == 0 {
		return math.NaN()
	}
	return -math.Atan2(fixed(m[1])/s1, fixed(m[0])/s0) * 180 / math.Pi
}

// OrientationFromDisplayMatrix reads a display matrix the way FFmpeg's command-line tool applies
// one when it rotates automatically (FFmpeg 7.1, fftools' autorotation: transpose, hflip and vflip
// filters by the angle and the signs of a, c and d). ok is false for a matrix that is not a
// multiple of 90° (FFmpeg would rotate by an arbitrary angle; the toolkit shows it unturned).
func OrientationFromDisplayMatrix(m [9]int32) (o Orientation, ok bool) {
	r := DisplayRotation(m)
	if math.IsNaN(r) {
		return Orientation{}, false
	}
	theta := -math.Round(r) // clockwise
	theta -= 360 * math.Floor(theta/360+0.9/360)
	near := func(a float64) bool { return math.Abs(theta-a) < 1 }
	switch {
	case near(90):
		if m[3] > 0 { // transpose=cclock_flip: the transposition
			return Orientation{Rotate: 3, Flip: true}, true
		}
		return Orientation{Rotate: 1}, true // transpose=clock
	case near(180):
		h, v := m[0] < 0, m[4] < 0
		switch {
		case h && v:
			return Orientation{Rotate: 2}, true
		case h:
			return Orientation{Flip: true}, true
		case v:
			return Orientation{Rotate: 2, Flip: true}, true
		}
		return Orientation{}, true
	case near(270):
		if m[3] < 0 { // transpose=clock_flip
			return Orientation{Rotate: 1, Flip: true}, true
		}
		return Orientation{Rotate: 3}, true // transpose=cclock
	case near(0) || near(360):
		if m[4] < 0 { // vflip
			return Orientation{Rotate: 2, Flip: true}, true
		}
		return Orientation{}, true
	}
	return Orientation{}, false
}

// Source is the picture pixel (x, y) shown at display pixel (i, j), for a w×h picture.
func (o Orientation) Source(i, j, w, h int) (x, y int) {
	switch o.Rotate % 4 {
	case 0:
		x, y = i, j
	case 1:
		x, y = j, h-1-i
	case 2:
		x, y = w-1-i, h-1-j
	default:
		x, y = w-1-j, i
	}
	if o.Flip {
		x = w - 1 - x
	}
	return x, y
}

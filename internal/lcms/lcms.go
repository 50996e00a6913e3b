package lcms

/*
#include <stdlib.h>
#include "lcms.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/ycbcrkit/ycbcrkit/internal/dl"
)

// Library is LittleCMS's soname (the unversioned liblcms2.so ships only with the -dev package).
const Library = "liblcms2.so.2"

// Load opens liblcms2.so.2 and looks up the functions the package uses. Safe to call repeatedly; the
// first result stands.
func Load() error { return load() }

var load = sync.OnceValue(func() error {
	fns, err := dl.Open(Library, unsafe.Pointer(&C.ycl_funcs))
	if err != nil {
		return fmt.Errorf("lcms: %w", err)
	}
	C.ycl_bind(&fns[0])
	return nil
})

// Intent is an ICC rendering intent (lcms2.h's INTENT_*).
type Intent uint32

const (
	Perceptual           Intent = 0
	RelativeColorimetric Intent = 1
	Saturation           Intent = 2
	AbsoluteColorimetric Intent = 3
)

// Profile is an open ICC profile (cmsHPROFILE).
type Profile struct{ p C.cmsHPROFILE }

// why is LittleCMS's last message, or what failed when it logged none.
func why(what string) error {
	if s := C.GoString(C.ycl_last_error()); s != "" {
		return fmt.Errorf("lcms: %s: %s", what, s)
	}
	return fmt.Errorf("lcms: %s failed", what)
}

// Open reads an ICC profile from its bytes (cmsOpenProfileFromMem). Only RGB profiles are taken:
// the display's, whose device side the player's RGB output feeds.
func Open(data []byte) (*Profile, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, errors.New("lcms: an empty profile")
	}
	buf := C.CBytes(data)
	defer C.free(buf)
	p := C.ycl_open_mem(buf, C.uint32_t(len(data)))
	if p == nil {
		return nil, why("not an ICC profile")
	}
	pr := &Profile{p: p}
	if cs := uint32(C.ycl_colour_space(p)); cs != C.YCL_SIG_RGB {
		pr.Close()
		return nil, fmt.Errorf("lcms: a profile of colour space %q, not RGB", sig(cs))
	}
	return pr, nil
}

// sig spells an ICC signature's four characters.
func sig(s uint32) string { return string([]byte{byte(s >> 24), byte(s >> 16), byte(s >> 8), byte(s)}) }

// SRGB is LittleCMS's own sRGB profile (cmsCreate_sRGBProfile: IEC 61966-2-1's primaries, D65
// white, the sRGB curve).
func SRGB() (*Profile, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	p := C.ycl_srgb()
	if p == nil {
		return nil, why("cmsCreate_sRGBProfile")
	}
	return &Profile{p: p}, nil
}

// XY is a chromaticity (CIE 1931 x, y).
type XY struct{ X, Y float64 }

// NewRGB makes a matrix-shaper RGB profile (cmsCreateRGBProfile) of the white point and the red,
// green and blue primaries, with one curve for the three channels: a pure power gamma, or for gamma 0
// the sRGB curve. Tests make display profiles with it.
func NewRGB(white, red, green, blue XY, gamma float64) (*Profile, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	w := C.cmsCIExyY{x: C.double(white.X), y: C.double(white.Y), Y: 1}
	xyY := func(c XY) C.cmsCIExyY { return C.cmsCIExyY{x: C.double(c.X), y: C.double(c.Y), Y: 1} }
	prim := C.cmsCIExyYTRIPLE{Red: xyY(red), Green: xyY(green), Blue: xyY(blue)}
	p := C.ycl_rgb(&w, &prim, C.double(gamma))
	if p == nil {
		return nil, why("cmsCreateRGBProfile")
	}
	return &Profile{p: p}, nil
}

// Bytes is the profile as an ICC file (cmsSaveProfileToMem).
func (p *Profile) Bytes() ([]byte, error) {
	var n C.uint32_t
	if C.ycl_save(p.p, nil, &n) == 0 || n == 0 {
		return nil, why("cmsSaveProfileToMem")
	}
	buf := C.malloc(C.size_t(n))
	defer C.free(buf)
	if C.ycl_save(p.p, buf, &n) == 0 {
		return nil, why("cmsSaveProfileToMem")
	}
	return C.GoBytes(buf, C.int(n)), nil
}

// Close frees the profile.
func (p *Profile) Close() {
	if p.p != nil {
		C.ycl_close(p.p)
		p.p = nil
	}
}

// Transform converts 16-bit RGB from one profile's device space to another's (cmsCreateTransform
// with TYPE_RGB_16 on both sides).
type Transform struct{ t C.cmsHTRANSFORM }

// NewTransform makes the transform from src to dst under intent.
func NewTransform(src, dst *Profile, intent Intent) (*Transform, error) {
	t := C.ycl_transform_rgb16(src.p, dst.p, C.uint32_t(intent))
	if t == nil {
		return nil, why("cmsCreateTransform")
	}
	return &Transform{t: t}, nil
}

// Do transforms in (R, G, B triples, 0..65535) into out, which must be as long.
func (t *Transform) Do(in, out []uint16) {
	n := min(len(in), len(out)) / 3
	if n == 0 {
		return
	}
	// C memory on both sides: cgo lets C read Go memory only for the call, and out would otherwise be
	// written through a pointer cgo checks.
	cin := C.malloc(C.size_t(n * 6))
	defer C.free(cin)
	cout := C.malloc(C.size_t(n * 6))
	defer C.free(cout)
	copy(unsafe.Slice((*uint16)(cin), n*3), in)
	C.ycl_do(t.t, cin, cout, C.uint32_t(n))
	copy(out, unsafe.Slice((*uint16)(cout), n*3))
}

// Close frees the transform.
func (t *Transform) Close() {
	if t.t != nil {
		C.ycl_delete(t.t)
		t.t = nil
	}
}

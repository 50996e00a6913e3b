package player

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"os/exec"
	"strings"
	"time"
)

// screenGrab captures the X screen with xwd (what the X server shows, so what was presented) and
// decodes the XWD image: 24/32-bit TrueColor, the format Xvfb uses.
func screenGrab() (*image.RGBA, error) {
	// Other test packages open and close windows on the same X server meanwhile; xwd can fail while
	// one goes away (a window it lists vanishes): a few tries, and its own words in the error.
	var out []byte
	var err error
	for try := 0; try < 3; try++ {
		if out, err = exec.Command("xwd", "-root", "-silent").Output(); err == nil {
			break
		}
		if ee, ok := err.(*exec.ExitError); ok {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		return nil, fmt.Errorf("xwd: %w", err)
	}
	if len(out) < 100 {
		return nil, fmt.Errorf("xwd: %d bytes", len(out))
	}
	h := func(i int) uint32 { return binary.BigEndian.Uint32(out[4*i:]) }
	headerSize, version := h(0), h(1)
	width, height := int(h(4)), int(h(5))
	byteOrder, bpp, bpl := h(7), int(h(11)), int(h(12))
	rmask, gmask, bmask := h(14), h(15), h(16)
	ncolors := int(h(19))
	if version != 7 || (bpp != 32 && bpp != 24) {
		return nil, fmt.Errorf("xwd: version %d, %d bits per pixel: not handled", version, bpp)
	}
	data := out[int(headerSize)+12*ncolors:]
	if len(data) < bpl*height {
		return nil, fmt.Errorf("xwd: %d bytes of pixels, want %d", len(data), bpl*height)
	}
	shift := func(m uint32) uint {
		s := uint(0)
		for m&1 == 0 {
			m >>= 1
			s++
		}
		return s
	}
	rs, gs, bs := shift(rmask), shift(gmask), shift(bmask)
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			p := data[y*bpl+bpp/8*x:]
			var v uint32
			for k := 0; k < bpp/8; k++ { // byte order 0: least significant byte first
				if byteOrder == 0 {
					v |= uint32(p[k]) << (8 * uint(k))
				} else {
					v = v<<8 | uint32(p[k])
				}
			}
			img.Set(x, y, color.RGBA{uint8((v & rmask) >> rs), uint8((v & gmask) >> gs), uint8((v & bmask) >> bs), 255})
		}
	}
	return img, nil
}

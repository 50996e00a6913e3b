package ass

/*
#include <stdlib.h>
#include "ass.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"time"
	"unsafe"

	"github.com/ycbcrkit/ycbcrkit/internal/dl"
)

// Library is libass's soname (the unversioned libass.so ships only with the -dev package).
const Library = "libass.so.9"

// Load opens libass.so.9 and looks up the functions the package uses. Safe to call repeatedly; the
// first result stands.
func Load() error { return load() }

var load = sync.OnceValue(func() error {
	fns, err := dl.Open(Library, unsafe.Pointer(&C.yca_funcs))
	if err != nil {
		return fmt.Errorf("ass: %w", err)
	}
	C.yca_bind(&fns[0])
	return nil
})

// Lib is one libass library instance (ass_library_init): the root of renderers and tracks.
type Lib struct{ l *C.ASS_Library }

// New loads libass if needed and starts a library instance.
func New() (*Lib, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	l := C.yca_library_new()
	if l == nil {
		return nil, errors.New("ass: ass_library_init failed")
	}
	return &Lib{l: l}, nil
}

// Close frees the library; its renderers and tracks must be closed first.
func (l *Lib) Close() {
	if l.l != nil {
		C.yca_library_done(l.l)
		l.l = nil
	}
}

// Renderer lays out and rasterizes tracks for one frame size (ass_renderer_init).
type Renderer struct{ r *C.ASS_Renderer }

// NewRenderer makes a renderer whose fonts come from fontconfig, with family for styles whose font
// is not installed.
func (l *Lib) NewRenderer(family string) (*Renderer, error) {
	f := C.CString(family)
	defer C.free(unsafe.Pointer(f))
	r := C.yca_renderer_new(l.l, f)
	if r == nil {
		return nil, errors.New("ass: ass_renderer_init failed")
	}
	return &Renderer{r: r}, nil
}

// Close frees the renderer.
func (r *Renderer) Close() {
	if r.r != nil {
		C.yca_renderer_done(r.r)
		r.r = nil
	}
}

// SetFrame sets the output's size in pixels and the margins (top, bottom, left, right) between it
// and the picture: text is laid out in the picture, the frame less the margins
// (ass_set_frame_size, ass_set_margins).
func (r *Renderer) SetFrame(w, h, top, bottom, left, right int) {
	C.yca_set_frame_size(r.r, C.int(w), C.int(h))
	C.yca_set_margins(r.r, C.int(top), C.int(bottom), C.int(left), C.int(right))
}

// SetStorageSize is the video's own size, which libass needs for the aspect of scaled borders and
// blur (ass_set_storage_size).
func (r *Renderer) SetStorageSize(w, h int) { C.yca_set_storage_size(r.r, C.int(w), C.int(h)) }

// SetFontScale scales every font size (ass_set_font_scale; 1 is the script's own).
func (r *Renderer) SetFontScale(s float64) { C.yca_set_font_scale(r.r, C.double(s)) }

// Image is one alpha bitmap of a rendered frame in one colour (ASS_Image). Bitmap points into
// libass's memory: valid until the next Render on the renderer, or until its track changes or is
// closed.
type Image struct {
	W, H, Stride int
	Bitmap       []byte
	// R, G, B, A: the colour, straight alpha (A = 255 − libass's transparency).
	R, G, B, A uint8
	X, Y       int // the bitmap's top left in the frame
}

// Changed says how a rendered frame differs from the renderer's previous one (ass_render_frame's
// detect_change).
type Changed int

const (
	Same      Changed = 0 // the same images
	Moved     Changed = 1 // the same bitmaps, placed elsewhere
	Different Changed = 2 // new content
)

// Render renders t at time now, appending the frame's images to dst[:0], back to front.
func (r *Renderer) Render(t *Track, now time.Duration, dst []Image) ([]Image, Changed) {
	var changed C.int
	img := C.yca_render_frame(r.r, t.t, C.longlong(now.Milliseconds()), &changed)
	dst = dst[:0]
	for ; img != nil; img = img.next {
		if img.w <= 0 || img.h <= 0 {
			continue
		}
		c := uint32(img.color)
		dst = append(dst, Image{
			W: int(img.w), H: int(img.h), Stride: int(img.stride),
			Bitmap: unsafe.Slice((*byte)(unsafe.Pointer(img.bitmap)), int(img.stride)*(int(img.h)-1)+int(img.w)),
			R:      uint8(c >> 24), G: uint8(c >> 16), B: uint8(c >> 8), A: 255 - uint8(c),
			X: int(img.dst_x), Y: int(img.dst_y),
		})
	}
	return dst, Changed(changed)
}

// Track is a list of styles and events (ASS_Track).
type Track struct{ t *C.ASS_Track }

// NewTrack makes an empty track, to be filled with a header (ProcessHeader) and events
// (ProcessChunk), as a demuxer delivers them.
func (l *Lib) NewTrack() (*Track, error) {
	t := C.yca_new_track(l.l)
	if t == nil {
		return nil, errors.New("ass: ass_new_track failed")
	}
	return &Track{t: t}, nil
}

// ReadScript parses a whole ASS/SSA script (ass_read_memory; UTF-8).
func (l *Lib) ReadScript(script []byte) (*Track, error) {
	if len(script) == 0 {
		return nil, errors.New("ass: empty script")
	}
	buf := C.CBytes(script)
	defer C.free(buf)
	t := C.yca_read_memory(l.l, (*C.char)(buf), C.size_t(len(script)))
	if t == nil {
		return nil, errors.New("ass: the script could not be parsed")
	}
	return &Track{t: t}, nil
}

// Close frees the track.
func (t *Track) Close() {
	if t.t != nil {
		C.yca_free_track(t.t)
		t.t = nil
	}
}

// ProcessHeader reads a script's header ([Script Info], [V4+ Styles]): a Matroska track's codec
// private data, or FFmpeg's subtitle_header for the text formats it converts to ASS
// (ass_process_codec_private).
func (t *Track) ProcessHeader(header []byte) {
	if len(header) == 0 {
		return
	}
	buf := C.CBytes(header)
	defer C.free(buf)
	C.yca_process_codec_private(t.t, (*C.char)(buf), C.int(len(header)))
}

// ProcessChunk adds one event in Matroska's form ("ReadOrder, Layer, Style, Name, MarginL, MarginR,
// MarginV, Effect, Text"), shown from start for duration (ass_process_chunk). An event whose
// ReadOrder the track already has is ignored, so reading a range twice after a seek adds nothing.
func (t *Track) ProcessChunk(event []byte, start, duration time.Duration) {
	if len(event) == 0 {
		return
	}
	buf := C.CBytes(event)
	defer C.free(buf)
	C.yca_process_chunk(t.t, (*C.char)(buf), C.int(len(event)), C.longlong(start.Milliseconds()), C.longlong(duration.Milliseconds()))
}

// Flush drops every event (ass_flush_events), keeping the styles.
func (t *Track) Flush() { C.yca_flush_events(t.t) }

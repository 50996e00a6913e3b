package videotex

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

var errEOF = io.EOF

// config is what images and conversions are made for: a change of any field is a new configuration.
type config struct {
	format        *formats.PixelFormat
	width, height int
	params        ycbcr.Params
}

// picture is one of the stream's pictures the texture took (stream.Stream.Take): staged and waiting
// in Texture.ready, or shown: uploaded, and the current picture or referenced by Frames, while the
// texture holds it (stream.Picture.Hold) so the stream does not take it again. The stream makes its
// images and texture (stream.Options.Textures) and frees it for reuse once the texture has
// released it and the fence of the submission that uploaded it has signalled.
type picture struct {
	sp      *stream.Picture
	shown   bool // uploaded and held
	refs    int  // Frames handed out and not given back
	current bool // the picture Acquire returns when nothing newer is due

	pts   time.Duration
	index int64
	meta  FrameInfo // the decoded frame's own description, handed out with it
	// hw is a hardware-decoded picture staged into p: FFmpeg's image, copied into sp by the
	// upload's submission and released on its fence (or when p is dropped before it).
	hw *decode.Frame
}

// tryFree gives p back to the stream when nothing can use it any more: no Frame references it and
// it is not the current picture (the stream waits for the fences itself). Called with t.mu held.
func (t *Texture) tryFree(p *picture) {
	if !p.shown || p.current || p.refs > 0 {
		return
	}
	p.shown = false
	p.sp.Release()
	t.cond.Broadcast()
}

// drop gives back a staged picture that will not be shown. Called with t.mu held.
func (p *picture) drop() {
	p.dropHW()
	p.sp.Drop()
}

// takeFree waits for a free picture of the stream; nil when the texture is closing.
func (t *Texture) takeFree() (*stream.Picture, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for {
		if t.closing {
			return nil, nil
		}
		t.reclaim()
		sp, err := t.st.Take()
		if sp != nil || err != nil {
			return sp, err
		}
		t.cond.Wait()
	}
}

func (t *Texture) fail(err error) {
	t.mu.Lock()
	if !t.closing {
		t.decErr = fmt.Errorf("videotex: decode: %w", err)
	}
	t.cond.Broadcast()
	t.mu.Unlock()
}

// decodeLoop decodes and stages pictures into free pictures of the stream, on its own goroutine. It
// makes Vulkan objects (the pictures' images and conversions) but never touches the queue or the
// command pool.
func (t *Texture) decodeLoop() {
	defer close(t.decoded)
	var cur *config
	var n int64
	first, base, last := -1.0, time.Duration(0), time.Duration(-1)
	frameDur := 40 * time.Millisecond
	if r := t.info.FrameRate.Float64(); r > 0 {
		frameDur = time.Duration(float64(time.Second) / r)
	}
	for {
		t.quiet.Lock()
		f, err := t.src.Next()
		t.quiet.Unlock()
		if errors.Is(err, io.EOF) {
			if t.opts.Loop && n > 0 {
				// Media time goes on: the next pass starts one frame after this pass's last picture.
				base, first = last+frameDur, -1
				t.quiet.Lock()
				err := t.dec.Seek(0)
				t.quiet.Unlock()
				if err != nil {
					t.fail(fmt.Errorf("loop: %w", err))
					return
				}
				continue
			}
			t.mu.Lock()
			t.eof = true
			t.cond.Broadcast()
			t.mu.Unlock()
			return
		}
		if err != nil {
			t.fail(err)
			return
		}
		pic := f.Picture
		meta := FrameInfo{Color: f.Color, SampleAspect: [2]int{f.SampleAspect.Num, f.SampleAspect.Den}, Orientation: f.Orient}
		cfg := config{format: pic.Format, width: pic.Width, height: pic.Height, params: ycbcr.FromColor(f.Color)}
		if cur == nil || *cur != cfg {
			if err := t.configure(cfg); err != nil {
				f.Release()
				t.fail(err)
				return
			}
			cur = &cfg
		}
		if first < 0 {
			first = f.PTS
			if n == 0 {
				t.mu.Lock()
				t.firstPTS = first
				t.mu.Unlock()
			}
		}
		pts := base + time.Duration((f.PTS-first)*float64(time.Second))
		if pts <= last { // timestamps must grow for Acquire's choice; broken ones are carried on
			pts = last + frameDur
		}
		last = pts
		sp, err := t.takeFree()
		if sp == nil && err == nil { // closing
			f.Release()
			return
		}
		if err == nil {
			t.quiet.Lock()
			if f.HW != nil {
				err = sp.Prepare()
			} else {
				err = sp.Stage(pic)
			}
			t.quiet.Unlock()
		}
		p := &picture{sp: sp, pts: pts, index: n, meta: meta}
		if err == nil && f.HW != nil {
			p.hw = f // copied on the GPU by the upload, released on its fence
		} else {
			f.Release()
		}
		t.mu.Lock()
		if err != nil {
			if sp != nil {
				sp.Drop()
			}
			t.mu.Unlock()
			t.fail(err)
			return
		}
		t.ready = append(t.ready, p)
		t.stats.Decoded++
		t.cond.Broadcast()
		t.mu.Unlock()
		n++
	}
}

// configure makes cfg the stream's configuration; its plan says the path, the decoding and the
// route, and why (Texture.Decoding reads it). The shader path converts into each picture's RGBA8
// texture by drawing; hardware-decoded pictures are copied (routeCopy).
func (t *Texture) configure(cfg config) error {
	desc := fmt.Sprintf("%s %dx%d %s", cfg.format.Name, cfg.width, cfg.height, cfg.params)
	c := stream.Config{Format: cfg.format, Width: cfg.width, Height: cfg.height, Params: cfg.params,
		Choice: t.opts.Path, Variant: stream.VariantDraw, Route: stream.RouteCopy, RouteReason: routeCopy,
		Decode: t.decoding()}
	t.mu.Lock() // Configure retires the old pictures on the ring, which Acquire uses
	_, err := t.st.Configure(c)
	if err == nil {
		t.latest = t.st.Plan().Path
	}
	t.mu.Unlock()
	if err != nil {
		return fmt.Errorf("videotex: %s: %w", desc, err)
	}
	return nil
}

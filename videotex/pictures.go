package videotex

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/pump"
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

// source is what the texture's pump decodes from: the decoder (or what openWith's wrap made of
// it), under t.quiet while it decodes or seeks.
type source struct{ t *Texture }

func (s source) Next() (*decode.Frame, error) {
	s.t.quiet.Lock()
	defer s.t.quiet.Unlock()
	return s.t.src.Next()
}

func (s source) Seek(sec float64) error {
	s.t.quiet.Lock()
	defer s.t.quiet.Unlock()
	return s.t.dec.Seek(sec)
}

// Interrupt ends a stalled network read at once (Close).
func (s source) Interrupt() { s.t.dec.Interrupt() }

// staging is the pump goroutine's own account of the pictures it stages: the configuration, how
// many, and media time (which goes on across plays: each starts one frame after the last picture).
type staging struct {
	cur        *config
	n          int64
	first      float64
	base, last time.Duration
	frameDur   time.Duration
}

// startDecoding starts the texture's pump (package pump), which stages each decoded picture into a
// free picture of the stream on its goroutine (stage): the stream's pictures are the bounded queue.
func (t *Texture) startDecoding() {
	t.stg = staging{first: -1, last: -1, frameDur: 40 * time.Millisecond}
	if r := t.info.FrameRate.Float64(); r > 0 {
		t.stg.frameDur = time.Duration(float64(time.Second) / r)
	}
	plays := 1
	if t.opts.Loop {
		plays = -1
	}
	prm := pump.Params[*decode.Frame]{Plays: plays, Sink: t.stage, Stall: -1}
	if decode.IsLive(t.url) { // reopened every 500 ms when it fails or ends (pump.DefaultRetry)
		prm.Live, prm.Reopen = true, source{t}.reopen
	}
	t.pump = pump.Start[*decode.Frame](source{t}, prm)
}

func (s source) reopen() error {
	s.t.quiet.Lock()
	defer s.t.quiet.Unlock()
	return s.t.dec.Reopen()
}

// Signal is the stream's signal: for a live input (decode.IsLive), whether pictures come, since
// when they do not, and how many times it was reopened; always playing for a file. It never waits
// for decoding.
func (t *Texture) Signal() pump.State {
	if t.pump == nil {
		return pump.State{Signal: true}
	}
	return t.pump.State()
}

// stage takes one item of the pump on its goroutine: a picture is staged into a free picture of the
// stream; the end and errors end decoding. It makes Vulkan objects (the pictures' images and
// conversions) but never touches the queue or the command pool.
func (t *Texture) stage(it pump.Item[*decode.Frame]) bool {
	if errors.Is(it.Err, io.EOF) {
		t.mu.Lock()
		t.eof = true
		t.cond.Broadcast()
		t.mu.Unlock()
		return false
	}
	if it.Err != nil {
		t.fail(it.Err)
		return false
	}
	g, f := &t.stg, it.Frame
	pic := f.Picture
	tg := t.opts.Target
	meta := FrameInfo{Color: f.Color, SampleAspect: [2]int{f.SampleAspect.Num, f.SampleAspect.Den}, Orientation: f.Orient,
		ToTarget: tg.converted(f.Color)}
	cfg := config{format: pic.Format, width: pic.Width, height: pic.Height, params: tg.params(f.Color)}
	if g.cur == nil || *g.cur != cfg {
		if err := t.configure(cfg); err != nil {
			f.Release()
			t.fail(err)
			return false
		}
		g.cur = &cfg
	}
	if it.Start || g.first < 0 {
		if g.n > 0 { // a new play: media time goes on one frame after the last picture
			g.base = g.last + g.frameDur
		}
		g.first = f.PTS
		if g.n == 0 {
			t.mu.Lock()
			t.firstPTS = g.first
			t.mu.Unlock()
		}
	}
	pts := g.base + time.Duration((f.PTS-g.first)*float64(time.Second))
	if pts <= g.last { // timestamps must grow for Acquire's choice; broken ones are carried on
		pts = g.last + g.frameDur
	}
	g.last = pts
	sp, err := t.takeFree()
	if sp == nil && err == nil { // closing
		f.Release()
		return false
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
	p := &picture{sp: sp, pts: pts, index: g.n, meta: meta}
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
		return false
	}
	t.ready = append(t.ready, p)
	t.stats.Decoded++
	t.cond.Broadcast()
	t.mu.Unlock()
	g.n++
	return true
}

// configure makes cfg the stream's configuration; its plan says the path, the decoding and the
// route, and why (Texture.Decoding reads it). The shader path converts into each picture's texture
// (RGBA8, or float16 for an extended-linear target) by drawing; hardware-decoded pictures are copied (routeCopy).
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

package stream

import (
	"fmt"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Picture is one of the stream's pictures: the images a frame lands in and the bindings that convert
// them, made for one configuration. The pictures are a pool: a frame takes a free one (Begin, or
// Take then BeginPicture), and it is free again once the fence of the last submission that used it
// has signalled and nobody holds it (Hold).
type Picture struct {
	// Index is the picture's place in the pool.
	Index int

	s *Stream
	// Guarded by s.mu:
	taken bool // Take handed it out and no frame has begun on it yet
	holds int  // Hold calls not yet Released
	busy  int  // submissions that use it whose fence has not yet been seen signalled
	// Owned by whoever took it (until its frame begins) or by the stream's frames:
	gen      int // the configuration (Stream.generation) its images were made for; 0: none
	want     int // the configuration Take gave it
	cfg      Config
	plan     Plan
	paths    []formats.Path
	img      *planes.Image
	bindings map[formats.Path]*ycbcr.Binding
	compute  *computeTarget // the compute variant's storage image and bindings
	scaled   *scaled        // the scale pass's images, made on first need
	tex      *texture       // Options.Textures: what an engine samples
	quality  *quality       // peak detection and debanding (quality.go), when configured
	replay   *replays       // its frames' command buffers kept for Stream.Replay
}

// Take hands out a free picture for the current configuration, for a frame to begin on later
// (BeginPicture): a caller stages pictures ahead (Stage) on its own goroutine. It returns nil when
// every picture is taken, held or in flight: the ring's fences (Ring.Collect) and Release free them.
func (s *Stream) Take() (*Picture, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.configured {
		return nil, fmt.Errorf("stream: Take before Configure")
	}
	var pick *Picture
	for _, p := range s.pictures {
		if p.taken || p.holds > 0 || p.busy > 0 {
			continue
		}
		if pick == nil || (p.gen == s.generation && pick.gen != s.generation) {
			pick = p
		}
	}
	if pick != nil {
		pick.taken, pick.want = true, s.generation
		if pick.gen != s.generation {
			// Remade by Prepare, by its owner, outside the lock.
			pick.cfg, pick.plan, pick.paths = s.cfg, s.plan, s.paths
		}
	}
	return pick, nil
}

// Prepare makes p's images and bindings for the configuration Take gave it, unless it has them.
// Its owner (the caller that took it) calls it, on any goroutine; Stage does it itself.
func (p *Picture) Prepare() error {
	if p.img != nil && p.gen == p.want {
		return nil
	}
	// Free when taken (no frame in flight, nobody holds it): its old images go at once.
	p.destroy()
	p.forget()
	if err := p.make(); err != nil {
		p.destroy()
		p.forget()
		return err
	}
	p.gen = p.want
	return nil
}

// PrepareAll makes every free picture's images and bindings for the current configuration, and
// each slot's second command buffer (Ring.Pre; none with Options.OneBatch), now rather than in the frames that first use them:
// a wall's first timed step would otherwise allocate them for every stream at once (at 16 streams a
// step of 40-50 ms, a picture dropped in each).
func (s *Stream) PrepareAll() error {
	var taken []*Picture
	defer func() {
		for _, p := range taken {
			p.Drop()
		}
	}()
	for {
		p, err := s.Take()
		if err != nil {
			return err
		}
		if p == nil {
			break
		}
		taken = append(taken, p)
		if err := p.Prepare(); err != nil {
			return err
		}
	}
	if s.oneBatch {
		return nil
	}
	for _, sl := range s.Ring.slots {
		if err := s.Ring.makePre(sl); err != nil {
			return err
		}
	}
	return nil
}

// make makes p's images and bindings for p.cfg and p.plan.
func (p *Picture) make() error {
	s, c := p.s, p.cfg
	var err error
	p.bindings = map[formats.Path]*ycbcr.Binding{}
	if p.img, err = planes.New(s.Dev, c.Format, c.Width, c.Height, p.paths...); err != nil {
		return err
	}
	if s.importer != nil {
		p.img.SetImporter(s.importer)
	}
	for _, path := range p.paths {
		b, err := s.Conv.Bind(p.img, c.Params, path)
		if err != nil {
			return err
		}
		p.bindings[path] = b
	}
	if p.plan.Variant.Variant == VariantCompute {
		if p.compute, err = s.newComputeTarget(p.img, c, p.plan.Path.Path); err != nil {
			return fmt.Errorf("stream: compute: %w", err)
		}
	}
	if err := s.makeQuality(p); err != nil {
		return err
	}
	if s.textures != nil {
		if p.tex, err = s.textures.make(p); err != nil {
			return err
		}
	}
	return nil
}

// Stage copies f into p's staging buffer (after Prepare), for the frame that begins on p later to
// upload (Frame.Upload). The CPU's copy runs on the caller's goroutine, outside the stream's frames.
func (p *Picture) Stage(f *formats.Frame) error {
	if err := p.Prepare(); err != nil {
		return err
	}
	return p.img.Stage(f)
}

// Drop gives back a picture Take handed out whose frame will not begin.
func (p *Picture) Drop() {
	p.s.mu.Lock()
	p.taken = false
	p.s.mu.Unlock()
}

// Hold keeps p from being taken again until Release: a caller that hands p's images on (an
// engine samples its texture in submissions of its own) holds it until they are done.
func (p *Picture) Hold() {
	p.s.mu.Lock()
	p.holds++
	p.s.mu.Unlock()
}

// Release drops one Hold.
func (p *Picture) Release() {
	p.s.mu.Lock()
	p.holds--
	p.s.mu.Unlock()
}

// Plan is the plan of the configuration p was made for.
func (p *Picture) Plan() Plan { return p.plan }

// Config is the configuration p was made for.
func (p *Picture) Config() Config { return p.cfg }

// detach moves p's images and bindings into a picture of their own, for retirement.
func (p *Picture) detach() *Picture {
	q := &Picture{s: p.s, img: p.img, bindings: p.bindings, compute: p.compute, scaled: p.scaled, tex: p.tex,
		quality: p.quality, replay: p.replay}
	p.forget()
	return q
}

// forget drops p's images and bindings without freeing them.
func (p *Picture) forget() {
	p.img, p.bindings, p.compute, p.scaled, p.tex, p.quality, p.replay, p.gen = nil, nil, nil, nil, nil, nil, nil, 0
}

// destroy frees p's images and bindings; the GPU must be done with them.
func (p *Picture) destroy() {
	if p.replay != nil {
		p.replay.drop(p.s.Dev)
	}
	if p.quality != nil {
		p.quality.destroy()
	}
	if p.tex != nil {
		p.tex.destroy()
	}
	if p.scaled != nil {
		p.scaled.destroy()
	}
	if p.compute != nil {
		p.compute.destroy()
	}
	for _, b := range p.bindings {
		b.Destroy()
	}
	if p.img != nil {
		p.img.Destroy()
	}
}

// live counts p's Vulkan objects for Stream.Live.
func (p *Picture) live() int {
	if p.img == nil {
		return 0
	}
	n := 1 + len(p.bindings)
	if p.replay != nil {
		n += len(p.replay.cbs)
	}
	for _, x := range []bool{p.compute != nil, p.scaled != nil, p.tex != nil, p.quality != nil} {
		if x {
			n++
		}
	}
	return n
}

package videotex

import (
	"errors"
	"fmt"
	"io"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
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

// conversion is a configuration resolved into a path and what the engine's layout needs.
type conversion struct {
	cfg     config
	path    formats.Path
	reason  string
	cv      *ycbcr.Conversion // sampler path
	spec    ycbcr.Spec        // shader path: its pipeline's specialization constants
	sampler vk.Sampler        // the immutable sampler the engine puts in its layout
	count   uint32            // combinedImageSamplerDescriptorCount
	gen     uint64
}

type picState int

const (
	picFree    picState = iota // the decoder may stage into it
	picStaging                 // the decoder is writing its staging buffer
	picReady                   // staged, queued in Texture.ready
	picShown                   // uploaded; the current picture, or referenced, or its upload in flight
)

// picture is one of the texture's images, with everything one picture needs on either path. The
// pictures are a pool, not a ring: which one the decoder stages into next depends on which ones the
// engine still holds. The submissions that write them go through the stream.Ring of the texture,
// which retires their lifetime on each submission's fence.
type picture struct {
	id       int
	state    picState
	refs     int  // Frames handed out and not given back
	current  bool // the picture Acquire returns when nothing newer is due
	inFlight int  // submissions that write it whose fence has not yet been seen signalled

	conv *conversion // what the images below were made for
	img  *planes.Image
	view vk.ImageView   // sampler path: the view with the conversion
	draw *ycbcr.Binding // shader path: the conversion's descriptor set
	rgba *rgbaTarget    // shader path: the converted picture

	pts   time.Duration
	index int64
	meta  FrameInfo // the decoded frame's own description, handed out with it
	// hw is a hardware-decoded picture staged into p: FFmpeg's image, copied into img by the
	// upload's submission and released on its fence (or when p is dropped before it).
	hw *decode.Frame
}

// tryFree returns p to the decoder when nothing can use it any more: no Frame references it, it is
// not the current picture, and the fences of the submissions that wrote it have signalled (the
// ring ran their retirements). Called with t.mu held.
func (t *Texture) tryFree(p *picture) {
	if p.state != picShown || p.current || p.refs > 0 || p.inFlight > 0 {
		return
	}
	p.state = picFree
	t.cond.Broadcast()
}

// takeFree waits for a free picture and marks it staging; nil when the texture is closing.
func (t *Texture) takeFree() *picture {
	t.mu.Lock()
	defer t.mu.Unlock()
	for {
		if t.closing {
			return nil
		}
		t.reclaim()
		for _, p := range t.pics {
			if p.state == picFree {
				p.state = picStaging
				return p
			}
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

// decodeLoop decodes and stages pictures into free images, on its own goroutine. It creates Vulkan
// objects (images, conversions) but never touches the queue or the command pool.
func (t *Texture) decodeLoop() {
	defer close(t.decoded)
	var cur *conversion
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
		if cur == nil || cur.cfg != cfg {
			t.quiet.Lock()
			next, err := t.resolve(cfg, cur)
			t.quiet.Unlock()
			if err != nil {
				f.Release()
				t.fail(err)
				return
			}
			cur = next
			t.mu.Lock()
			t.latest = cur
			t.mu.Unlock()
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
		s := t.takeFree()
		if s == nil {
			f.Release()
			return
		}
		t.quiet.Lock()
		err = t.prepare(s, cur)
		if err == nil && f.HW == nil {
			err = s.img.Stage(pic)
		}
		t.quiet.Unlock()
		if err == nil && f.HW != nil {
			s.hw = f // copied on the GPU by the upload, released on its fence
		} else {
			f.Release()
		}
		t.mu.Lock()
		if err != nil {
			s.state = picFree
			t.mu.Unlock()
			t.fail(err)
			return
		}
		s.state, s.pts, s.index, s.meta = picReady, pts, n, meta
		t.ready = append(t.ready, s)
		t.stats.Decoded++
		t.cond.Broadcast()
		t.mu.Unlock()
		n++
	}
}

// resolve makes cfg the stream's configuration, whose plan says the path and why, and makes the
// path's conversion; the generation grows when the immutable sampler differs from prev's.
func (t *Texture) resolve(cfg config, prev *conversion) (*conversion, error) {
	c := &conversion{cfg: cfg}
	desc := fmt.Sprintf("%s %dx%d %s", cfg.format.Name, cfg.width, cfg.height, cfg.params)
	h := t.dec.HW()
	// Drawn: the shader path's conversion into the RGBA picture is drawn; hardware-decoded pictures
	// are copied (routeCopy).
	if _, err := t.st.Configure(stream.Config{Format: cfg.format, Width: cfg.width, Height: cfg.height, Params: cfg.params,
		Choice: t.opts.Path, Variant: stream.VariantDraw, Route: stream.RouteCopy,
		Decode: stream.Decode{Decoder: h.Decoder, HW: h.Active, Reason: h.Reason}}); err != nil {
		return nil, fmt.Errorf("videotex: %s: %w", desc, err)
	}
	d := t.st.Plan().Path
	c.path, c.reason = d.Path, d.Reason
	if c.path == formats.PathSampler {
		cv, err := t.eng.conversion(d.Key)
		if err != nil {
			return nil, err
		}
		c.cv, c.sampler, c.count = cv, cv.Sampler, cv.DescriptorCount
	} else {
		consts, err := cfg.params.Shader(cfg.format, cfg.width, cfg.height)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", desc, err)
		}
		c.spec, c.sampler, c.count = consts.Spec(), t.eng.plain, 1
	}
	c.gen = 1
	if prev != nil {
		c.gen = prev.gen
		if c.sampler != prev.sampler || c.count != prev.count {
			c.gen++
		}
	}
	return c, nil
}

// prepare makes s's images for c, unless it already has images of the same configuration and path.
func (t *Texture) prepare(s *picture, c *conversion) error {
	if s.conv != nil && s.conv.cfg == c.cfg && s.conv.path == c.path && s.conv.cv == c.cv {
		s.conv = c
		return nil
	}
	t.destroyPicture(s)
	cfg := c.cfg
	img, err := planes.New(t.dev, cfg.format, cfg.width, cfg.height, c.path)
	if err != nil {
		return err
	}
	s.img = img
	if c.path == formats.PathSampler {
		// The view carries the very conversion of the immutable sampler (identically defined, as
		// VUID-VkWriteDescriptorSet-descriptorType-01948 asks).
		info := vkx.NewConversionInfo(c.cv.Handle)
		defer info.Free()
		if s.view, err = t.dev.NewView(img.Multi, vk.Format(c.cv.Key.Format), vk.ImageAspectColorBit, &info); err != nil {
			return fmt.Errorf("videotex: view: %w", err)
		}
	} else {
		consts, err := cfg.params.ShaderFor(img)
		if err != nil {
			return err
		}
		if s.draw, err = t.eng.bind(img, consts); err != nil {
			return err
		}
		if s.rgba, err = t.newRGBA(cfg.width, cfg.height); err != nil {
			return err
		}
	}
	s.conv = c
	return nil
}

// destroyPicture frees s's images; the GPU and the engine must be done with them.
func (t *Texture) destroyPicture(s *picture) {
	s.dropHW()
	if s.draw != nil {
		t.eng.unbind(s.draw)
		s.draw = nil
	}
	if s.rgba != nil {
		s.rgba.destroy()
		s.rgba = nil
	}
	if s.view != vk.NullImageView {
		vk.DestroyImageView(t.dev.Device, s.view, nil)
		s.view = vk.NullImageView
	}
	if s.img != nil {
		s.img.Destroy()
		s.img = nil
	}
	s.conv = nil
}

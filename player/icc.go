package player

import (
	"errors"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/lcms"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// ICCLUTSize is the display-profile LUT's grid points per axis: a point every 4 8-bit codes, near
// mpv's and libplacebo's 64. Trilinear interpolation between LittleCMS's exact values then stays
// within 0.98/255 of LittleCMS's own transform of each colour for a P3 display with a 2.2 power
// curve, where 33 (LittleCMS's own grid for 8-bit transforms) errs by 1.59/255 near black
// (TestICCLUTError). 65³ entries of 16 bytes are 4.4 MB on the GPU.
const ICCLUTSize = 65

// ICCIntent is the rendering intent of the display-profile transform: relative colorimetric, mpv's
// default (--icc-intent=1): colours inside the display's gamut are kept exactly, with the white
// mapped to the display's white; those outside are clipped. For the matrix-shaper profiles of most
// displays LittleCMS has only colorimetric tables, and perceptual would give the same.
const ICCIntent = lcms.RelativeColorimetric

// ICCLUT is the LUT of a display profile: the player's output, R′G′B′ for a display of its nominal
// space (the sRGB display that an SDR picture's BT.709 R′G′B′ is shown on without a profile: IEC
// 61966-2-1, LittleCMS's cmsCreate_sRGBProfile), transformed by LittleCMS into profile's device
// values, at size³ grid points (red fastest), as 0..1 floats.
func ICCLUT(profile []byte, size int) ([]float32, error) {
	dst, err := lcms.Open(profile)
	if err != nil {
		return nil, err
	}
	defer dst.Close()
	src, err := lcms.SRGB()
	if err != nil {
		return nil, err
	}
	defer src.Close()
	tr, err := lcms.NewTransform(src, dst, ICCIntent)
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	n := size * size * size
	in := make([]uint16, 3*n)
	code := func(i int) uint16 { return uint16((i*65535 + (size-1)/2) / (size - 1)) }
	for b := range size {
		for g := range size {
			for r := range size {
				i := 3 * ((b*size+g)*size + r)
				in[i], in[i+1], in[i+2] = code(r), code(g), code(b)
			}
		}
	}
	out := make([]uint16, 3*n)
	tr.Do(in, out)
	lut := make([]float32, 3*n)
	for i, v := range out {
		lut[i] = float32(v) / 65535
	}
	return lut, nil
}

// iccStage applies the display profile as the frame's last pass: each slot draws the frame (picture
// and overlay) into a picture of the target's size of its own, which the ICC pass then draws into
// the target through the LUT. A pass of its own rather than a step in each shader that writes the
// target: the picture reaches the target by five ways (the drawn and compute scale pass, split,
// diff, the overlay), and one pass after them all covers each.
type iccStage struct {
	pass  *ycbcr.ICC
	lut   *ycbcr.LUT3D
	slots []*iccSlot
}

// iccSlot is one slot's picture and its binding to the pass.
type iccSlot struct {
	o    *gpu.Offscreen
	bind *ycbcr.Binding
}

// SetICC makes the display profile's LUT and pass (profile: an ICC file's bytes); nil profile, none.
func (r *Renderer) SetICC(profile []byte) error {
	if profile == nil {
		return nil
	}
	lut, err := ICCLUT(profile, ICCLUTSize)
	if err != nil {
		return err
	}
	s := &iccStage{slots: make([]*iccSlot, framesInFlight)}
	if s.lut, err = ycbcr.NewLUT3D(r.Dev, ICCLUTSize, lut); err != nil {
		return err
	}
	if s.pass, err = ycbcr.NewICC(r.Dev); err != nil {
		s.lut.Destroy()
		return err
	}
	r.icc = s
	return nil
}

// target is slot's picture for a w×h target, made anew when the size changed (the old one retired
// on the last submission, which covers the frames that drew it).
func (s *iccStage) target(dev *gpu.Device, st *stream.Stream, slot, w, h int) (iccTarget, error) {
	if c := s.slots[slot]; c != nil && c.o.Width == w && c.o.Height == h {
		return iccTarget{offscreenTarget{c.o}}, nil
	}
	if old := s.slots[slot]; old != nil {
		s.slots[slot] = nil
		st.Ring.RetireLast(old.destroy)
	}
	o, err := dev.NewSampledOffscreen(w, h)
	if err != nil {
		return iccTarget{}, err
	}
	b, err := s.pass.Bind(o.View, s.lut)
	if err != nil {
		o.Destroy()
		return iccTarget{}, err
	}
	s.slots[slot] = &iccSlot{o: o, bind: b}
	return iccTarget{offscreenTarget{o}}, nil
}

// draw records the pass from slot's picture into t (its own render pass).
func (s *iccStage) draw(cb vk.CommandBuffer, slot int, t Target) error {
	w, h := t.begin(cb)
	gpu.SetViewport(cb, 0, 0, w, h)
	return s.slots[slot].bind.Draw(cb, t)
}

func (s *iccStage) live() int {
	if s == nil {
		return 0
	}
	n := 0
	for _, c := range s.slots {
		if c != nil {
			n += 2
		}
	}
	return n
}

func (s *iccStage) destroy() {
	if s == nil {
		return
	}
	for i, c := range s.slots {
		if c != nil {
			c.destroy()
			s.slots[i] = nil
		}
	}
	s.pass.Destroy()
	s.lut.Destroy()
}

func (c *iccSlot) destroy() {
	c.bind.Destroy()
	c.o.Destroy()
}

// iccTarget is a slot's picture as the frame's target: drawn, never written by compute (the
// picture is only sampled).
type iccTarget struct{ offscreenTarget }

func (iccTarget) storage() (ycbcr.StorageTarget, string) {
	return ycbcr.StorageTarget{}, "drawn into the picture the ICC profile's pass reads"
}

// displayProfile applies the display's own ICC profile (ColourConfig.ICCFromDisplay) where none was
// given, with a notice; where LittleCMS cannot take it, playback goes on without one, with a notice:
// the user asked for no profile.
func (p *Player) displayProfile() {
	c := p.cfg.Colour
	if !c.ICCFromDisplay || c.ICCProfile != nil || c.HDROutput || p.rend.icc != nil {
		return
	}
	b := p.win.ICCProfile()
	if b == nil {
		return
	}
	if err := p.rend.SetICC(b); err != nil {
		p.logf("notice: the display's ICC profile (X11 _ICC_PROFILE, %d bytes) is not applied: %v", len(b), err)
		return
	}
	p.logf("notice: the display's ICC profile (X11 _ICC_PROFILE, %d bytes) is applied", len(b))
}

// errICCHDR refuses a profile with the HDR10 output, whose PQ BT.2020 signal is no display's RGB
// of an ICC profile's matrix and curves.
var errICCHDR = errors.New("-icc-profile with -hdr-output: the HDR10 output is PQ in BT.2020, not a profile's RGB; use one of them")

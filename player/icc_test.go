package player

import (
	"image"
	"math"
	"strconv"
	"strings"
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/glfwx"
	"github.com/ycbcrkit/ycbcrkit/internal/lcms"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// playICC plays src headless with profile (nil: none) and reads back the target as presented after
// the last frame: what a display would be sent.
func playICC(t *testing.T, src *Synthetic, profile []byte) *image.RGBA {
	t.Helper()
	var got *image.RGBA
	var grabErr error
	_, err := Play(src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Headless: true},
		Playback: PlaybackConfig{Untimed: true, Frames: src.Count}, Colour: ColourConfig{ICCProfile: profile},
		Hooks: Hooks{OnFrame: func(p *Player, n int) {
			if n != src.Count {
				return
			}
			vk.QueueWaitIdle(p.dev.Queue)
			grabErr = p.dev.Submit(func(cb vk.CommandBuffer) { p.off.RecordReadback(cb) })
			got = p.off.RGBA()
		}}})
	if err == nil {
		err = grabErr
	}
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestICCProfile: with a display profile, every presented pixel is LittleCMS's own transform of the
// pixel presented without one (sRGB to the profile, relative colorimetric, computed here pixel by
// pixel, apart from the LUT and the shader) within 1/255; LittleCMS's own sRGB profile leaves the
// output as it was. The profile, made by LittleCMS, is a display of P3 primaries (D65) and a pure
// 2.2 power curve: both the gamut and the curve differ from sRGB's.
func TestICCProfile(t *testing.T) {
	srgb, err := lcms.SRGB()
	if err != nil {
		t.Skip(err) // liblcms2 not installed
	}
	defer srgb.Close()
	p3, err := lcms.NewRGB(lcms.XY{X: 0.3127, Y: 0.3290}, lcms.XY{X: 0.680, Y: 0.320}, lcms.XY{X: 0.265, Y: 0.690}, lcms.XY{X: 0.150, Y: 0.060}, 2.2)
	if err != nil {
		t.Fatal(err)
	}
	defer p3.Close()
	p3File, err := p3.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	srgbFile, err := srgb.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := lcms.NewTransform(srgb, p3, lcms.RelativeColorimetric)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()

	// A source plays once: one each.
	plain := playICC(t, synthetic(t, "yuv420p", 64, 32, 2), nil)
	withP3 := playICC(t, synthetic(t, "yuv420p", 64, 32, 2), p3File)
	withSRGB := playICC(t, synthetic(t, "yuv420p", 64, 32, 2), srgbFile)

	moved, largest, in, out := 0, 0, make([]uint16, 3), make([]uint16, 3)
	for i := 0; i < len(plain.Pix); i += 4 {
		for c := range 3 {
			in[c] = uint16(plain.Pix[i+c]) * 257
		}
		tr.Do(in, out)
		for c := range 3 {
			want := int((uint32(out[c]) + 128) / 257)
			largest = max(largest, abs(int(withP3.Pix[i+c])-want))
			if g := int(withP3.Pix[i+c]); g < want-1 || g > want+1 {
				t.Fatalf("pixel %d channel %d: %d with the profile, LittleCMS makes %d of %d", i/4, c, g, want, plain.Pix[i+c])
			}
			if d := int(withP3.Pix[i+c]) - int(plain.Pix[i+c]); d > 4 || d < -4 {
				moved++
			}
			if g, w := int(withSRGB.Pix[i+c]), int(plain.Pix[i+c]); g < w-1 || g > w+1 {
				t.Fatalf("pixel %d channel %d: %d through sRGB's own profile, %d without", i/4, c, g, w)
			}
		}
	}
	// The profile must change the picture: sRGB's colours are less saturated in P3's terms.
	if moved < len(plain.Pix)/4 {
		t.Fatalf("only %d of %d samples moved by more than 4 codes with the P3 profile", moved, 3*len(plain.Pix)/4)
	}
	t.Logf("%d of %d samples moved by more than 4 codes; largest difference from LittleCMS %d/255", moved, 3*len(plain.Pix)/4, largest)
}

// TestICCProfileRefused: a file that is no RGB profile, or a profile with the HDR10 output, fails
// playback with the reason.
func TestICCProfileRefused(t *testing.T) {
	if err := lcms.Load(); err != nil {
		t.Skip(err)
	}
	src := synthetic(t, "yuv420p", 16, 16, 1)
	_, err := Play(src, Config{GPU: GPUConfig{Device: -1}, Output: OutputConfig{Headless: true}, Playback: PlaybackConfig{Untimed: true},
		Colour: ColourConfig{ICCProfile: []byte("not a profile")}})
	if err == nil || !strings.HasPrefix(err.Error(), "-icc-profile: lcms: not an ICC profile") {
		t.Errorf("garbage as a profile: %v", err)
	}
	_, err = Play(src, Config{GPU: GPUConfig{Device: -1}, Output: OutputConfig{Headless: true}, Playback: PlaybackConfig{Untimed: true},
		Colour: ColourConfig{ICCProfile: []byte("x"), HDROutput: true}})
	if err == nil {
		t.Errorf("a profile with -hdr-output played")
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestICCLUTError bounds what the LUT's grid costs: trilinear interpolation of ICCLUT (as icc.frag
// does it, here in float64) against LittleCMS's transform of each colour, over every fifth 8-bit
// code of each channel, for a display of P3 primaries and a pure 2.2 power curve (steeper than
// sRGB's near black, where interpolation errs most). The figures are logged for a coarser grid too.
func TestICCLUTError(t *testing.T) {
	srgb, err := lcms.SRGB()
	if err != nil {
		t.Skip(err)
	}
	defer srgb.Close()
	p, err := lcms.NewRGB(lcms.XY{X: 0.3127, Y: 0.3290}, lcms.XY{X: 0.680, Y: 0.320}, lcms.XY{X: 0.265, Y: 0.690}, lcms.XY{X: 0.150, Y: 0.060}, 2.2)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	file, err := p.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := lcms.NewTransform(srgb, p, lcms.RelativeColorimetric)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var codes []int
	for v := 0; v < 256; v += 5 {
		codes = append(codes, v)
	}
	var in []uint16
	for _, b := range codes {
		for _, g := range codes {
			for _, r := range codes {
				in = append(in, uint16(r*257), uint16(g*257), uint16(b*257))
			}
		}
	}
	want := make([]uint16, len(in))
	tr.Do(in, want)
	for _, size := range []int{33, ICCLUTSize} {
		lut, err := ICCLUT(file, size)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for k := 0; k < len(in); k += 3 {
			var i [3]int
			var f [3]float64
			for c := range 3 {
				x := float64(in[k+c]) / 65535 * float64(size-1)
				i[c] = min(int(x), size-2)
				f[c] = x - float64(i[c])
			}
			for c := range 3 {
				v := 0.0
				for corner := range 8 {
					w, at := 1.0, 0
					for a := 2; a >= 0; a-- {
						j := i[a]
						if corner>>a&1 == 1 {
							j++
							w *= f[a]
						} else {
							w *= 1 - f[a]
						}
						at = at*size + j
					}
					v += w * float64(lut[3*at+c])
				}
				worst = max(worst, math.Abs(v-float64(want[k+c])/65535)*255)
			}
		}
		t.Logf("%d³ grid: largest interpolation error %.2f/255", size, worst)
		if size == ICCLUTSize && worst > 1.25 {
			t.Errorf("%d³ grid: largest interpolation error %.2f/255, over 1.25", size, worst)
		}
	}
}

// TestICCFromDisplay: in a window, the profile X11 holds for the display (_ICC_PROFILE, set here as
// a colour manager sets it) is applied with a notice; one LittleCMS cannot take gives a notice and
// plays on without.
func TestICCFromDisplay(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	p, err := lcms.NewRGB(lcms.XY{X: 0.3127, Y: 0.3290}, lcms.XY{X: 0.680, Y: 0.320}, lcms.XY{X: 0.265, Y: 0.690}, lcms.XY{X: 0.150, Y: 0.060}, 2.2)
	if err != nil {
		t.Skip(err)
	}
	file, err := p.Bytes()
	p.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := glfwx.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { glfwx.Init(); glfwx.SetX11ICCProfile(nil) })
	for _, tc := range []struct {
		profile []byte
		notice  string
		applied bool
	}{
		{file, "notice: the display's ICC profile (X11 _ICC_PROFILE, " + strconv.Itoa(len(file)) + " bytes) is applied", true},
		{[]byte("not a profile"), "notice: the display's ICC profile (X11 _ICC_PROFILE, 13 bytes) is not applied: lcms: not an ICC profile", false},
	} {
		glfwx.Init() // Play ends GLFW
		if err := glfwx.SetX11ICCProfile(tc.profile); err != nil {
			t.Fatal(err)
		}
		var log strings.Builder
		applied := false
		// The info panel and key list drawn too: the on-screen display goes through the pass.
		keys := make(chan window.Key, 2)
		keys <- window.KeyI
		keys <- window.KeyHelp
		_, err := Play(synthetic(t, "yuv420p", 64, 32, 3), Config{GPU: GPUConfig{Device: -1, Validate: true},
			Playback: PlaybackConfig{Untimed: true}, Colour: ColourConfig{ICCFromDisplay: true},
			Hooks: Hooks{Log: &log, Keys: keys, OnFrame: func(p *Player, n int) { applied = p.rend.icc != nil }}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(log.String(), tc.notice) || applied != tc.applied {
			t.Errorf("applied %v, log %q: want %v and %q", applied, log.String(), tc.applied, tc.notice)
		}
	}
}

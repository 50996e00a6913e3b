package stream_test

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// drawOne plays pic through s into a fresh offscreen target and reads it back.
func drawOne(t *testing.T, dev *gpu.Device, s *stream.Stream, pic *formats.Frame) *image.RGBA {
	t.Helper()
	return drawFrame(t, dev, s, pic.Width, pic.Height, func(fr *stream.Frame) error {
		_, err := fr.Load(pic, nil)
		return err
	})
}

// drawFrame takes s's next frame, loads it with load, converts and draws it into a fresh w×h
// offscreen target, submits, waits and reads the target back.
func drawFrame(t *testing.T, dev *gpu.Device, s *stream.Stream, w, h int, load func(*stream.Frame) error) *image.RGBA {
	t.Helper()
	target, err := dev.NewOffscreen(w, h)
	if err != nil {
		t.Fatal(err)
	}
	defer target.Destroy()
	fr, err := s.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := load(fr); err != nil {
		t.Fatal(err)
	}
	convertDrawSubmit(t, fr, target)
	if err := s.Ring.Drain(); err != nil {
		t.Fatal(err)
	}
	return target.RGBA()
}

func maxDiff(a, b *image.RGBA) int {
	d := 0
	for i := range a.Pix {
		d = max(d, int(a.Pix[i])-int(b.Pix[i]), int(b.Pix[i])-int(a.Pix[i]))
	}
	return d
}

// TestVariantFromMeasurements: the conversion variant follows the measured times, not the device:
// injected timings that say compute is faster make the stream convert by compute, timings that say
// drawing is faster make it draw; each configuration is measured once; the picture is the same
// either way (the drawn shader path is checked against zscale and the oracle elsewhere; here the
// compute route must match it within the shader path's 1 LSB).
func TestVariantFromMeasurements(t *testing.T) {
	dev := vktest.Open(t)
	pf, _ := formats.Lookup("yuv420p")
	pic, err := synth.Noise(pf, 40, 24, 7)
	if err != nil {
		t.Fatal(err)
	}
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	pics := map[stream.Variant]*image.RGBA{}
	for _, fast := range []stream.Variant{stream.VariantCompute, stream.VariantDraw} {
		calls := 0
		measure := func(k stream.ProbeKey, v stream.Variant) (float64, error) {
			calls++
			if k.Format != "yuv420p" || k.Width != 40 || k.Height != 24 || k.Path != formats.PathShader {
				t.Errorf("measured for %+v", k)
			}
			if v == fast {
				return 0.25, nil
			}
			return 2, nil
		}
		s, err := stream.New(dev, stream.Options{Measure: measure})
		if err != nil {
			t.Fatal(err)
		}
		cfg := stream.Config{Format: pf, Width: 40, Height: 24, Params: p, Choice: formats.ChooseShader}
		if _, err := s.Configure(cfg); err != nil {
			t.Fatal(err)
		}
		pv := s.Plan().Variant
		v, why := pv.Variant, pv.Reason
		t.Logf("%s faster: %s (%s)", fast, v, why)
		if v != fast || !strings.HasPrefix(why, fast.String()+": 0.250 ms vs ") {
			t.Errorf("timings say %s is faster; the stream chose %s (%s)", fast, v, why)
		}
		pics[v] = drawOne(t, dev, s, pic)
		// A change of colour parameters only: same format, size and path, no new measurement.
		cfg.Params.Matrix = formats.MatrixBT470BG
		if _, err := s.Configure(cfg); err != nil {
			t.Fatal(err)
		}
		if calls != 2 {
			t.Errorf("%d measurements for one format, size and path; want 2 (one per variant)", calls)
		}
		s.Close()
		vktest.Check(t, dev)
	}
	if d := maxDiff(pics[stream.VariantCompute], pics[stream.VariantDraw]); d > 1 {
		t.Errorf("compute and drawn pictures differ by %d LSB (limit 1)", d)
	}
}

// TestVariantProbe: without injected timings the stream measures both variants on the device with
// GPU timestamps and says so; the reason's first time is the chosen variant's, and the smaller.
func TestVariantProbe(t *testing.T) {
	dev := vktest.Open(t)
	pf, _ := formats.Lookup("nv12")
	s, err := stream.New(dev, stream.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	if _, err := s.Configure(stream.Config{Format: pf, Width: 64, Height: 36, Params: p}); err != nil {
		t.Fatal(err)
	}
	pv := s.Plan().Variant
	v, why := pv.Variant, pv.Reason
	t.Logf("%s: %s on %s", v, why, dev.Info.Name)
	var chosen, other float64
	var otherName string
	if n, err := fmt.Sscanf(why, v.String()+": %f ms vs %s %f ms on the GPU", &chosen, &otherName, &other); n != 3 {
		t.Fatalf("reason %q is not a measurement: %v", why, err)
	}
	if chosen > other || chosen <= 0 {
		t.Errorf("chose %s at %.3f ms over %s at %.3f ms", v, chosen, otherName, other)
	}
	vktest.Check(t, dev)
}

// TestVariantRemembered: with a cache folder, a probe's measurement is written there, and a later
// stream on the same device and driver takes the verdict from it without probing, and says so with
// the measured times; a damaged file, or one whose entry names another driver, costs only a probe.
func TestVariantRemembered(t *testing.T) {
	dev := vktest.Open(t)
	dev.CacheDir = t.TempDir()
	pf, _ := formats.Lookup("nv12")
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	cfg := stream.Config{Format: pf, Width: 64, Height: 36, Params: p}
	conf := func() (stream.Variant, string, bool) {
		t.Helper()
		s, err := stream.New(dev, stream.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, err := s.Configure(cfg); err != nil {
			t.Fatal(err)
		}
		pv := s.Plan().Variant
		v, why := pv.Variant, pv.Reason
		return v, why, s.ProbeTime() > 0
	}
	v1, why1, probed := conf()
	if !probed || strings.Contains(why1, "remembered") {
		t.Fatalf("first stream: probed %v, reason %q", probed, why1)
	}
	file := filepath.Join(dev.CacheDir, "variants.json")
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("nothing written: %v", err)
	}
	v2, why2, probed := conf()
	if probed || v2 != v1 || !strings.HasPrefix(why2, why1+", remembered from a run at ") {
		t.Fatalf("second stream: probed %v, %s %q; want %s %q, remembered", probed, v2, why2, v1, why1)
	}
	t.Logf("%s", why2)

	raw, _ := os.ReadFile(file)
	other := strings.Replace(string(raw), dev.Identity.String(), "10de:2330 driver 0x1 cache 00", 1)
	for name, content := range map[string]string{"damaged": string(raw[:len(raw)/2]), "other driver": other} {
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, why, probed := conf(); !probed || strings.Contains(why, "remembered") {
			t.Errorf("%s file: probed %v, reason %q", name, probed, why)
		}
	}
	vktest.Check(t, dev)
}

// convertDrawSubmit records fr's conversion and its draw into target, and submits the slot.
func convertDrawSubmit(t *testing.T, fr *stream.Frame, target *gpu.Offscreen) {
	t.Helper()
	if err := fr.Convert(); err != nil {
		t.Fatal(err)
	}
	target.Begin(fr.Slot.CB)
	if err := fr.Draw(target); err != nil {
		t.Fatal(err)
	}
	target.End(fr.Slot.CB)
	if err := fr.Submit(vk.NullSemaphore, vk.NullSemaphore); err != nil {
		t.Fatal(err)
	}
}

// TestComputeInto: the compute variant written into its place of a larger image (Config.Into, the
// wall's tiles) is bit for bit the picture converted into the stream's own image and copied there,
// on both paths, at an odd size and place; nothing around the place changes, and the stream holds
// no storage image of its own (MemoryBytes smaller by at least the picture's RGBA8 bytes).
func TestComputeInto(t *testing.T) {
	dev := vktest.Open(t)
	pf, _ := formats.Lookup("nv12")
	const w, h, cw, ch, x, y = 37, 23, 64, 40, 5, 3
	pic, err := synth.Noise(pf, w, h, 11)
	if err != nil {
		t.Fatal(err)
	}
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	// canvas converts pic through a stream on path into (x, y) of a cleared canvas, placed or copied,
	// and reads the canvas back with the stream's device memory.
	canvas := func(path formats.Choice, placed bool) (*image.RGBA, int64) {
		t.Helper()
		c, err := dev.NewCopiedOffscreen(cw, ch)
		if placed {
			c.Destroy()
			c, err = dev.NewComputedOffscreen(cw, ch)
		}
		if err != nil {
			t.Fatal(err)
		}
		defer c.Destroy()
		if err := c.PrepareReadback(); err != nil {
			t.Fatal(err)
		}
		if err := dev.Submit(func(cb vk.CommandBuffer) { c.Begin(cb); vk.CmdEndRenderPass(cb) }); err != nil {
			t.Fatal(err)
		}
		s, err := stream.New(dev, stream.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		cfg := stream.Config{Format: pf, Width: w, Height: h, Params: p, Choice: path, Variant: stream.VariantCompute}
		if placed {
			cfg.Into = stream.Into{View: c.View, X: x, Y: y}
		}
		if _, err := s.Configure(cfg); err != nil {
			t.Fatal(err)
		}
		fr, err := s.Begin()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fr.Load(pic, nil); err != nil {
			t.Fatal(err)
		}
		if err := fr.Convert(); err != nil {
			t.Fatal(err)
		}
		if fr.Placed() != placed {
			t.Fatalf("placed %v: Frame.Placed says %v", placed, fr.Placed())
		}
		if placed {
			if err := fr.Draw(c); err == nil {
				t.Errorf("a placed frame drew")
			}
		} else {
			c.BeforeCopyIn(fr.Slot.CB)
			if err := fr.CopyTo(c.Image, gpu.CopiedLayout, x, y); err != nil {
				t.Fatal(err)
			}
		}
		if err := fr.Submit(vk.NullSemaphore, vk.NullSemaphore); err != nil {
			t.Fatal(err)
		}
		if err := s.Ring.Drain(); err != nil {
			t.Fatal(err)
		}
		if err := dev.Submit(c.RecordReadback); err != nil {
			t.Fatal(err)
		}
		return c.RGBA(), s.MemoryBytes()
	}
	for _, path := range []formats.Choice{formats.ChooseShader, formats.ChooseSampler} {
		copied, own := canvas(path, false)
		placed, less := canvas(path, true)
		if d := maxDiff(placed, copied); d != 0 {
			t.Errorf("%s: the picture written into its place differs from the one copied there by %d LSB", path, d)
		}
		if px := placed.RGBAAt(x+w/2, y+h/2); px.A != 255 || placed.RGBAAt(x+w, y+h) != placed.RGBAAt(0, 0) {
			t.Errorf("%s: the place holds %v, past it %v (want the picture, then the cleared canvas %v)", path, px, placed.RGBAAt(x+w, y+h), placed.RGBAAt(0, 0))
		}
		if own-less < 4*w*h {
			t.Errorf("%s: the stream holds %d bytes placed, %d with its own storage image: want %d fewer at least", path, less, own, 4*w*h)
		}
	}
	// The variant probe converts pictures of its own, not into the stream's place.
	s, err := stream.New(dev, stream.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, err := dev.NewComputedOffscreen(cw, ch)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Destroy()
	if _, err := s.Configure(stream.Config{Format: pf, Width: w, Height: h, Params: p, Into: stream.Into{View: c.View, X: x, Y: y}}); err != nil {
		t.Fatalf("measured with a place: %v", err)
	}
	vktest.Check(t, dev)
}

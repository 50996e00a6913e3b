package stream_test

import (
	"fmt"
	"image"
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// openFrames opens the test device with what FFmpeg's Vulkan frames need (gpu.Options.Frames).
func openFrames(t *testing.T) *gpu.Device {
	t.Helper()
	return vktest.OpenWith(t, gpu.Options{Frames: true})
}

// newUploader opens the test device for FFmpeg's Vulkan frames and an uploader into them, closed
// when the test ends.
func newUploader(t *testing.T) (*gpu.Device, *decode.Uploader) {
	t.Helper()
	dev := openFrames(t)
	up, err := decode.NewUploader(dev)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(up.Close)
	return dev, up
}

// routed configures s for route and uploads pic into a fresh FFmpeg Vulkan frame for it.
func routed(t *testing.T, s *stream.Stream, cfg stream.Config, route stream.Route, up *decode.Uploader, pic *formats.Frame) *decode.Frame {
	t.Helper()
	cfg.Route = route
	if _, err := s.Configure(cfg); err != nil {
		t.Fatal(err)
	}
	hw, err := up.Upload(pic)
	if err != nil {
		t.Fatal(err)
	}
	return hw
}

// foreignCases are the pictures put in FFmpeg's Vulkan frames by the hardware-frame tests: 8- and
// 10-bit layouts at the picture's size, and padded to a larger coded size (16-sample coding blocks,
// odd picture sizes) as a decoder's images are.
var foreignCases = []foreignCase{{"nv12", 48, 32, false}, {"nv12", 45, 27, true}, {"p010le", 40, 24, true}}

type foreignCase struct {
	format string
	w, h   int
	pad    bool
}

// setPad makes up pad its pictures as the case says.
func (tc foreignCase) setPad(up *decode.Uploader) {
	up.Pad = nil
	if tc.pad {
		up.Pad = func(w, h int) (int, int) { return (w + 15) &^ 15, (h + 15) &^ 15 }
	}
}

// recorder is a stream.Foreign that records what the stream does with the frame.
type recorder struct {
	stream.Foreign
	locks, unlocks int
	layout         vk.ImageLayout
	submitted      bool
}

func (r *recorder) Lock() (planes.ForeignState, error) { r.locks++; return r.Foreign.Lock() }
func (r *recorder) Unlock()                            { r.unlocks++; r.Foreign.Unlock() }
func (r *recorder) Submitted(l vk.ImageLayout, a vk.AccessFlags) {
	r.layout, r.submitted = l, true
	r.Foreign.Submitted(l, a)
}

// drawForeign draws src (FFmpeg's Vulkan frame) through route into a fresh target and reads it back.
// The stream's configuration says the route (Config.Route).
func drawForeign(t *testing.T, dev *gpu.Device, s *stream.Stream, src stream.Foreign, w, h int) (*image.RGBA, stream.Route, string) {
	t.Helper()
	var got stream.Route
	var why string
	img := drawFrame(t, dev, s, w, h, func(fr *stream.Frame) (err error) {
		got, why, err = fr.LoadForeign(src, nil)
		return err
	})
	if r := s.Plan().Route; r.Route != got || r.Reason != why {
		t.Errorf("the plan says route %s (%s), the frame took %s (%s)", r.Route, r.Reason, got, why)
	}
	return img, got, why
}

// TestForeignRoutes: software pictures uploaded into FFmpeg's own Vulkan frames (an
// AVHWFramesContext on the toolkit's device, av_hwframe_transfer_data: FFmpeg's multi-planar images,
// timeline semaphores and layouts, as a Vulkan decoder outputs them) and drawn in place and through
// the GPU copy give the picture the normal upload of the same picture gives, on both paths and
// both conversion variants (in place with the compute variant, the conversion is the image's last
// read and its batch signals the frame's semaphore), for
// 8- and 10-bit layouts, at the picture's size and cropped from a larger coded size (16-sample
// coding blocks, odd picture sizes); each submission is made under the frame's lock, advances its
// semaphore by one and writes its layout back; with stream.Options.OneBatch the same, the copy or
// the compute conversion in the frame's own batch instead of one ahead of it. The validation layer, with synchronization
// validation, checks the barriers and the semaphore waits.
func TestForeignRoutes(t *testing.T) {
	dev, up := newUploader(t)
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	for _, tc := range foreignCases {
		pf, _ := formats.Lookup(tc.format)
		tc.setPad(up)
		pic, err := synth.Noise(pf, tc.w, tc.h, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, pv := range []struct {
			path     formats.Path
			variant  stream.Variant
			oneBatch bool
		}{{formats.PathSampler, stream.VariantDraw, false}, {formats.PathShader, stream.VariantDraw, false},
			{formats.PathSampler, stream.VariantCompute, false}, {formats.PathShader, stream.VariantCompute, false},
			{formats.PathShader, stream.VariantDraw, true}, {formats.PathSampler, stream.VariantCompute, true}} {
			path := pv.path
			name := fmt.Sprintf("%s %dx%d %s %s one batch %v", tc.format, tc.w, tc.h, path, pv.variant, pv.oneBatch)
			s, err := stream.New(dev, stream.Options{Upload: planes.UploadCopy, OneBatch: pv.oneBatch})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Close)
			choice := formats.ChooseSampler
			if path == formats.PathShader {
				choice = formats.ChooseShader
			}
			cfg := stream.Config{Format: pf, Width: tc.w, Height: tc.h, Params: p, Choice: choice, Variant: pv.variant}
			if _, err := s.Configure(cfg); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want := drawOne(t, dev, s, pic)
			for _, route := range []stream.Route{stream.RouteInPlace, stream.RouteCopy, stream.RouteAuto} {
				hw := routed(t, s, cfg, route, up, pic)
				rec := &recorder{Foreign: hw.HW.Foreign()}
				before, err := rec.Foreign.Lock()
				rec.Foreign.Unlock()
				if err != nil {
					t.Fatal(err)
				}
				got, taken, why := drawForeign(t, dev, s, rec, tc.w, tc.h)
				after, err := rec.Foreign.Lock()
				rec.Foreign.Unlock()
				hw.Release()
				if err != nil {
					t.Fatal(err)
				}
				// auto: in place where the coded image is the picture's size, the copy where it is padded.
				if want := map[bool]stream.Route{false: stream.RouteInPlace, true: stream.RouteCopy}[tc.pad]; route == stream.RouteAuto && taken != want {
					t.Fatalf("%s: auto took %s (%s), want %s", name, taken, why, want)
				} else if route != stream.RouteAuto && taken != route {
					t.Fatalf("%s: route %s taken for %s: %s", name, taken, route, why)
				}
				if rec.locks != 1 || rec.unlocks != 1 || !rec.submitted || after.Value != before.Value+1 || after.Layout != rec.layout {
					t.Errorf("%s %s: %d locks, %d unlocks, submitted %v; semaphore %d → %d, layout %d (written %d)",
						name, route, rec.locks, rec.unlocks, rec.submitted, before.Value, after.Value, after.Layout, rec.layout)
				}
				// The copy, and in place the compute conversion, go in a batch of their own ahead of
				// the frame's (the slot's Pre buffer), or with OneBatch in the frame's own.
				pre := 0
				for i := 0; i < s.Ring.Len(); i++ {
					if s.Ring.Slot(i).Pre != nil {
						pre++
					}
				}
				if pv.oneBatch && pre > 0 || !pv.oneBatch && pre == 0 && (taken == stream.RouteCopy || pv.variant == stream.VariantCompute) {
					t.Errorf("%s %s: %d slots with a Pre buffer", name, route, pre)
				}
				d := maxDiff(got, want)
				t.Logf("%s %s (%s): image %dx%d, max difference %d", name, route, why, before.Image.Width, before.Image.Height, d)
				if d > 1 {
					t.Errorf("%s %s: differs from the normal upload by %d (of 255)", name, route, d)
				}
			}
		}
	}
}

// reader is a stream.Foreign whose owner's last read of the frame signalled sem at value instead of
// the frame's semaphore (FFmpeg's decodings that use the picture as a reference,
// scripts/ffmpeg-patches/0008).
type reader struct {
	stream.Foreign
	sem   vk.Semaphore
	value uint64
}

func (r *reader) Lock() (planes.ForeignState, error) {
	st, err := r.Foreign.Lock()
	st.ReadSemaphore, st.ReadValue = r.sem, r.value
	return st, err
}

// TestForeignWaitsForUnsignalledRead: where the owner's last read of a frame signalled another
// semaphore, the frame's point (stream.ForeignPoint: what the wall and the relay wait for on the
// host) is reached only once that one is, and a submission of the frame through either route waits
// on it on the GPU: the frame's semaphore stays below its next value until the test signals the
// read's, then the picture is the normal upload's.
func TestForeignWaitsForUnsignalledRead(t *testing.T) {
	dev, up := newUploader(t)
	pf, _ := formats.Lookup("nv12")
	const w, h = 48, 32
	pic, err := synth.Noise(pf, w, h, 5)
	if err != nil {
		t.Fatal(err)
	}
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	for _, route := range []stream.Route{stream.RouteInPlace, stream.RouteCopy} {
		s, err := stream.New(dev, stream.Options{Upload: planes.UploadCopy})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		cfg := stream.Config{Format: pf, Width: w, Height: h, Params: p, Choice: formats.ChooseSampler}
		if _, err := s.Configure(cfg); err != nil {
			t.Fatal(err)
		}
		want := drawOne(t, dev, s, pic)
		hw := routed(t, s, cfg, route, up, pic)
		sem, err := vkx.NewTimelineSemaphore(dev.Device, 0)
		if err != nil {
			t.Fatal(err)
		}
		src := &reader{Foreign: hw.HW.Foreign(), sem: sem, value: 1}
		at, err := stream.ForeignPoint(src)
		if err != nil {
			t.Fatal(err)
		}
		// The upload's own point first: from here only the read's semaphore is missing.
		if err := vkx.WaitSemaphore(dev.Device, at.Semaphore, at.Value, 5*time.Second); err != nil {
			t.Fatal(err)
		}
		if ok, err := at.Reached(dev); ok || err != nil {
			t.Errorf("%s: the frame's point reached (%v, %v) before the read's semaphore", route, ok, err)
		}
		if err := at.Wait(dev, 20*time.Millisecond); err == nil {
			t.Errorf("%s: waiting for the frame's point returned before the read's semaphore was signalled", route)
		}
		target, err := dev.NewOffscreen(w, h)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := s.Begin()
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := fr.LoadForeign(src, nil); err != nil {
			t.Fatal(err)
		}
		convertDrawSubmit(t, fr, target)
		after, err := src.Foreign.Lock()
		src.Foreign.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
		if ok, err := vkx.SemaphoresReached(dev.Device, []vk.Semaphore{after.Semaphore}, []uint64{after.Value}); ok || err != nil {
			t.Errorf("%s: the frame's submission finished (%v, %v) before the read's semaphore was signalled", route, ok, err)
		}
		if err := vkx.SignalSemaphore(dev.Device, sem, 1); err != nil {
			t.Fatal(err)
		}
		if err := s.Ring.Drain(); err != nil {
			t.Fatal(err)
		}
		if ok, err := at.Reached(dev); !ok || err != nil {
			t.Errorf("%s: the frame's point not reached (%v, %v) after the read's semaphore", route, ok, err)
		}
		if d := maxDiff(target.RGBA(), want); d > 1 {
			t.Errorf("%s: differs from the normal upload by %d (of 255)", route, d)
		}
		target.Destroy()
		hw.Release()
		// Mesa before 25.1.7 may still touch a semaphore a finished batch waited on (docs/reliability.md).
		if err := vkx.Check(vkx.DeviceWaitIdle(dev.Device), "vkDeviceWaitIdle"); err != nil {
			t.Fatal(err)
		}
		vk.DestroySemaphore(dev.Device, sem, nil)
	}
}

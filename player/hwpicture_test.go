package player

import (
	"fmt"
	"image"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/stream"
)

// uploaded is a Synthetic source whose pictures arrive as hardware-decoded ones do: in FFmpeg's
// Vulkan frames on the player's device (decode.Uploader: FFmpeg's multi-planar images, timeline
// semaphores, layouts and lock_frame), with no planes on the CPU. lavapipe decodes no video; this is
// how the player's hardware routes run there.
type uploaded struct {
	*Synthetic
	up  *decode.Uploader
	pad bool // coded size rounded up to 16 (a decoder's 1920×1088 for 1080p)
}

func (u *uploaded) Decoding() Decoding {
	return Decoding{Decode: stream.Decode{Decoder: "synthetic", Upload: true}}
}

func (u *uploaded) UseDevice(dev *gpu.Device) error {
	up, err := decode.NewUploader(dev)
	if err != nil {
		return err
	}
	if u.pad {
		up.Pad = func(w, h int) (int, int) { return (w + 15) &^ 15, (h + 15) &^ 15 }
	}
	u.up = up
	return nil
}

func (u *uploaded) Next() (*Frame, error) {
	f, err := u.Synthetic.Next()
	if err != nil {
		return nil, err
	}
	hf, err := u.up.UploadFrame(f.Frame)
	if err != nil {
		return nil, err
	}
	return &Frame{Frame: hf}, nil
}

func (u *uploaded) Close() error {
	if u.up != nil {
		u.up.Close()
	}
	return nil
}

// largest is the largest difference of two pictures' samples (8-bit steps); -1 when their sizes differ.
func largest(a, b *image.NRGBA) int {
	if a.Rect != b.Rect {
		return -1
	}
	m := 0
	for i := range a.Pix {
		d := int(a.Pix[i]) - int(b.Pix[i])
		m = max(m, d, -d)
	}
	return m
}

// Screenshots and the compare mode's diff picture of hardware frames (FFmpeg's Vulkan frames, made
// on lavapipe by decode.Uploader), in place and through the GPU copy, on both paths, turned and
// not, 8- and 10-bit, at a padded odd size: each is drawn again from FFmpeg's image through the route
// played and equals the same player's picture of the same software frames. Playback stops after 5
// of 12 frames, with frames still in FFmpeg's images and the decoder ahead (where the GPU-copy
// route hung on the H100): Play must return.
func TestHardwareFrameScreenshot(t *testing.T) {
	dir := t.TempDir()
	quarter := 1
	for _, tc := range []struct {
		format  string
		w, h    int
		pad     bool
		path    formats.Choice
		compare Compare
		rotate  *int
	}{
		{"nv12", 48, 32, false, formats.ChooseSampler, CompareOff, nil},
		{"nv12", 45, 27, true, formats.ChooseShader, CompareOff, nil},
		{"p010le", 40, 24, true, formats.ChooseSampler, CompareOff, &quarter},
		{"nv12", 45, 27, true, formats.ChooseAuto, CompareDiff, nil},
	} {
		name := fmt.Sprintf("%s %dx%d %v compare %v", tc.format, tc.w, tc.h, tc.path, tc.compare)
		cfg := Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Headless: true}, Playback: PlaybackConfig{Untimed: true, Frames: 5}, Convert: ConvertConfig{Path: tc.path, Compare: tc.compare}, View: ViewConfig{Rotate: tc.rotate}, Hooks: Hooks{Log: tlog{t}}}
		cfg.Output.Screenshot = filepath.Join(dir, "sw.png")
		if _, err := Play(synthetic(t, tc.format, tc.w, tc.h, 12), cfg); err != nil {
			t.Fatalf("%s, software: %v", name, err)
		}
		want := pictest.ReadNRGBA(t, cfg.Output.Screenshot)
		for _, route := range []stream.Route{stream.RouteInPlace, stream.RouteCopy} {
			c := cfg
			c.GPU.Frames, c.Convert.HWRoute = true, route
			c.Output.Screenshot = filepath.Join(dir, "hw.png")
			st, err := Play(&uploaded{Synthetic: synthetic(t, tc.format, tc.w, tc.h, 12), pad: tc.pad}, c)
			if err != nil {
				t.Fatalf("%s, %v: %v", name, route, err)
			}
			if st.HWDec != "upload" || st.HWDecRoute == "" || st.FramesPresented != 5 {
				t.Fatalf("%s, %v: hwdec %q, route %q, %d frames presented", name, route, st.HWDec, st.HWDecRoute, st.FramesPresented)
			}
			t.Logf("%s: %s", name, st.HWDecRoute)
			if d := largest(pictest.ReadNRGBA(t, c.Output.Screenshot), want); d != 0 {
				t.Errorf("%s, %v (%s): screenshot differs from the software frame's by %d (sizes differ: -1)", name, route, st.HWDecRoute, d)
			}
		}
	}
}

// tlog writes the player's log (its notices and validation messages) into the test's log.
type tlog struct{ t *testing.T }

func (w tlog) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

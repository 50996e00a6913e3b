package videotex_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/videotex"
)

// TestFrameInfo: a frame carries what the stream says of the picture, from values set when the clip
// was made: an HEVC stream with PQ transfer, BT.2020 primaries, SMPTE ST 2086 mastering luminance
// 0.005–4000 cd/m² and content light level 1000/400 (x265's SEI), pixels 4:3 (setsar), and a display
// matrix turning it a quarter (tagged by the project's ffmpeg; the same turn ycbcrplay applies, which
// its own test checks against Debian's ffmpeg's autorotation).
func TestFrameInfo(t *testing.T) {
	tagger := os.Getenv("YCBCRKIT_FFMPEG")
	if tagger == "" {
		t.Fatal("YCBCRKIT_FFMPEG is unset: run the tests with make test, or eval \"$(scripts/build-ffmpeg.sh --env)\" first")
	}
	dir := t.TempDir()
	base, clip := filepath.Join(dir, "pq.mkv"), filepath.Join(dir, "pq-rot.mp4")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25", "-frames:v", "3",
		"-vf", "setsar=4/3", "-pix_fmt", "yuv420p10le", "-c:v", "libx265", "-x265-params",
		"log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:"+
			"master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(40000000,50):max-cll=1000,400",
		base).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, out)
	}
	if out, err := exec.Command(tagger, "-v", "error", "-display_rotation", "90", "-i", base, "-c", "copy", clip).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", tagger, err, out)
	}
	dev := testDevice(t)
	tex, err := videotex.Open(engineDevice(dev), clip, videotex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tex.Close()
	if err := tex.WaitReady(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	f, err := tex.Acquire(0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Discard()
	c := f.Color
	if c.Transfer != formats.TransferSMPTE2084 || c.Primaries != formats.PrimariesBT2020 {
		t.Errorf("transfer %s, primaries %s; want smpte2084, bt2020", c.Transfer, c.Primaries)
	}
	if want := (formats.HDRMetadata{MinLuminance: 0.005, MaxLuminance: 4000, MaxCLL: 1000, MaxFALL: 400,
		Primaries: [3][2]float64{{0.68, 0.32}, {0.265, 0.69}, {0.15, 0.06}}, WhitePoint: [2]float64{0.3127, 0.329}}); c.HDR != want {
		t.Errorf("HDR %v, want %v", c.HDR, want)
	}
	if f.SampleAspect != [2]int{4, 3} {
		t.Errorf("sample aspect %v, want 4:3", f.SampleAspect)
	}
	if !f.Orientation.Transposed() || f.Orientation.Flip {
		t.Errorf("orientation %+v: want a quarter turn, no flip", f.Orientation)
	}
	vktest.Check(t, dev)
}

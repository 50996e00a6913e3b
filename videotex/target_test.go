package videotex_test

import (
	"math"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/videotex"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	ycbcrcheck "github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// TestTarget draws the first picture of a PQ BT.2020 clip (4:4:4 10-bit, made by Debian's ffmpeg
// with x265) through docs/engine.md's listing for each target offered (Options.Target: SDR, the
// default tone curve; HDR10), and of the bundled SDR clip for HDR10 (SDR on SDR is
// TestVectorsThroughListing's), and compares what the engine drew with the
// CPU oracle's picture (ycbcr/oracle: BT.2390's EETF and the BT.709 OETF, or the display light
// PQ-encoded in BT.2020) of the same codes, decoded apart: within 1/255 at every pixel. Frames say
// whether they were converted (FrameInfo.ToTarget).
func TestTarget(t *testing.T) {
	dev := testDevice(t)
	pq := filepath.Join(t.TempDir(), "pq.mkv")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25", "-frames:v", "1",
		"-pix_fmt", "yuv444p10le", "-c:v", "libx265", "-x265-params",
		"log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:"+
			"master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50):max-cll=1000,400",
		pq).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, out)
	}
	sdr := defaultClip(t)
	for _, c := range []struct {
		name, clip string
		target     videotex.Target
		converted  bool
	}{
		{"PQ on SDR", pq, videotex.Target{}, true},
		{"PQ on HDR10", pq, videotex.Target{Output: ycbcr.OutputHDR10}, true},
		{"SDR on HDR10", sdr, videotex.Target{Output: ycbcr.OutputHDR10}, true},
	} {
		d, err := decode.Open(c.clip, decode.Options{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		pic := f.Picture
		p := ycbcr.FromColor(f.Color)
		p.Output, p.Tone = c.target.Output, c.target.Tone
		prm, err := ycbcrcheck.OracleParams(pic.Format, p)
		if err != nil {
			t.Fatal(err)
		}
		want := oracle.Image(ycbcrcheck.OraclePicture(pic), prm)
		w, h := pic.Width, pic.Height
		f.Release()
		d.Close()

		e := newTestEngine(t, dev, w, h)
		e.readback = true
		toTarget := false
		opts := videotex.Options{Target: c.target}
		err = playVideo(engineDevice(dev), c.clip, opts, 1, e, func(tex *videotex.Texture) (*videotex.Frame, error) {
			f, err := step(tex)
			if err == nil {
				toTarget = f.ToTarget
			}
			return f, err
		})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		vktest.Check(t, dev)
		got := e.Picture()
		worst, at := 0.0, 0
		for i, v := range want {
			for k := 0; k < 3; k++ {
				g := float64(got.Pix[got.PixOffset(i%w, i/w)+k])
				if d := math.Abs(g - math.Min(math.Max(v[k], 0), 1)*255); d > worst {
					worst, at = d, i
				}
			}
		}
		t.Logf("%s (%s): %.2f LSB from the oracle", c.name, p, worst)
		if worst > 1 {
			t.Errorf("%s: %.2f LSB from the oracle at pixel (%d, %d)", c.name, worst, at%w, at/w)
		}
		if toTarget != c.converted {
			t.Errorf("%s: FrameInfo.ToTarget %v, want %v", c.name, toTarget, c.converted)
		}
	}
}

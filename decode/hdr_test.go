package decode

import (
	"path/filepath"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// TestHDRMetadata: an HEVC stream whose SEI carries SMPTE ST 2086 mastering display primaries and
// luminance (x265's master-display: G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450), Display
// P3's primaries and D65 in units of 0.00002, given green first, read back red first; and
// L(40000000,50): max 4000 and min 0.005 cd/m², in units of 0.0001) and a
// CTA-861.3 content light level (max-cll 1000,400) gives every frame that metadata; a stream without
// it gives none.
func TestHDRMetadata(t *testing.T) {
	dir := t.TempDir()
	hdr := filepath.Join(dir, "pq.mkv")
	ffmpegMake(t, "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25", "-frames:v", "3", "-pix_fmt", "yuv420p10le",
		"-c:v", "libx265", "-x265-params",
		"log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:"+
			"master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(40000000,50):max-cll=1000,400", hdr)
	plain := filepath.Join(dir, "plain.mkv")
	ffmpegMake(t, "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25", "-frames:v", "3", "-c:v", "libx265",
		"-x265-params", "log-level=error", plain)
	for _, c := range []struct {
		path string
		want formats.HDRMetadata
	}{
		{hdr, formats.HDRMetadata{MinLuminance: 0.005, MaxLuminance: 4000, MaxCLL: 1000, MaxFALL: 400,
			Primaries: [3][2]float64{{0.68, 0.32}, {0.265, 0.69}, {0.15, 0.06}}, WhitePoint: [2]float64{0.3127, 0.329}}},
		{plain, formats.HDRMetadata{}},
	} {
		d, err := Open(c.path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			f, err := d.Next()
			if err != nil {
				break
			}
			if f.Color.HDR != c.want {
				t.Errorf("%s frame %d: HDR %v, want %v", filepath.Base(c.path), n, f.Color.HDR, c.want)
			}
			f.Release()
			n++
		}
		d.Close()
		if n != 3 {
			t.Errorf("%s: %d frames", filepath.Base(c.path), n)
		}
	}
}

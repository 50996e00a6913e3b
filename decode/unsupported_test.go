package decode

import (
	"errors"
	"path/filepath"
	"testing"
)

// TestUnsupportedPixelFormat: rgb4 (4-bit packed RGB, a bitstream format) is outside the table and
// swscale cannot read it: Open refuses it with ErrUnsupportedPixelFormat, rather than announcing a
// conversion that then fails at the first frame.
func TestUnsupportedPixelFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rgb4.nut")
	ffmpegMake(t, "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25:d=0.12", "-pix_fmt", "rgb4", "-c:v", "rawvideo", path)
	quick(t, func() {
		d, err := Open(path, Options{})
		if err == nil {
			defer d.Close()
			t.Fatalf("opened, notices %q", d.Notices())
		}
		oneLine(t, err)
		if !errors.Is(err, ErrUnsupportedPixelFormat) {
			t.Errorf("error %q: want ErrUnsupportedPixelFormat", err)
		}
		t.Log(err)
	})
}

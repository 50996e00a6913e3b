package decode

import (
	"crypto/sha256"
	"fmt"
	"io"
	"testing"
)

// pictureSum hashes the visible samples of a software frame.
func pictureSum(f *Frame) string {
	h := sha256.New()
	p := f.Picture
	for i := range p.Format.Planes {
		w, rows := p.Format.PlaneSize(i, p.Width, p.Height)
		n := w * p.Format.Planes[i].BytesPerTexel
		for y := 0; y < rows; y++ {
			h.Write(p.Planes[i][y*p.Strides[i] : y*p.Strides[i]+n])
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil)[:8])
}

// decodeSums returns each frame's PTS and picture hash.
func decodeSums(t *testing.T, d *Decoder) []string {
	t.Helper()
	var out []string
	for {
		f, err := d.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("frame %d: %v", len(out), err)
		}
		out = append(out, fmt.Sprintf("%.3f %s", f.PTS, pictureSum(f)))
		f.Release()
	}
}

package decode

import (
	"bytes"
	"errors"
	"io"
	"math"
	"path/filepath"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// TestSeek seeks around the default clip (key frame every second, B-frames) and checks that each seek
// lands on the first frame at or after the target, with the codes ffmpeg decodes for that frame.
func TestSeek(t *testing.T) {
	v := findVector(t, "default")
	path := filepath.Join(mediaDir, v.File)
	pf, _ := formats.Lookup(v.PixFmt)
	want := rawFrames(t, path, v.PixFmt, pf.FrameBytes(v.Width, v.Height))

	d, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	const frame = 1.0 / 25
	for _, target := range []float64{2.5, 0, 1.0, 3.96, 0.52, 1.99, 1.001, -3} {
		if err := d.Seek(target); err != nil {
			t.Fatalf("seek %.4f: %v", target, err)
		}
		f, err := d.Next()
		if err != nil {
			t.Fatalf("seek %.4f: next: %v", target, err)
		}
		// 1.001 is one tick (1 ms) after a frame: it must land on the next one.
		wantPTS := math.Ceil(math.Max(target, 0)/frame-1e-6) * frame
		if math.Abs(f.PTS-wantPTS) > 1e-6 {
			t.Errorf("seek %.4f: landed at %.4f, want %.4f", target, f.PTS, wantPTS)
		}
		if i := int(math.Round(f.PTS / frame)); !bytes.Equal(pack(f.Picture), want[i]) {
			t.Errorf("seek %.4f: frame at %.4f differs from ffmpeg's frame %d", target, f.PTS, i)
		}
		// Decoding goes on in order after the landing frame.
		g, err := d.Next()
		if target < 3.9 && (err != nil || math.Abs(g.PTS-f.PTS-frame) > 1e-6) {
			t.Errorf("seek %.4f: frame after %.4f is %v, %v", target, f.PTS, g, err)
		}
		f.Release()
		if g != nil {
			g.Release()
		}
	}
	// Past the end: not an error; Next then says EOF.
	if err := d.Seek(60); err != nil {
		t.Fatalf("seek past the end: %v", err)
	}
	if f, err := d.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after seeking past the end: %v, %v; want io.EOF", f, err)
	}
	// And back again.
	if err := d.Seek(0.2); err != nil {
		t.Fatal(err)
	}
	f, err := d.Next()
	if err != nil || math.Abs(f.PTS-0.2) > 1e-6 {
		t.Fatalf("seek back to 0.2: %v, %v", f, err)
	}
	f.Release()
}

// TestSeekRaw seeks in the raw-video containers (NUT with an index, y4m without one).
func TestSeekRaw(t *testing.T) {
	for _, name := range []string{"nv12", "clip", "odd_63x47", "bt2020"} {
		v := findVector(t, name)
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(mediaDir, v.File)
			pf, _ := formats.Lookup(v.PixFmt)
			want := rawFrames(t, path, v.PixFmt, pf.FrameBytes(v.Width, v.Height))
			d, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			for _, target := range []float64{0.12, 0.04, 0.15, 0} {
				if err := d.Seek(target); err != nil {
					t.Fatalf("seek %.2f: %v", target, err)
				}
				f, err := d.Next()
				if err != nil {
					t.Fatalf("seek %.2f: %v", target, err)
				}
				i := int(math.Round(f.PTS * 25))
				if f.PTS < target-1e-6 || f.PTS > target+0.04+1e-6 || !bytes.Equal(pack(f.Picture), want[i]) {
					t.Errorf("seek %.2f: landed at %.4f (frame %d)", target, f.PTS, i)
				}
				f.Release()
			}
		})
	}
}

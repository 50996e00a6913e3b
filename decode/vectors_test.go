package decode

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
)

// TestVectors decodes every vector of the manifest and checks it against the manifest (what make.sh
// asked ffmpeg for), ffprobe (what the file carries, read at test time) and the ffmpeg CLI's own
// decode (the codes of every frame).
func TestVectors(t *testing.T) {
	// Its decoding fills the time TestLiveResumeAfterTimeout waits on the clock (t.Parallel both).
	t.Parallel()
	m := pictest.LoadManifest(t, mediaDir)
	for _, v := range m.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			path := filepath.Join(mediaDir, v.File)
			asSet, expected := parseColor(t, v.VectorColor), parseColor(t, v.Expected)

			// The file carries what the manifest says (ffprobe, independently of this package).
			p := ffprobe(t, path)
			got := pictest.VectorColor{Matrix: p.ColorSpace, Range: p.ColorRange, ChromaLocation: p.ChromaLocation,
				Primaries: p.ColorPrimaries, Transfer: p.ColorTransfer}
			if got != v.VectorColor || p.PixFmt != v.PixFmt || p.Width != v.Width || p.Height != v.Height || p.CodecName != v.Codec {
				t.Fatalf("ffprobe: %+v, manifest: %+v", p, v)
			}

			d, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			info := d.Info()
			if info.Codec != v.Codec || info.Width != v.Width || info.Height != v.Height || info.PixelFormat != v.PixFmt {
				t.Errorf("info %+v: want codec %s %dx%d %s", info, v.Codec, v.Width, v.Height, v.PixFmt)
			}
			if info.Color != asSet {
				t.Errorf("stream colour %v, want %v", info.Color, asSet)
			}
			if info.FrameRate != (Rational{25, 1}) || info.SampleAspect != (Rational{1, 1}) {
				t.Errorf("frame rate %v, sample aspect %v: want 25/1, 1/1", info.FrameRate, info.SampleAspect)
			}
			if n := d.Notices(); len(n) != 0 {
				t.Errorf("notices %q for a supported format", n)
			}

			pf, ok := formats.Lookup(v.PixFmt)
			if !ok {
				t.Fatalf("%s is not in the formats table", v.PixFmt)
			}
			want := rawFrames(t, path, v.PixFmt, pf.FrameBytes(v.Width, v.Height))
			if len(want) != v.Frames {
				t.Fatalf("ffmpeg decodes %d frames, manifest says %d", len(want), v.Frames)
			}
			lastPTS := -1.0
			n := decodeAll(t, d, func(i int, f *Frame) {
				pic := f.Picture
				if pic.Format != pf || pic.Width != v.Width || pic.Height != v.Height || f.SourceFormat != v.PixFmt {
					t.Fatalf("frame %d: %s (source %s), want %s %dx%d", i, describe(f), f.SourceFormat, v.PixFmt, v.Width, v.Height)
				}
				if i == 0 && f.PTS != 0 {
					t.Errorf("frame 0: PTS %.6f, want 0", f.PTS)
				}
				if f.PTS <= lastPTS {
					t.Errorf("frame %d: PTS %.6f after %.6f: not increasing", i, f.PTS, lastPTS)
				}
				lastPTS = f.PTS
				if f.Tagged != asSet {
					t.Errorf("frame %d: tagged %v, manifest %v", i, f.Tagged, asSet)
				}
				if f.Color != expected {
					t.Errorf("frame %d: colour %v, want %v (notes %q)", i, f.Color, expected, f.Notes)
				}
				if f.Damaged || f.Changed || f.SampleAspect != (Rational{1, 1}) {
					t.Errorf("frame %d: damaged %v changed %v aspect %v", i, f.Damaged, f.Changed, f.SampleAspect)
				}
				if i < len(want) && !bytes.Equal(pack(pic), want[i]) {
					t.Errorf("frame %d: codes differ from ffmpeg's decode", i)
				}
			})
			if n != v.Frames {
				t.Errorf("decoded %d frames, want %d", n, v.Frames)
			}
			s := d.Stats()
			if s.Decoded != int64(v.Frames) || s.Skipped != 0 || s.Damaged != 0 || s.ReadErrors != 0 || s.Packets < int64(v.Frames) {
				t.Errorf("stats %+v", s)
			}
		})
	}
}

// TestDefaultClip decodes the bundled default clip: frame and key-frame count, no copies.
func TestDefaultClip(t *testing.T) {
	v := findVector(t, "default")
	d, err := Open(filepath.Join(mediaDir, v.File), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Info().Duration < 3.9 || d.Info().Duration > 4.1 {
		t.Errorf("duration %.3f s, want 4", d.Info().Duration)
	}
	keys := 0
	n := decodeAll(t, d, func(_ int, f *Frame) {
		if f.KeyFrame {
			keys++
		}
	})
	if n != 100 || keys != 4 {
		t.Errorf("%d frames, %d key frames: want 100 and 4 (-g 25)", n, keys)
	}
	if s := d.Stats(); s.Copied != 0 {
		t.Errorf("%d frames copied: h264 should decode straight into the page-aligned pool", s.Copied)
	}
}

// BenchmarkDefaultClip decodes the whole 4 s, 640×360 default clip (100 frames) per iteration.
func BenchmarkDefaultClip(b *testing.B) {
	for _, threads := range []int{1, 0} {
		name := "threads=NumCPU"
		if threads == 1 {
			name = "threads=1"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				d, err := Open(filepath.Join(mediaDir, "default.mkv"), Options{Threads: threads})
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for {
					f, err := d.Next()
					if err != nil {
						break
					}
					f.Release()
					n++
				}
				d.Close()
				if n != 100 {
					b.Fatalf("%d frames", n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/100, "µs/frame")
		})
	}
}

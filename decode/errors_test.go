package decode

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// quick fails the test if f takes longer than a few seconds: bad input must never hang.
func quick(t *testing.T, f func()) {
	t.Helper()
	start := time.Now()
	f()
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
}

// drain decodes to the end and returns the frame count and the final error (nil for io.EOF).
func drain(d *Decoder) (int, error) {
	n := 0
	for {
		f, err := d.Next()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		f.Release()
		n++
		if n > 10000 {
			return n, errors.New("runaway")
		}
	}
}

// openOrDrain opens path and decodes it to the end; it returns the error of either step.
func openOrDrain(t *testing.T, path string, opts Options) (int, error) {
	t.Helper()
	d, err := Open(path, opts)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	return drain(d)
}

func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join(mediaDir, "default.mkv"))
	if err != nil {
		t.Fatal(err)
	}
	rnd := make([]byte, 64<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range rnd {
		rnd[i] = byte(r.Uint32())
	}
	audio := filepath.Join(dir, "tone.wav")
	ffmpegMake(t, "-f", "lavfi", "-i", "sine=frequency=440:duration=0.5", audio)

	cases := []struct {
		name string
		path string
		want string // substring of the error; "" means a clean EOF is acceptable too
		is   error
	}{
		{"missing", filepath.Join(dir, "nope.mp4"), "decode: open " + filepath.Join(dir, "nope.mp4") + ": No such file or directory", nil},
		{"text", tempFile(t, "notes.mp4", []byte("this is not a video\njust text\n")), "Invalid data found when processing input", nil},
		{"zero", tempFile(t, "empty.mkv", nil), "decode: open", nil},
		{"random", tempFile(t, "noise.mkv", rnd), "", nil},
		{"audio", audio, "no video stream", ErrNoVideo},
		{"header only", tempFile(t, "head.mkv", good[:600]), "", nil},
		{"empty url", "", "decode: open: empty URL", nil},
		// A protocol the build leaves out (scripts/build-ffmpeg.sh) is named as such, as srt:// is
		// in a build without libsrt.
		{"no protocol", "rtmp://127.0.0.1:1/live", ": Protocol not found: this FFmpeg build reads no rtmp://", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			quick(t, func() {
				n, err := openOrDrain(t, c.path, Options{})
				if c.want == "" && err == nil {
					t.Logf("clean EOF after %d frames", n)
					return
				}
				oneLine(t, err)
				if !strings.Contains(err.Error(), c.want) {
					t.Errorf("error %q: want it to contain %q", err, c.want)
				}
				if c.is != nil && !errors.Is(err, c.is) {
					t.Errorf("error %q is not %v", err, c.is)
				}
			})
		})
	}
}

// TestTruncated decodes copies of the default clip cut at several points: the frames before the cut
// come out, then io.EOF or one error line, quickly.
func TestTruncated(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(mediaDir, "default.mkv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, frac := range []float64{0.1, 0.45, 0.9, 0.999} {
		path := tempFile(t, "cut.mkv", good[:int(frac*float64(len(good)))])
		quick(t, func() {
			n, err := openOrDrain(t, path, Options{})
			if err != nil {
				oneLine(t, err)
			}
			if frac >= 0.45 && n < int(frac*100)-30 {
				t.Errorf("cut at %.0f%%: only %d frames (err %v)", frac*100, n, err)
			}
			t.Logf("cut at %.1f%%: %d frames, %v", frac*100, n, err)
		})
	}
}

// TestCorrupt overwrites bytes in the middle of the default clip: decoding goes on past the damage,
// the errors are counted or the frames flagged, and the end is still reached.
func TestCorrupt(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(mediaDir, "default.mkv"))
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Clone(good)
	r := rand.New(rand.NewPCG(3, 4))
	for i := len(bad) * 3 / 10; i < len(bad)*4/10; i += 97 {
		bad[i] = byte(r.Uint32())
	}
	path := tempFile(t, "corrupt.mkv", bad)
	quick(t, func() {
		d, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		n, err := drain(d)
		s := d.Stats()
		t.Logf("%d frames, stats %+v, err %v", n, s, err)
		if err != nil {
			oneLine(t, err)
		}
		if n < 60 {
			t.Errorf("only %d of 100 frames survived", n)
		}
		if s.Skipped+s.Damaged+s.ReadErrors == 0 && n == 100 {
			t.Errorf("damage went unnoticed: %+v", s)
		}
	})
}

// TestUnsupportedCodec renames the codec of a Matroska track (same length, so the file stays valid)
// to one FFmpeg does not know.
func TestUnsupportedCodec(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(mediaDir, "bt709.mkv"))
	if err != nil {
		t.Fatal(err)
	}
	id := []byte("V_MPEG4/ISO/AVC")
	if bytes.Count(good, id) != 1 {
		t.Fatalf("codec id %q not found once in bt709.mkv", id)
	}
	path := tempFile(t, "odd-codec.mkv", bytes.Replace(good, id, []byte("V_YCBCRKIT/NONE"), 1))
	quick(t, func() {
		_, err := openOrDrain(t, path, Options{})
		oneLine(t, err)
		if !errors.Is(err, ErrUnsupportedCodec) {
			t.Errorf("error %q: want ErrUnsupportedCodec", err)
		}
	})
}

// TestTooLarge: a y4m header claiming 20000×2000, and a size limit below a real file's size. (FFmpeg
// 5.1's y4m demuxer refuses 20000×20000 itself, with "Device or resource busy": also one line.)
func TestTooLarge(t *testing.T) {
	hdr := "YUV4MPEG2 W20000 H2000 F25:1 Ip A1:1 C420jpeg\nFRAME\n"
	path := tempFile(t, "huge.y4m", append([]byte(hdr), make([]byte, 4096)...))
	quick(t, func() {
		_, err := openOrDrain(t, path, Options{})
		oneLine(t, err)
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "20000x2000") {
			t.Errorf("error %q: want ErrTooLarge naming the size", err)
		}
	})
	_, err := openOrDrain(t, filepath.Join(mediaDir, "bt709.mkv"), Options{MaxWidth: 32})
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("64x48 with MaxWidth 32: %v", err)
	}
}

func TestClosed(t *testing.T) {
	d, err := Open(filepath.Join(mediaDir, "bt709.mkv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := d.Next()
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	d.Close()
	// A frame outlives its decoder until released.
	if !f.PageAligned() || f.Picture.Code(0, 0, 0) != 16 {
		t.Errorf("frame after Close: aligned %v, Y(0,0) %d", f.PageAligned(), f.Picture.Code(0, 0, 0))
	}
	f.Release()
	f.Release()
	if _, err := d.Next(); !errors.Is(err, ErrClosed) {
		t.Errorf("Next after Close: %v", err)
	}
	if err := d.Seek(0); !errors.Is(err, ErrClosed) {
		t.Errorf("Seek after Close: %v", err)
	}
}

package decode

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// segment is one H.264 elementary stream; concatenated, they make a stream whose size and pixel
// format change mid-way (new SPS), which the decoder passes through frame by frame.
type segment struct {
	w, h   int
	fmt    string
	frames int
}

func makeSegments(t *testing.T, segs []segment) (string, [][][]byte) {
	t.Helper()
	dir := t.TempDir()
	var all []byte
	var want [][][]byte
	for i, s := range segs {
		p := filepath.Join(dir, string(rune('a'+i))+".h264")
		src := "nullsrc=s=" + strconv.Itoa(s.w) + "x" + strconv.Itoa(s.h) + ":r=25,format=" + s.fmt +
			",geq=lum='16+219*(X+Y)/(W+H)':cb='if(mod(X+N,2),240,16)':cr='if(mod(Y,2),16,240)'"
		ffmpegMake(t, "-f", "lavfi", "-i", src, "-frames:v", strconv.Itoa(s.frames), "-c:v", "libx264", "-qp", "0", "-bf", "0", p)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
		pf, _ := formats.Lookup(s.fmt)
		want = append(want, rawFrames(t, p, s.fmt, pf.FrameBytes(s.w, s.h)))
	}
	return tempFile(t, "changes.h264", all), want
}

// TestMidStreamChange: 64×48 4:2:0, then 96×64 4:2:0, then 64×48 4:4:4 in one raw H.264 stream.
func TestMidStreamChange(t *testing.T) {
	segs := []segment{{64, 48, "yuv420p", 3}, {96, 64, "yuv420p", 3}, {64, 48, "yuv444p", 3}}
	path, want := makeSegments(t, segs)
	d, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	lastPTS := -1.0
	n := decodeAll(t, d, func(i int, f *Frame) {
		s := segs[i/3]
		if f.Picture.Width != s.w || f.Picture.Height != s.h || f.Picture.Format.Name != s.fmt {
			t.Errorf("frame %d: %s, want %dx%d %s", i, describe(f), s.w, s.h, s.fmt)
		}
		if wantChanged := i == 3 || i == 6; f.Changed != wantChanged {
			t.Errorf("frame %d: Changed %v", i, f.Changed)
		}
		if !bytes.Equal(pack(f.Picture), want[i/3][i%3]) {
			t.Errorf("frame %d: codes differ from ffmpeg's decode of the segment", i)
		}
		// Raw H.264 has no timestamps: they are carried on from the frame rate.
		if f.PTS <= lastPTS {
			t.Errorf("frame %d: PTS %.3f after %.3f", i, f.PTS, lastPTS)
		}
		lastPTS = f.PTS
	})
	if n != 9 {
		t.Errorf("%d frames, want 9", n)
	}
}

// TestChangeTooLarge: a limit the second segment exceeds stops decoding there with ErrTooLarge (the
// page-aligned allocator refuses the buffer), after the frames that fit. The first segment is long
// enough that avformat_find_stream_info does not reach the second (it would report that size).
func TestChangeTooLarge(t *testing.T) {
	path, _ := makeSegments(t, []segment{{64, 48, "yuv420p", 200}, {96, 64, "yuv420p", 3}})
	d, err := Open(path, Options{MaxWidth: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	n, err := drain(d)
	if !errors.Is(err, ErrTooLarge) || n != 200 {
		t.Fatalf("%d frames, %v: want 200 frames, then ErrTooLarge", n, err)
	}
	oneLine(t, err)
	if w, h := d.pool.Refused(); w != 96 || h != 64 {
		t.Errorf("pool refused %dx%d: want the 96x64 buffer refused in get_buffer2", w, h)
	}
}

package decode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/soundtest"
)

// The vectors made by testvectors/make.sh, and the manifest it writes from the parameters it gave
// ffmpeg.
const mediaDir = "../testvectors/media"

func TestMain(m *testing.M) {
	// Several tests feed FFmpeg broken input on purpose; its log lines would only be noise.
	astiav.SetLogLevel(astiav.LogLevelQuiet)
	os.Exit(m.Run())
}

func findVector(t *testing.T, name string) pictest.Vector {
	t.Helper()
	for _, v := range pictest.Vectors(t, mediaDir) {
		if v.Name == name {
			return v
		}
	}
	t.Fatalf("no vector %q in the manifest", name)
	return pictest.Vector{}
}

// parseColor turns the manifest's FFmpeg names into a formats.Color.
func parseColor(t *testing.T, c pictest.VectorColor) formats.Color {
	t.Helper()
	m, err1 := formats.ParseMatrix(c.Matrix)
	r, err2 := formats.ParseRange(c.Range)
	l, err3 := formats.ParseChromaLocation(c.ChromaLocation)
	p, err4 := formats.ParsePrimaries(c.Primaries)
	tr, err5 := formats.ParseTransfer(c.Transfer)
	if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
		t.Fatalf("manifest colour %+v: %v", c, err)
	}
	return formats.Color{Matrix: m, Range: r, ChromaLocation: l, Primaries: p, Transfer: tr}
}

// run runs a command with a time limit and returns its stdout (soundtest.Run).
func run(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	return soundtest.Run(t, 30*time.Second, name, args...)
}

// ffmpegMake runs Debian's ffmpeg quietly (test-time inputs), its last argument the file it
// writes, or copies the file an identical earlier run wrote (pictest.FFmpegMake).
func ffmpegMake(t *testing.T, args ...string) {
	t.Helper()
	pictest.FFmpegMake(t, args...)
}

// refFFmpeg is the build's own ffmpeg program (YCBCRKIT_FFMPEG, from scripts/build-ffmpeg.sh --env),
// the tests' reference decoder: its own decoding loop, not this package's. It starts in 0.02 CPU-s;
// Debian's, which makes the clips (its encoders), takes 0.24 to load its 214 libraries.
func refFFmpeg(t *testing.T) string {
	t.Helper()
	p := os.Getenv("YCBCRKIT_FFMPEG")
	if p == "" {
		t.Fatal("YCBCRKIT_FFMPEG is unset: run the tests with make test, or eval \"$(scripts/build-ffmpeg.sh --env)\" first")
	}
	return p
}

// rawFrames decodes file with the ffmpeg CLI (refFFmpeg), an independent decode, into tightly
// packed frames of pixFmt (the rawvideo layout: planes in order, rows without padding).
// The frames go through a file, read in one allocation of its size: read from a pipe into a
// bytes.Buffer, the default clip's 35 MB took a dozen doublings, each a fresh region to fault in
// (0.8 CPU-s of TestSeek's 3.3 under -race).
func rawFrames(t *testing.T, file, pixFmt string, frameBytes int) [][]byte {
	t.Helper()
	raw := filepath.Join(t.TempDir(), "frames.raw")
	run(t, refFFmpeg(t), "-hide_banner", "-nostdin", "-loglevel", "error", "-i", file,
		"-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", pixFmt, raw)
	out, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	if frameBytes <= 0 || len(out)%frameBytes != 0 {
		t.Fatalf("ffmpeg dump of %s: %d bytes is not a whole number of %d-byte frames", file, len(out), frameBytes)
	}
	var frames [][]byte
	for len(out) > 0 {
		frames = append(frames, out[:frameBytes])
		out = out[frameBytes:]
	}
	return frames
}

// pack copies a picture's planes without row padding, as rawvideo lays them out.
func pack(pic *formats.Frame) []byte {
	var b []byte
	for i, p := range pic.Format.Planes {
		pw, ph := pic.Format.PlaneSize(i, pic.Width, pic.Height)
		row := pw * p.BytesPerTexel
		for y := 0; y < ph; y++ {
			b = append(b, pic.Planes[i][y*pic.Strides[i]:y*pic.Strides[i]+row]...)
		}
	}
	return b
}

// probeStream is what ffprobe says about the first video stream.
type probeStream struct {
	CodecName      string `json:"codec_name"`
	PixFmt         string `json:"pix_fmt"`
	Width          int    `json:"width"`
	Height         int    `json:"height"`
	ColorRange     string `json:"color_range"`
	ColorSpace     string `json:"color_space"`
	ColorTransfer  string `json:"color_transfer"`
	ColorPrimaries string `json:"color_primaries"`
	ChromaLocation string `json:"chroma_location"`
}

func ffprobe(t *testing.T, file string) probeStream {
	t.Helper()
	out := pictest.KeptOutput(t, "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_streams", "-of", "json", file)
	var r struct {
		Streams []probeStream `json:"streams"`
	}
	if err := json.Unmarshal(out, &r); err != nil || len(r.Streams) != 1 {
		t.Fatalf("ffprobe %s: %v (%d streams)", file, err, len(r.Streams))
	}
	s := r.Streams[0]
	// ffprobe leaves out fields that are unspecified; the manifest spells them as FFmpeg names them.
	def := func(p *string, v string) {
		if *p == "" {
			*p = v
		}
	}
	def(&s.ColorRange, "unknown")
	def(&s.ColorSpace, "unknown")
	def(&s.ColorTransfer, "unknown")
	def(&s.ColorPrimaries, "unknown")
	def(&s.ChromaLocation, "unspecified")
	return s
}

// decodeAll reads every frame, checking the invariants every frame must satisfy, and releases them.
func decodeAll(t *testing.T, d *Decoder, each func(i int, f *Frame)) int {
	t.Helper()
	n := 0
	for {
		f, err := d.Next()
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			t.Fatalf("frame %d: %v", n, err)
		}
		if !f.PageAligned() {
			t.Errorf("frame %d: planes not page-aligned", n)
		}
		if each != nil {
			each(n, f)
		}
		f.Release()
		n++
	}
}

// oneLine checks that an error message is one line and names the package.
func oneLine(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("want an error")
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\r\n") || !strings.HasPrefix(msg, "decode: ") {
		t.Errorf("error %q: want one line starting with \"decode: \"", msg)
	}
}

func tempFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func describe(f *Frame) string {
	return fmt.Sprintf("%s %dx%d pts=%.3f", f.Picture.Format.Name, f.Picture.Width, f.Picture.Height, f.PTS)
}

func astivPixFmt(name string) astiav.PixelFormat { return astiav.FindPixelFormatByName(name) }

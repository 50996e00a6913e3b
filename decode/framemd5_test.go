package decode

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
)

// referenceFFmpeg is the ffmpeg program built from the same FFmpeg source as the libraries this
// package links (scripts/build-ffmpeg.sh; its --env output sets YCBCRKIT_FFMPEG, as make test does).
// Debian's own ffmpeg is another version, whose decoders may differ in the last bit.
func referenceFFmpeg(t *testing.T) string {
	t.Helper()
	p := os.Getenv("YCBCRKIT_FFMPEG")
	if p == "" {
		t.Fatal("YCBCRKIT_FFMPEG is unset: run the tests with make test, or eval \"$(scripts/build-ffmpeg.sh --env)\" first")
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("reference ffmpeg: %v", err)
	}
	return p
}

// TestFrameMD5MatchesFFmpeg decodes every test vector and hashes each frame's pixels packed as FFmpeg's
// rawvideo encoder packs them (each plane's rows back to back, no padding): the list must equal the
// ffmpeg CLI's -f framemd5 of the same build, frame for frame. Bit-identical decoding through the
// project's get_buffer2, frame threads and plane handling, checked against FFmpeg's own program.
func TestFrameMD5MatchesFFmpeg(t *testing.T) {
	ffmpeg := referenceFFmpeg(t)
	for _, v := range pictest.Vectors(t, mediaDir) {
		t.Run(v.Name, func(t *testing.T) {
			path := filepath.Join(mediaDir, v.File)
			want := ffmpegFrameMD5(t, ffmpeg, path, "0:v:0")
			got, _ := decodeMD5s(t, path, func(_ int, f *Frame) {
				if f.SourceFormat != f.Picture.Format.Name {
					t.Fatalf("frame converted from %s to %s: not comparable bit for bit", f.SourceFormat, f.Picture.Format.Name)
				}
			})
			if len(got) != len(want) || len(got) == 0 {
				t.Fatalf("%d frames decoded, ffmpeg's framemd5 lists %d", len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("frame %d: md5 %s, ffmpeg %s", i, got[i], want[i])
				}
			}
		})
	}
}

// decodeMD5s opens path, decodes every frame and returns each frame's packedMD5, after check has
// looked at the frame (nil: no check); the decoder is returned for its notices and info.
func decodeMD5s(t *testing.T, path string, check func(i int, f *Frame)) ([]string, *Decoder) {
	t.Helper()
	return decodeMD5sChecked(t, path, Options{}, check)
}

// decodeMD5sWith is decodeMD5s with opts and no check.
func decodeMD5sWith(t *testing.T, path string, opts Options) ([]string, *Decoder) {
	t.Helper()
	return decodeMD5sChecked(t, path, opts, nil)
}

func decodeMD5sChecked(t *testing.T, path string, opts Options, check func(i int, f *Frame)) ([]string, *Decoder) {
	t.Helper()
	d, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	var got []string
	for {
		f, err := d.Next()
		if errors.Is(err, io.EOF) {
			return got, d
		}
		if err != nil {
			t.Fatal(err)
		}
		if check != nil {
			check(len(got), f)
		}
		got = append(got, packedMD5(f))
		f.Release()
	}
}

// packedMD5 is the MD5 of f's visible pixels, plane after plane, row after row.
func packedMD5(f *Frame) string {
	pic := f.Picture
	h := md5.New()
	for i, p := range pic.Format.Planes {
		w, rows := pic.Format.PlaneSize(i, pic.Width, pic.Height)
		n := w * p.BytesPerTexel
		for y := 0; y < rows; y++ {
			h.Write(pic.Planes[i][y*pic.Strides[i] : y*pic.Strides[i]+n])
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ffmpegFrameMD5 runs ffmpeg -f framemd5 on the video stream named by stream (a -map specifier),
// with every decoded frame passed through (no frame-rate conversion), and returns the hashes in order.
func ffmpegFrameMD5(t *testing.T, ffmpeg, path, stream string) []string {
	t.Helper()
	out := run(t, ffmpeg, "-hide_banner", "-nostdin", "-loglevel", "error", "-i", path, "-map", stream,
		"-fps_mode", "passthrough", "-f", "framemd5", "-")
	var sums []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Split(line, ",")
		sums = append(sums, strings.TrimSpace(fields[len(fields)-1]))
	}
	return sums
}

// TestEmptyDefaultStream: a Matroska file whose default video track (1080p) has no packets beside a
// 64×48 track with 10 frames. Like FFmpeg's CLI, the decoder moves on to the playable track (with a
// notice) instead of ending with no picture; its frames equal ffmpeg's framemd5 of that track.
func TestEmptyDefaultStream(t *testing.T) {
	ffmpeg := referenceFFmpeg(t)
	path := filepath.Join(t.TempDir(), "empty-default.mkv")
	ffmpegMake(t, "-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=25,trim=end_frame=0", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25",
		"-map", "0:v", "-map", "1:v", "-c:v", "libx264", "-frames:v:1", "10", "-disposition:v:0", "default", "-disposition:v:1", "0", path)
	sums := ffmpegFrameMD5(t, ffmpeg, path, "0:v:1")
	got, d := decodeMD5s(t, path, func(i int, f *Frame) {
		if f.Picture.Width != 64 || f.Picture.Height != 48 {
			t.Errorf("frame %d is %dx%d, want 64x48", i, f.Picture.Width, f.Picture.Height)
		}
	})
	if len(got) != 10 || len(sums) != 10 || strings.Join(got, " ") != strings.Join(sums, " ") {
		t.Errorf("decoded %d frames %v, ffmpeg's framemd5 of track 1: %v", len(got), got, sums)
	}
	if n := d.Notices(); len(n) != 1 || !strings.Contains(n[0], "video stream 0 has no frames; playing video stream 1") {
		t.Errorf("notices %q", n)
	}
	if i := d.Info(); i.StreamIndex != 1 || i.Width != 64 {
		t.Errorf("Info after the switch: stream %d, %dx%d", i.StreamIndex, i.Width, i.Height)
	}
}

package decode

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDeinterlace: an interlaced H.264 clip (x264 -flags +ildct+ilme, top field first) gives one frame
// per field, each equal bit for bit to the same build's ffmpeg -vf bwdif=mode=send_field (framemd5),
// with auto and yes; with no, the coded frames. A progressive clip is never deinterlaced.
func TestDeinterlace(t *testing.T) {
	ffmpeg := referenceFFmpeg(t)
	dir := t.TempDir()
	inter := filepath.Join(dir, "tff.mkv")
	ffmpegMake(t, "-f", "lavfi", "-i", "testsrc2=s=64x48:r=50", "-vf", "interlace=scan=tff", "-frames:v", "6",
		"-c:v", "libx264", "-flags", "+ildct+ilme", "-x264-params", "tff=1", "-field_order", "tb", inter)
	prog := filepath.Join(dir, "prog.mkv")
	ffmpegMake(t, "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25", "-frames:v", "6", "-c:v", "libx264", prog)

	want := strings.Fields(strings.Join(bwdifMD5(t, ffmpeg, inter), " "))
	coded := ffmpegFrameMD5(t, ffmpeg, inter, "0:v:0")
	for _, c := range []struct {
		path string
		mode Deinterlace
		want []string
		note bool
	}{
		{inter, DeinterlaceAuto, want, true},
		{inter, DeinterlaceYes, want, true},
		{inter, DeinterlaceNo, coded, false},
		{prog, DeinterlaceAuto, ffmpegFrameMD5(t, ffmpeg, prog, "0:v:0"), false},
	} {
		got, d := decodeMD5sWith(t, c.path, Options{Deinterlace: c.mode})
		name := filepath.Base(c.path) + " " + c.mode.String()
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: %d frames %v, want %d %v", name, len(got), got, len(c.want), c.want)
		}
		if noted := strings.Contains(strings.Join(d.Notices(), "\n"), "deinterlacing with bwdif (top field first"); noted != c.note {
			t.Errorf("%s: notices %q", name, d.Notices())
		}
		if d.Info().Deinterlaced != c.note {
			t.Errorf("%s: Info().Deinterlaced = %v", name, d.Info().Deinterlaced)
		}
	}
	if len(want) != 2*len(coded) {
		t.Errorf("bwdif gave %d frames for %d coded frames: not one per field", len(want), len(coded))
	}
}

func bwdifMD5(t *testing.T, ffmpeg, path string) []string {
	t.Helper()
	out := run(t, ffmpeg, "-hide_banner", "-nostdin", "-loglevel", "error", "-i", path, "-map", "0:v:0",
		"-vf", "bwdif=mode=send_field:parity=auto:deint=all", "-fps_mode", "passthrough", "-f", "framemd5", "-")
	var sums []string
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Split(line, ","); len(f) == 6 && !strings.HasPrefix(line, "#") {
			sums = append(sums, strings.TrimSpace(f[5]))
		}
	}
	return sums
}

// TestDeinterlaceTimestamps: each deinterlaced field has the presentation time and duration of the
// same build's ffmpeg -vf bwdif=mode=send_field output (framemd5's pts and duration on its time
// base): one field every half coded frame, not both fields at the coded frame's time.
func TestDeinterlaceTimestamps(t *testing.T) {
	ffmpeg := referenceFFmpeg(t)
	inter := filepath.Join(t.TempDir(), "tff.mkv")
	ffmpegMake(t, "-f", "lavfi", "-i", "testsrc2=s=64x48:r=50", "-vf", "interlace=scan=tff", "-frames:v", "4",
		"-c:v", "libx264", "-flags", "+ildct+ilme", "-x264-params", "tff=1", "-field_order", "tb", inter)
	out := string(run(t, ffmpeg, "-hide_banner", "-nostdin", "-loglevel", "error", "-i", inter, "-map", "0:v:0",
		"-vf", "bwdif=mode=send_field:parity=auto:deint=all", "-fps_mode", "passthrough", "-f", "framemd5", "-"))
	var tb Rational
	var want [][2]float64 // pts, duration in seconds
	for _, line := range strings.Split(out, "\n") {
		if _, err := fmt.Sscanf(line, "#tb 0: %d/%d", &tb.Num, &tb.Den); err == nil {
			continue
		}
		f := strings.Split(line, ",")
		if len(f) != 6 || strings.HasPrefix(line, "#") {
			continue
		}
		pts, _ := strconv.ParseInt(strings.TrimSpace(f[2]), 10, 64)
		dur, _ := strconv.ParseInt(strings.TrimSpace(f[3]), 10, 64)
		want = append(want, [2]float64{float64(pts) * tb.Float64(), float64(dur) * tb.Float64()})
	}
	if tb.Den == 0 || len(want) != 8 {
		t.Fatalf("ffmpeg: time base %v, %d fields: %s", tb, len(want), out)
	}
	d, err := Open(inter, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for i, w := range want {
		f, err := d.Next()
		if err != nil {
			t.Fatalf("field %d: %v", i, err)
		}
		if math.Abs(f.PTS-(w[0]-want[0][0])) > 1e-6 || math.Abs(f.Duration-w[1]) > 1e-6 || !f.Field {
			t.Errorf("field %d: pts %.4f s, duration %.4f s, field %v; want %.4f s, %.4f s (ffmpeg's bwdif)", i, f.PTS, f.Duration, f.Field,
				w[0]-want[0][0], w[1])
		}
		f.Release()
	}
}

package decode

import (
	"path/filepath"
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

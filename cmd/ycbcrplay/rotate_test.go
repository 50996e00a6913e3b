package main

import (
	"encoding/json"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
)

// zscaleRGB is the reference conversion: zscale itself converts to planar R′G′B′ (format=gbrp; PNG's
// rgb24 then only repacks). With format=rgb24 instead, which zscale does not output, the filter graph
// keeps zscale's output Y′CbCr (yuv444p, only its range converted) and swscale's 8-bit integer
// conversion makes the R′G′B′: up to 9/255 off where a channel clips (ffmpeg -v verbose shows
// auto_scale_0 converting yuv444p to rgb24).
const zscaleRGB = "zscale=matrixin=709:rangein=limited:filter=bilinear:range=full,format=gbrp"

// TestDisplayMatrix tags a clip with display matrices (rotations and a flip) with the build's own
// ffmpeg (-display_rotation, -display_hflip, -display_vflip) and plays each: the screenshot is the
// picture turned as FFmpeg turns it — Debian's ffmpeg, which rotates automatically by the matrix,
// then zscale — within 1/255 (shader path), and the unturned screenshot within 1/255 of zscale's
// unturned picture; the turn is exact (the screenshot is the unturned one turned as FFmpeg turns
// it); portrait for 90° and 270°; -stats says the rotation; -rotate 0 shows it unturned.
func TestDisplayMatrix(t *testing.T) {
	tagger := os.Getenv("YCBCRKIT_FFMPEG")
	if tagger == "" {
		t.Fatal("YCBCRKIT_FFMPEG is not set: eval \"$(scripts/build-ffmpeg.sh --env)\"")
	}
	dir := t.TempDir()
	base := filepath.Join(dir, "base.mkv")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25", "-frames:v", "2",
		"-pix_fmt", "yuv444p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
		"-c:v", "libx264", "-qp", "0", base).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, out)
	}
	for _, c := range []struct {
		name string
		tag  []string
		w, h int
	}{
		{"rot90", []string{"-display_rotation", "90"}, 64, 96},
		{"rot180", []string{"-display_rotation", "180"}, 96, 64},
		{"rot270", []string{"-display_rotation", "270"}, 64, 96},
		{"hflip", []string{"-display_hflip"}, 96, 64},
		{"vflip", []string{"-display_vflip"}, 96, 64},
		{"rot90hflip", []string{"-display_rotation", "90", "-display_hflip"}, 64, 96},
	} {
		t.Run(c.name, func(t *testing.T) {
			clip := filepath.Join(dir, c.name+".mp4")
			args := append(append([]string{"-v", "error"}, c.tag...), "-i", base, "-c", "copy", clip)
			if out, err := exec.Command(tagger, args...).CombinedOutput(); err != nil {
				t.Fatalf("%s %v: %v\n%s", tagger, args, err, out)
			}
			// FFmpeg's references, turned (by the display matrix) and unturned (-noautorotate): the
			// same clip read twice by one ffmpeg run (Debian's takes 0.2 CPU-s to start).
			ref, unref := filepath.Join(dir, c.name+"-ref.png"), filepath.Join(dir, c.name+"-unref.png")
			if out, err := exec.Command("ffmpeg", "-v", "error", "-i", clip, "-noautorotate", "-i", clip,
				"-map", "0:v", "-frames:v", "1", "-vf", zscaleRGB, ref,
				"-map", "1:v", "-frames:v", "1", "-vf", zscaleRGB, unref).CombinedOutput(); err != nil {
				t.Fatalf("ffmpeg references: %v\n%s", err, out)
			}
			shot := filepath.Join(dir, c.name+".png")
			stdout, stderr, code := play(t, "-headless", "-untimed", "-frames", "1", "-path", "shader", "-stats", "-screenshot", shot, clip)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var st struct{ Rotation, Scale string }
			if err := json.Unmarshal([]byte(stdout), &st); err != nil {
				t.Fatal(err)
			}
			unshot := filepath.Join(dir, c.name+"-unturned.png")
			if _, stderr, code := play(t, "-headless", "-untimed", "-frames", "1", "-path", "shader", "-rotate", "0", "-screenshot", unshot, clip); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			want, wantFrom := pictest.ReadNRGBA(t, ref), pictest.ReadNRGBA(t, unref)
			got, gotFrom := pictest.ReadNRGBA(t, shot), pictest.ReadNRGBA(t, unshot)
			if got.Bounds().Dx() != c.w || got.Bounds().Dy() != c.h || got.Bounds() != want.Bounds() {
				t.Fatalf("screenshot %v, FFmpeg's %v, want %dx%d", got.Bounds(), want.Bounds(), c.w, c.h)
			}
			// FFmpeg's own turn of the picture: the one of the eight orientations that maps its unturned
			// picture onto its turned one.
			var ffmpegTurn *formats.Orientation
			for q := 0; q < 8 && ffmpegTurn == nil; q++ {
				o := formats.Orientation{Rotate: q % 4, Flip: q >= 4}
				if turned(wantFrom, want, o) {
					ffmpegTurn = &o
				}
			}
			if ffmpegTurn == nil {
				t.Fatal("FFmpeg's turned picture is none of the eight orientations of its unturned one")
			}
			t.Logf("rotation %q, scale %q; FFmpeg turns it %v", st.Rotation, st.Scale, *ffmpegTurn)
			if !turned(gotFrom, got, *ffmpegTurn) {
				t.Errorf("the screenshot is not the unturned screenshot turned %v, as FFmpeg turns it", *ffmpegTurn)
			}
			for _, c := range []struct {
				name      string
				got, want *image.NRGBA
			}{{"turned", got, want}, {"unturned", gotFrom, wantFrom}} {
				d := largestDiff(c.got, c.want)
				t.Logf("%s: %d/255 from zscale", c.name, d)
				if d > 1 {
					t.Errorf("%s: the screenshot is %d/255 from zscale's, want ≤ 1", c.name, d)
				}
			}
		})
	}
	t.Run("-rotate 0", func(t *testing.T) {
		shot := filepath.Join(dir, "unturned.png")
		if _, stderr, code := play(t, "-headless", "-untimed", "-frames", "1", "-rotate", "0", "-screenshot", shot, filepath.Join(dir, "rot90.mp4")); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if b := pictest.ReadNRGBA(t, shot).Bounds(); b.Dx() != 96 || b.Dy() != 64 {
			t.Errorf("-rotate 0: %v, want 96x64", b)
		}
	})
}

// largestDiff is the largest difference of R, G or B between a and b (the same size), in 1/255.
func largestDiff(a, b *image.NRGBA) int {
	worst := 0
	for i := range a.Pix {
		if i%4 != 3 {
			d := int(a.Pix[i]) - int(b.Pix[i])
			worst = max(worst, d, -d)
		}
	}
	return worst
}

// turned says whether b is a turned by o, pixel for pixel.
func turned(a, b *image.NRGBA, o formats.Orientation) bool {
	w, h := a.Bounds().Dx(), a.Bounds().Dy()
	if dw, dh := o.DisplaySize(w, h); dw != b.Bounds().Dx() || dh != b.Bounds().Dy() {
		return false
	}
	for j := 0; j < b.Bounds().Dy(); j++ {
		for i := 0; i < b.Bounds().Dx(); i++ {
			x, y := o.Source(i, j, w, h)
			if a.NRGBAAt(x, y) != b.NRGBAAt(i, j) {
				return false
			}
		}
	}
	return true
}

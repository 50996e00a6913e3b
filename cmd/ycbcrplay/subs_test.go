package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/subtest"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// subsClip writes subtest's clip (SubRip: Hello 0.5–1.5 s, World 2–3 s; ASS: red, top left at
// (40, 60), 1–2 s; 320×240 at 25 fps) into a new folder.
func subsClip(t *testing.T) string { return subtest.Clip(t, t.TempDir()) }

// shot plays the first frames of clip headless and returns the screenshot of the last one and the
// figures.
func shot(t *testing.T, clip string, frames int, args ...string) (*image.NRGBA, map[string]any) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "shot.png")
	args = append([]string{"-headless", "-untimed", "-stats", "-frames", fmt.Sprint(frames), "-screenshot", out}, args...)
	stdout, stderr, code := play(t, append(args, clip)...)
	var st map[string]any
	if code != 0 || json.Unmarshal([]byte(stdout), &st) != nil {
		t.Fatalf("%v: exit %d, stats %q: %s", args, code, stdout, stderr)
	}
	return pictest.ReadNRGBA(t, out), st
}

// changed is the bounding box of the pixels of a that differ from b by more than 48 in a channel,
// how many they are and how many of them are red in a.
func changed(a, b *image.NRGBA) (box image.Rectangle, n, red int) {
	for y := a.Rect.Min.Y; y < a.Rect.Max.Y; y++ {
		for x := a.Rect.Min.X; x < a.Rect.Max.X; x++ {
			p, q := a.NRGBAAt(x, y), b.NRGBAAt(x, y)
			d := max(absDiff(p.R, q.R), absDiff(p.G, q.G), absDiff(p.B, q.B))
			if d > 48 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
				n++
				if p.R > 200 && p.G < 60 && p.B < 60 {
					red++
				}
			}
		}
	}
	return
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// TestSubtitlesDrawn: the SubRip track shows from the first frame at or after its cue's start (frame
// 13, 0.48 s, shows nothing; frame 14, 0.52 s, shows the line in the picture's lower half) and
// hides at its end; the ASS line is red with its top left where \pos puts it; -stats lists both
// tracks and the one shown.
func TestSubtitlesDrawn(t *testing.T) {
	clip := subsClip(t)
	for _, c := range []struct {
		frames int
		show   bool
	}{{13, false}, {14, true}, {38, true}, {39, false}} { // 0.48, 0.52, 1.48, 1.52 s
		with, st := shot(t, clip, c.frames, "-sid", "1")
		without, _ := shot(t, clip, c.frames, "-sid", "no")
		box, n, _ := changed(with, without)
		if c.show != (n > 50) {
			t.Errorf("frame %d (%.2f s): %d pixels changed by the subtitle, want it shown %v", c.frames, float64(c.frames-1)*0.04, n, c.show)
		}
		if c.show && (box.Min.Y < 120 || box.Min.X < 80 || box.Max.X > 240) {
			t.Errorf("frame %d: the SubRip line covers %v, want it centred in the lower half", c.frames, box)
		}
		tracks, _ := st["sub_tracks"].([]any)
		if len(tracks) != 2 || st["sid"] != 1.0 || st["sub_visibility"] != true {
			t.Fatalf("stats: sub_tracks %v, sid %v, sub_visibility %v", st["sub_tracks"], st["sid"], st["sub_visibility"])
		}
	}
	with, _ := shot(t, clip, 38, "-sid", "2")
	without, st := shot(t, clip, 38, "-sid", "no")
	box, n, red := changed(with, without)
	if n < 100 || red < n*6/10 { // the rest: antialiased edges, red blended with the picture
		t.Errorf("ASS line: %d pixels changed, %d of them red", n, red)
	}
	// Near, not at: testsrc2's own red under the line's first strokes changes nothing there (the
	// exact place is subtitle's TestTracksAndTiming's, on a transparent overlay).
	if box.Min.X < 38 || box.Min.X > 60 || box.Min.Y < 58 || box.Min.Y > 72 {
		t.Errorf("ASS line covers %v, want its top left near (40, 60)", box)
	}
	if st["sid"] != 0.0 {
		t.Errorf("-sid no: sid %v", st["sid"])
	}
}

// TestSubtitleFileBeside: clip.srt next to clip.mkv is loaded by itself and shown (an external file
// comes first, as in mpv); -sub-file adds another; -sub-delay moves the cue; -sub-scale makes the
// text taller.
func TestSubtitleFileBeside(t *testing.T) {
	clip := subsClip(t)
	beside := strings.TrimSuffix(clip, ".mkv") + ".srt"
	os.WriteFile(beside, []byte("1\n00:00:01,000 --> 00:00:02,000\nBeside\n"), 0o644)
	other := filepath.Join(t.TempDir(), "other.srt")
	os.WriteFile(other, []byte("1\n00:00:03,000 --> 00:00:03,500\nOther\n"), 0o644)
	_, st := shot(t, clip, 38, "-sub-file", other)
	tracks, _ := st["sub_tracks"].([]any)
	if len(tracks) != 4 || st["sid"] != 3.0 {
		t.Fatalf("sub_tracks %v, sid %v: want 4 tracks (2 embedded, -sub-file's, the one beside) and the first external one", tracks, st["sid"])
	}
	if tr := tracks[3].(map[string]any); tr["external"] != true || tr["external-filename"] != beside || tr["codec"] != "subrip" {
		t.Errorf("track 4: %v", tr)
	}
	without, _ := shot(t, clip, 38, "-sid", "no")
	// Track 3 (other.srt, 3–3.5 s) at 1.48 s: nothing, as its cue is later; the beside file's is on.
	_, n3, _ := changed(func() *image.NRGBA { a, _ := shot(t, clip, 38, "-sid", "3", "-sub-file", other); return a }(), without)
	b4, n4, _ := changed(func() *image.NRGBA { a, _ := shot(t, clip, 38, "-sid", "4", "-sub-file", other); return a }(), without)
	if n3 > 0 || n4 < 50 {
		t.Errorf("at 1.48 s: %d pixels from track 3 (want none), %d from track 4", n3, n4)
	}
	_, nd, _ := changed(func() *image.NRGBA {
		a, _ := shot(t, clip, 38, "-sid", "4", "-sub-file", other, "-sub-delay", "0.6")
		return a
	}(), without)
	if nd > 0 {
		t.Errorf("-sub-delay 0.6: the cue (then 1.6–2.6 s) shows at 1.48 s")
	}
	b5, _, _ := changed(func() *image.NRGBA {
		a, _ := shot(t, clip, 38, "-sid", "4", "-sub-file", other, "-sub-scale", "2")
		return a
	}(), without)
	if r := float64(b5.Dy()) / float64(b4.Dy()); r < 1.6 || r > 2.4 {
		t.Errorf("-sub-scale 2: text %d px tall, %d at 1", b5.Dy(), b4.Dy())
	}
}

// TestSubtitleKeys: v hides and shows, j and J cycle (1, 2, none, 1, and back through none to 2); each screenshot taken
// by s after the keys equals the one -sid (or -sid no) gives of the same frame, and those references
// differ: at 1.16 s both tracks show (else a player drawing no subtitles would pass).
func TestSubtitleKeys(t *testing.T) {
	clip := subsClip(t)
	dir := t.TempDir()
	t.Chdir(dir)
	k := window.KeyS
	keyScript = func(n int) []window.Key {
		if n != 30 { // 1.16 s: both tracks show
			return nil
		}
		return []window.Key{window.KeySubToggle, k, window.KeySubToggle, k, window.KeySubNext, k, window.KeySubNext, k,
			window.KeySubNext, k, window.KeySubPrev, window.KeySubPrev, k}
	}
	t.Cleanup(func() { keyScript = nil })
	_, stderr, code := play(t, "-headless", "-untimed", "-frames", "31", clip)
	keyScript = nil
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	refs := map[string]*image.NRGBA{}
	for _, sid := range []string{"no", "1", "2"} {
		refs[sid], _ = shot(t, clip, 30, "-sid", sid)
	}
	for _, pair := range [][2]string{{"1", "no"}, {"2", "no"}, {"1", "2"}} {
		if _, n, _ := changed(refs[pair[0]], refs[pair[1]]); n < 50 {
			t.Fatalf("-sid %s and -sid %s differ in %d pixels at 1.16 s: the subtitles are not drawn", pair[0], pair[1], n)
		}
	}
	for i, want := range []string{"no", "1", "2", "no", "1", "2"} {
		got := pictest.ReadNRGBA(t, filepath.Join(dir, fmt.Sprintf("ycbcrplay-%04d.png", i+1)))
		if !bytes.Equal(got.Pix, refs[want].Pix) {
			t.Errorf("screenshot %d differs from -sid %s's", i+1, want)
		}
	}
}

// TestBitmapSubtitles: a DVD subtitle track made by FFmpeg's dvdsub encoder (a yellow 64×32 block
// at (100, 150) of the 320×240 canvas, 0.5–1.5 s), muxed with the video: the screenshot shows the
// block there from the first frame at or after 0.5 s.
func TestBitmapSubtitles(t *testing.T) {
	dir := t.TempDir()
	video, subs, clip := filepath.Join(dir, "video.mkv"), filepath.Join(dir, "dvd.mkv"), filepath.Join(dir, "clip.mkv")
	subtest.FFmpeg(t, "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", video)
	im := image.NewPaletted(image.Rect(100, 150, 164, 182), color.Palette{color.NRGBA{}, color.NRGBA{255, 255, 0, 255}})
	for i := range im.Pix {
		im.Pix[i] = 1
	}
	if err := subtest.WriteDVD(subs, 320, 240, []subtest.Event{{Image: im, Start: 500 * time.Millisecond, Duration: time.Second}}); err != nil {
		t.Fatal(err)
	}
	subtest.FFmpeg(t, "-i", video, "-i", subs, "-map", "0:v", "-map", "1:s", "-c", "copy", clip)
	for _, c := range []struct {
		frames int
		show   bool
	}{{13, false}, {14, true}} {
		with, st := shot(t, clip, c.frames, "-sid", "1")
		without, _ := shot(t, clip, c.frames, "-sid", "no")
		box, n, _ := changed(with, without)
		if !c.show {
			if n != 0 {
				t.Errorf("frame %d: %d pixels changed before the subtitle", c.frames, n)
			}
			continue
		}
		tracks, _ := st["sub_tracks"].([]any)
		if len(tracks) != 1 || tracks[0].(map[string]any)["codec"] != "dvd_subtitle" || tracks[0].(map[string]any)["image"] != true {
			t.Fatalf("sub_tracks %v", tracks)
		}
		if d := box.Min.Sub(image.Pt(100, 150)); d.X < -1 || d.X > 1 || d.Y < -1 || d.Y > 1 || box.Dx() < 62 || box.Dy() < 30 {
			t.Errorf("frame %d: block covers %v, want (100,150)-(164,182)", c.frames, box)
		}
		if p := with.NRGBAAt(132, 166); p.R < 245 || p.G < 245 || p.B > 10 {
			t.Errorf("frame %d: block's middle %v, want yellow", c.frames, p)
		}
	}
}

// TestNoLibass: where libass cannot be loaded (hidden here by a bind mount in a mount namespace of
// the player's own, which needs unshare and root), the player says so once and plays the video.
func TestNoLibass(t *testing.T) {
	clip := subsClip(t)
	out, err := exec.Command("ldconfig", "-p").Output()
	if err != nil {
		t.Fatal(err)
	}
	lib := ""
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "libass.so.9" {
			lib = f[len(f)-1]
		}
	}
	if lib == "" {
		t.Fatal("libass.so.9 is not installed (scripts/install-deps.sh)")
	}
	cmd := exec.Command("unshare", "-m", "sh", "-c", `mount --bind /dev/null "$1" && shift && exec "$@"`, "sh", lib,
		os.Args[0], "-headless", "-untimed", "-stats", "-frames", "30", clip, clip)
	cmd.Env = append(os.Environ(), "YCBCRPLAY_AS_MAIN=1")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, e.String())
	}
	if n := strings.Count(e.String(), "libass.so.9 is not installed"); n != 1 {
		t.Errorf("the notice shows %d times for two files, want once: %s", n, e.String())
	}
	if c := strings.Count(o.String(), `"frames_presented": 30`) + strings.Count(o.String(), `"frames_presented":30`); c != 2 {
		t.Errorf("want 30 frames presented of each file: %s", o.String())
	}
}

package subtitle

import (
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/subtest"
)

const extSRT = "1\n00:00:01,000 --> 00:00:02,000\nBeside\n"

// makeClip writes subtest's clip (SubRip and ASS tracks) and an external SubRip file.
func makeClip(t *testing.T) (clip, ext string) {
	dir := t.TempDir()
	ext = filepath.Join(dir, "other.srt")
	if err := os.WriteFile(ext, []byte(extSRT), 0o644); err != nil {
		t.Fatal(err)
	}
	return subtest.Clip(t, dir), ext
}

func open(t *testing.T, clip string, o Options) *Subtitles {
	t.Helper()
	o.Log = t.Logf
	s, err := Open(clip, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	select {
	case <-s.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the subtitles were not read in 10 s")
	}
	return s
}

func TestTracksAndTiming(t *testing.T) {
	clip, ext := makeClip(t)
	s := open(t, clip, Options{Embedded: true, Files: []string{ext}})
	tr := s.Tracks()
	if len(tr) != 3 || tr[0].Codec != "subrip" || tr[0].Lang != "eng" || tr[1].Codec != "ass" ||
		tr[2].Codec != "subrip" || !tr[2].External || tr[2].Path != ext || tr[0].Image {
		t.Fatalf("tracks %+v", tr)
	}
	if s.SID() != 3 { // an external file first, as mpv
		t.Errorf("auto-selected %d, want the external track 3", s.SID())
	}
	if s.Notice() != "" {
		t.Errorf("notice %q with libass installed", s.Notice())
	}
	// SubRip: within one frame (40 ms) of each cue's start and end.
	if err := s.Select(1); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		at   float64
		show bool
	}{{0.46, false}, {0.54, true}, {1.46, true}, {1.54, false}, {1.96, false}, {2.04, true}, {2.96, true}, {3.04, false}} {
		if o := s.Render(c.at, full); (o != nil) != c.show {
			t.Errorf("track 1 at %.2f s: shown %v, want %v", c.at, o != nil, c.show)
		}
	}
	// ASS: red, its top left where \an7\pos(40,60) puts it at twice the PlayRes (80, 120).
	s.Select(2)
	o := s.Render(1.5, full)
	if o == nil {
		t.Fatal("track 2 shows nothing at 1.5 s")
	}
	box, red, n := covered(o.Image)
	if red < n*9/10 || n < 200 {
		t.Errorf("ASS line: %d of %d covered pixels red", red, n)
	}
	if box.Min.X < 76 || box.Min.X > 92 || box.Min.Y < 120 || box.Min.Y > 140 {
		t.Errorf("ASS line covers %v, want its top left near (80, 120)", box)
	}
	if s.Render(1.5, full) != o {
		t.Error("a second render of an unchanged frame made a new overlay")
	}
	// The external file.
	s.Select(3)
	if s.Render(0.9, full) != nil || s.Render(1.5, full) == nil {
		t.Error("external track: wrong timing")
	}
	// -sub-delay 1: the cue at 1–2 s shows at 2–3 s.
	s.SetDelay(1)
	if s.Render(1.5, full) != nil || s.Render(2.5, full) == nil {
		t.Error("delayed external track: wrong timing")
	}
	s.SetDelay(0)
	// Hidden (v) and none (-sid no).
	s.SetVisible(false)
	if s.Render(1.5, full) != nil {
		t.Error("hidden track shown")
	}
	s.SetVisible(true)
	if s.Cycle(1) != 0 || s.Render(1.5, full) != nil {
		t.Error("cycling past the last track does not turn subtitles off")
	}
	if s.Cycle(1) != 1 || s.Cycle(-1) != 0 || s.Cycle(-1) != 3 {
		t.Error("cycle order")
	}
}

// -sub-scale doubles the text's height; a letterboxed layout keeps the text inside the picture.
func TestScaleAndLetterbox(t *testing.T) {
	clip, _ := makeClip(t)
	s := open(t, clip, Options{Embedded: true})
	s.Select(1)
	b1, _, _ := covered(s.Render(1, full).Image)
	s.SetScale(2)
	b2, _, _ := covered(s.Render(1, full).Image)
	if r := float64(b2.Dy()) / float64(b1.Dy()); r < 1.8 || r > 2.2 {
		t.Errorf("scale 2: text %d px tall, %d at scale 1", b2.Dy(), b1.Dy())
	}
	s.SetScale(1)
	box := Layout{W: 640, H: 480, Video: image.Rect(0, 60, 640, 420)} // a 16:9 picture letterboxed
	b3, _, _ := covered(s.Render(1, box).Image)
	if b3.Max.Y > 420 || b3.Max.Y < 360 {
		t.Errorf("letterboxed: text covers %v, want its bottom above the picture's (420) and near it", b3)
	}
}

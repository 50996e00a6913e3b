package ass

import (
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/subtest"
)

const script = subtest.StyledASS

func open(t *testing.T) (*Lib, *Renderer) {
	t.Helper()
	l, err := New()
	if err != nil {
		t.Fatal(err)
	}
	r, err := l.NewRenderer("sans-serif")
	if err != nil {
		l.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); l.Close() })
	return l, r
}

// covered is the bounding box of the pixels an image covers at least half.
func covered(imgs []Image) (x0, y0, x1, y1 int) {
	x0, y0 = 1<<30, 1<<30
	for _, im := range imgs {
		for y := range im.H {
			for x := range im.W {
				if im.Bitmap[y*im.Stride+x] >= 128 {
					x0, y0 = min(x0, im.X+x), min(y0, im.Y+y)
					x1, y1 = max(x1, im.X+x+1), max(y1, im.Y+y+1)
				}
			}
		}
	}
	return
}

func TestRenderStyledEvent(t *testing.T) {
	l, r := open(t)
	tr, err := l.ReadScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	// Twice the script's resolution: positions scale with it.
	r.SetFrame(640, 480, 0, 0, 0, 0)
	r.SetStorageSize(640, 480)
	imgs, _ := r.Render(tr, 500*time.Millisecond, nil)
	if len(imgs) != 0 {
		t.Fatalf("before the event: %d images", len(imgs))
	}
	imgs, ch := r.Render(tr, 1500*time.Millisecond, imgs)
	if len(imgs) == 0 || ch != Different {
		t.Fatalf("during the event: %d images, change %d", len(imgs), ch)
	}
	for _, im := range imgs {
		if im.R != 255 || im.G != 0 || im.B != 0 || im.A != 255 {
			t.Errorf("image colour %d,%d,%d,%d, want the style's opaque red", im.R, im.G, im.B, im.A)
		}
	}
	x0, y0, x1, y1 := covered(imgs)
	// \an7\pos(40,60) at 2×: the text's top left near (80, 120); "Red" at 64 px is some 120 px wide.
	if x0 < 76 || x0 > 92 || y0 < 120 || y0 > 140 || x1-x0 < 80 || y1-y0 < 40 {
		t.Errorf("text covers (%d,%d)-(%d,%d), want its top left near (80,120)", x0, y0, x1, y1)
	}
	imgs, _ = r.Render(tr, 2500*time.Millisecond, imgs)
	if len(imgs) != 0 {
		t.Fatalf("after the event: %d images", len(imgs))
	}
}

// Events arrive as a Matroska demuxer hands them: header once, then chunks with their own times.
func TestChunks(t *testing.T) {
	l, r := open(t)
	tr, err := l.NewTrack()
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.ProcessHeader([]byte(script[:strings.Index(script, "Dialogue:")]))
	ev := []byte(`0,0,Default,,0,0,0,,{\an7\pos(40,60)}Red`)
	tr.ProcessChunk(ev, 5*time.Second, time.Second)
	tr.ProcessChunk(ev, 5*time.Second, time.Second) // the same ReadOrder again (a seek back): ignored
	r.SetFrame(640, 360, 0, 0, 0, 0)
	imgs, _ := r.Render(tr, 5500*time.Millisecond, nil)
	one := len(imgs)
	if one == 0 {
		t.Fatal("no images at 5.5 s")
	}
	if imgs, _ = r.Render(tr, 4900*time.Millisecond, imgs); len(imgs) != 0 {
		t.Errorf("%d images at 4.9 s, before the chunk", len(imgs))
	}
	tr.Flush()
	if imgs, _ = r.Render(tr, 5500*time.Millisecond, imgs); len(imgs) != 0 {
		t.Errorf("%d images after Flush", len(imgs))
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/present/osd"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/wall"
)

// windowVectors are four test vectors of one size (64×48) with different pictures: a tile in the
// wrong place, or the wrong tile picked, cannot pass for the right one.
var windowVectors = []string{"yuv420p_left", "bt601", "yuv444p", "bt2020"}

// windowRun plays windowVectors in a window of geometry with -frames 1 -keep-open under validation
// and, once every stream has ended, presses script's keys, one group per display step; each s
// writes ycbcrwall-NNNN.png of the window, read back here in order.
func windowRun(t *testing.T, geometry string, script [][]window.Key) (wall.Stats, []*image.RGBA) {
	t.Helper()
	return windowRunWith(t, geometry, func(_ *window.Window, i int) []window.Key {
		if i < len(script) {
			return script[i]
		}
		return nil
	})
}

// windowRunWith is windowRun with the i-th step after the end given by step, which may also act on
// the window; it returns nil at the end of the script.
func windowRunWith(t *testing.T, geometry string, step func(win *window.Window, i int) []window.Key) (wall.Stats, []*image.RGBA) {
	t.Helper()
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	dir := t.TempDir()
	args := []string{"-validate", "-stats", "-frames", "1", "-keep-open", "-path", "shader", "-geometry", geometry}
	for _, v := range windowVectors {
		f, err := filepath.Abs(filepath.Join(mediaDir, v+".mkv"))
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, f)
	}
	at := 0
	keyScript = func(n int, ended bool, win *window.Window) []window.Key {
		if !ended {
			return nil
		}
		at++
		return step(win, at-1)
	}
	t.Cleanup(func() { keyScript = nil })
	// s writes into the working folder: the test's own, for this run alone.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	var o, e bytes.Buffer
	code := run(args, &o, &e)
	if err := os.Chdir(wd); err != nil {
		t.Fatal(err)
	}
	if code != 0 {
		t.Fatalf("ycbcrwall %s: exit %d: %s", strings.Join(args, " "), code, e.String())
	}
	var st wall.Stats
	if err := json.Unmarshal(o.Bytes(), &st); err != nil {
		t.Fatalf("-stats: %v: %q", err, o.String())
	}
	var shots []*image.RGBA
	for i := 1; strings.Contains(e.String(), fmt.Sprintf("screenshot: ycbcrwall-%04d.png", i)); i++ {
		shots = append(shots, toRGBA(pictest.ReadPNG(t, filepath.Join(dir, fmt.Sprintf("ycbcrwall-%04d.png", i)))))
	}
	return st, shots
}

func toRGBA(img image.Image) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			out.Set(x, y, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return out
}

// TestWindowGridAndPick: four vectors in a window of the canvas's size (128×96, the grid shown one
// pixel for one pixel), under validation. Keys, once every stream has shown its picture: s (the grid
// with labels); o, s (without); 2, s (the second tile alone, full size); Esc, s (the grid again);
// ↓, Enter, s (the outline moved from tile 2 to tile 4 below it, picked); q. Checked:
//   - each tile of the grid without labels is zscale's picture of its vector within 1 LSB (the
//     bound ycbcrplay's own test holds each vector played alone to);
//   - a tile alone, fitted to the window (exactly 2× here), is the Lanczos-3 filter of that tile's
//     picture as the grid showed it, clamped at the tile's own edges, computed here in float64
//     from the filter's definition: within 1/255 (its rows pass keeps float32, then rounds);
//   - Esc gives the grid back as it was, bit for bit, but for the outline of the tile last shown;
//   - the labels change each tile's bottom centre, clear of its corners, and nothing else.
func TestWindowGridAndPick(t *testing.T) {
	st, shots := windowRun(t, "128x96", [][]window.Key{
		{window.KeyS},
		{window.KeyO, window.KeyS},
		{window.Key2, window.KeyS},
		{window.KeyEscape, window.KeyS},
		{window.KeyDown, window.KeyNext, window.KeyS},
		{window.KeyQuit},
	})
	if len(shots) != 5 {
		t.Fatalf("%d window screenshots, want 5", len(shots))
	}
	if st.Streams != 4 || st.Frames != 4 {
		t.Fatalf("-stats: %d streams, %d frames; want 4 of 1", st.Streams, st.Frames)
	}
	labelled, grid, second, back, fourth := shots[0], shots[1], shots[2], shots[3], shots[4]
	if grid.Rect.Dx() != 128 || grid.Rect.Dy() != 96 {
		t.Fatalf("window %v, want 128×96", grid.Rect)
	}
	l := wall.NewLayout(4, 64, 48)
	for i, v := range windowVectors {
		want := pictest.ReadPNG(t, filepath.Join(mediaDir, v+".zscale.png"))
		if d := pictest.MaxDiff(t, grid.SubImage(l.Place(i, 64, 48)), want); d > 1 {
			t.Errorf("grid tile %d (%s): %.0f LSB from zscale's picture (limit 1)", i+1, v, d)
		}
	}
	for _, c := range []struct {
		name string
		got  *image.RGBA
		tile int
	}{{"2", second, 1}, {"↓ Enter", fourth, 3}} {
		tile := toRGBA(grid.SubImage(l.Place(c.tile, 64, 48)))
		want := lanczos3(tile, 128, 96)
		if d := pictest.MaxDiff(t, c.got, want); d > 1 {
			t.Errorf("%s: tile %d alone is %.0f LSB from its picture scaled 2× by Lanczos-3 (limit 1)", c.name, c.tile+1, d)
		}
	}
	// Back on the grid, the tile last shown is outlined (2 pixels, the outline's colour); nothing
	// else changed.
	ring := l.Place(1, 64, 48)
	inner := ring.Inset(2)
	for y := 0; y < 96; y++ {
		for x := 0; x < 128; x++ {
			p, c := image.Pt(x, y), back.RGBAAt(x, y)
			onRing := p.In(ring) && !p.In(inner)
			if onRing && c != (color.RGBA{255, 200, 0, 255}) || !onRing && c != grid.RGBAAt(x, y) {
				t.Fatalf("Esc: the grid at (%d, %d) is %v, before the pick %v (outline of tile 2: %v)", x, y, c, grid.RGBAAt(x, y), onRing)
			}
		}
	}
	// The labels: every pixel they change lies inside a tile, clear of its edges by the box's inset
	// (the picture's corners stay visible), and each tile has some.
	changed := make([]int, 4)
	for y := 0; y < 96; y++ {
		for x := 0; x < 128; x++ {
			if labelled.RGBAAt(x, y) == grid.RGBAAt(x, y) {
				continue
			}
			i := (y/48)*2 + x/64
			if p := image.Pt(x%64, y%48); !p.In(image.Rect(0, 0, 64, 48).Inset(wall.LabelInset)) {
				t.Fatalf("label pixel at (%d, %d): outside the box inset in tile %d", x, y, i+1)
			}
			changed[i]++
		}
	}
	for i, n := range changed {
		if n < 100 {
			t.Errorf("tile %d: the label changed %d pixels", i+1, n)
		}
	}
}

// lanczos3 scales img to w×h with Lanczos-3 (Turkowski 1990): a(x) = sinc(x)·sinc(x/3) for |x| < 3,
// rows then columns, output pixel i centred at source (i + ½)·in/out, weights normalised, source
// indices clamped to the picture; float64 throughout, rounded at the end.
func lanczos3(img *image.RGBA, w, h int) *image.RGBA {
	kernel := func(x float64) float64 {
		x = math.Abs(x)
		switch {
		case x >= 3:
			return 0
		case x < 1e-12:
			return 1
		}
		return 3 * math.Sin(math.Pi*x) * math.Sin(math.Pi*x/3) / (math.Pi * math.Pi * x * x)
	}
	type tap struct {
		i int
		w float64
	}
	taps := func(in, out int) [][]tap {
		step := float64(in) / float64(out)
		scale := math.Max(step, 1)
		res := make([][]tap, out)
		for i := range res {
			c := (float64(i) + 0.5) * step
			var sum float64
			for j := int(math.Floor(c-3*scale)) - 1; j <= int(math.Ceil(c+3*scale))+1; j++ {
				wt := kernel((float64(j) + 0.5 - c) / scale)
				if wt == 0 {
					continue
				}
				res[i] = append(res[i], tap{min(max(j, 0), in-1), wt})
				sum += wt
			}
			for k := range res[i] {
				res[i][k].w /= sum
			}
		}
		return res
	}
	sw, sh := img.Rect.Dx(), img.Rect.Dy()
	tx, ty := taps(sw, w), taps(sh, h)
	rows := make([][3]float64, w*sh)
	for y := 0; y < sh; y++ {
		for x := 0; x < w; x++ {
			for _, tp := range tx[x] {
				c := img.RGBAAt(tp.i, y)
				for k, v := range []uint8{c.R, c.G, c.B} {
					rows[y*w+x][k] += tp.w * float64(v)
				}
			}
		}
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var s [3]float64
			for _, tp := range ty[y] {
				for k := range s {
					s[k] += tp.w * rows[tp.i*w+x][k]
				}
			}
			q := func(v float64) uint8 { return uint8(math.Round(math.Min(math.Max(v, 0), 255))) }
			out.SetRGBA(x, y, color.RGBA{q(s[0]), q(s[1]), q(s[2]), 255})
		}
	}
	return out
}

// TestWindowLabels: the same wall in a 512×384 window (each tile shown at 4×), labels on, then off.
// Each tile's label box sits at the bottom centre of its picture (the corners stay visible); it
// shows its number and file name centred, and on the second line, cut to the tile's width, after
// the figure of pictures per second, its dropped pictures: every pixel a glyph of the font's own rasterizer (x/image/font's Drawer, Go
// Mono at the labels' size) covers fully is the text's white, every one it leaves empty inside the
// box is darkened by the box.
func TestWindowLabels(t *testing.T) {
	_, shots := windowRun(t, "512x384", [][]window.Key{{window.KeyS}, {window.KeyO, window.KeyS}, {window.KeyQuit}})
	if len(shots) != 2 {
		t.Fatalf("%d window screenshots, want 2", len(shots))
	}
	on, off := shots[0], shots[1]
	ft, err := opentype.Parse(gomono.TTF)
	if err != nil {
		t.Fatal(err)
	}
	face, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: wall.LabelPx, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		t.Fatal(err)
	}
	f, err := osd.NewFont(wall.LabelPx)
	if err != nil {
		t.Fatal(err)
	}
	adv := f.Width("0") // Go Mono: every glyph as wide
	l := wall.NewLayout(4, 64, 48)
	for i, v := range windowVectors {
		tile := l.Place(i, 64, 48)
		tile = image.Rect(tile.Min.X*4, tile.Min.Y*4, tile.Max.X*4, tile.Max.Y*4)
		// The box: what the labels changed in the tile, at its bottom centre, clear of the corners.
		var box image.Rectangle
		for y := tile.Min.Y; y < tile.Max.Y; y++ {
			for x := tile.Min.X; x < tile.Max.X; x++ {
				if on.RGBAAt(x, y) != off.RGBAAt(x, y) {
					box = box.Union(image.Rect(x, y, x+1, y+1))
				}
			}
		}
		if c := (box.Min.X + box.Max.X) / 2; box.Empty() || abs(c-(tile.Min.X+tile.Max.X)/2) > 1 ||
			box.Max.Y != tile.Max.Y-wall.LabelInset || box.Min.Y < tile.Min.Y+tile.Dy()/2 {
			t.Errorf("tile %d (%s): label box %v in the tile %v: want it at the bottom centre, %d pixels up", i+1, v, box, tile, wall.LabelInset)
			continue
		}
		// Line 1 centred; line 2 (centred, cut to the tile) from its fourth column after "N.N fps".
		name := fmt.Sprintf("%d %s.mkv", i+1, v)
		y0 := box.Min.Y + wall.LabelPad
		x2 := box.Min.X + wall.LabelPad
		lines := []struct {
			text string
			x, y int
		}{
			{name, (box.Min.X + box.Max.X - f.Width(name)) / 2, y0},
			{" fps · 0 dropped", x2 + 3*adv, y0 + f.LineHeight},
		}
		lit, dark, bad := 0, 0, 0
		for _, ln := range lines {
			cov := image.NewAlpha(on.Rect)
			d := font.Drawer{Dst: cov, Src: image.Opaque, Face: face, Dot: fixed.P(ln.x, ln.y+f.Ascent)}
			d.DrawString(ln.text)
			for y := ln.y; y < ln.y+f.LineHeight; y++ {
				for x := ln.x; x < ln.x+f.Width(ln.text); x++ {
					c, under := on.RGBAAt(x, y), off.RGBAAt(x, y)
					switch a := cov.AlphaAt(x, y).A; a {
					case 255:
						lit++
						if c.R != 255 || c.G != 255 || c.B != 255 {
							bad++
						}
					case 0:
						dark++
						// The box: 160/255 black over the picture.
						if want := float64(under.G) * (1 - 160.0/255); math.Abs(float64(c.G)-want) > 2 {
							bad++
						}
					}
				}
			}
		}
		if lit < 30 || bad > lit/50 {
			t.Errorf("tile %d (%s): %d full-coverage glyph pixels, %d empty ones; %d wrong", i+1, v, lit, dark, bad)
		}
	}
}

// TestPicker: the keys that pick tiles, on a grid of 3 columns and 7 tiles (rows 1 2 3 / 4 5 6 / 7).
func TestPicker(t *testing.T) {
	for _, c := range []struct {
		keys         []window.Key
		tile, cursor int
	}{
		{nil, -1, -1},
		{[]window.Key{window.Key5}, 4, 4},
		{[]window.Key{window.Key8}, -1, -1}, // no tile 8
		{[]window.Key{window.Key5, window.KeyEscape}, -1, 4},
		{[]window.Key{window.Key5, window.Key0}, -1, 4},
		{[]window.Key{window.KeyTab}, 0, 0},
		{[]window.Key{window.Key7, window.KeyTab}, 0, 0}, // wraps
		{[]window.Key{window.Key3, window.KeyTab}, 3, 3},
		{[]window.Key{window.KeyRight}, -1, 0}, // the first arrow outlines tile 1
		{[]window.Key{window.KeyRight, window.KeyRight, window.KeyDown}, -1, 4},
		{[]window.Key{window.KeyRight, window.KeyRight, window.KeyDown, window.KeyNext}, 4, 4},
		{[]window.Key{window.Key3, window.KeyRight}, 2, 2},                // no column 4
		{[]window.Key{window.Key3, window.KeyDown, window.KeyDown}, 5, 5}, // no tile below 6
		{[]window.Key{window.Key7, window.KeyUp, window.KeyRight}, 4, 4},
		{[]window.Key{window.Key2, window.KeyEscape, window.KeyTab}, 1, 1},
		{[]window.Key{window.KeyNext}, 0, 0},
	} {
		p := newPicker(7, 3)
		for _, k := range c.keys {
			p.key(k)
		}
		if p.tile != c.tile || p.cursor != c.cursor {
			t.Errorf("%v: tile %d, outline %d; want %d, %d", c.keys, p.tile, p.cursor, c.tile, c.cursor)
		}
	}
}

// TestWindowResize: the window of the grid (128×96) made 200×100 and then 96×160 while it shows:
// the swapchain is made again (under validation) and the grid letterboxed into it, its aspect
// kept, black around; the window's close button then ends the program (exit 0).
func TestWindowResize(t *testing.T) {
	sizes := [][2]int{{200, 100}, {96, 160}}
	k, asked, since := 0, false, 0
	_, shots := windowRunWith(t, "128x96", func(win *window.Window, i int) []window.Key {
		// Per size: resize; once the window has the size, two more steps (the step that sees the
		// resize makes the swapchain again), then a shot.
		switch {
		case k == len(sizes) || i > 600: // done, or 10 s without the size asked for
			win.Close()
		case !asked:
			win.SetSize(sizes[k][0], sizes[k][1])
			asked, since = true, 0
		default:
			if w, h := win.Size(); w != sizes[k][0] || h != sizes[k][1] {
				return nil
			}
			if since++; since == 3 {
				k, asked = k+1, false
				return []window.Key{window.KeyS}
			}
		}
		return nil
	})
	if len(shots) != len(sizes) {
		t.Fatalf("%d window screenshots, want %d", len(shots), len(sizes))
	}
	for k, img := range shots {
		w, h := sizes[k][0], sizes[k][1]
		if img.Rect.Dx() != w || img.Rect.Dy() != h {
			t.Errorf("window %d×%d: screenshot %v", w, h, img.Rect)
			continue
		}
		// The 4:3 grid fitted: 133×100 centred in 200×100, 96×72 centred in 96×160.
		box := image.Rect(33, 0, 166, 100)
		if k == 1 {
			box = image.Rect(0, 44, 96, 116)
		}
		black, picture := 0, 0
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				c := img.RGBAAt(x, y)
				in := image.Pt(x, y).In(box)
				switch {
				case !in && (c.R != 0 || c.G != 0 || c.B != 0):
					t.Fatalf("window %d×%d: (%d, %d) outside the picture %v is %v, not black", w, h, x, y, box, c)
				case !in:
					black++
				case c.R|c.G|c.B != 0:
					picture++
				}
			}
		}
		if picture < box.Dx()*box.Dy()/2 {
			t.Errorf("window %d×%d: %d lit pixels in the picture's %v", w, h, picture, box)
		}
		t.Logf("window %d×%d: picture %v, %d black pixels around", w, h, box, black)
	}
}

// TestWindowUntimedPause: -untimed in a window, paused by space before the first step: after 20
// paused steps (a third of a second; the decoders have their pictures by then) the window still
// shows the empty canvas, black; space again plays both copies to their end (all 5 pictures each)
// and the program quits by itself (exit 0).
func TestWindowUntimedPause(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	dir := t.TempDir()
	clip, err := filepath.Abs(filepath.Join(mediaDir, "yuv420p_left.mkv"))
	if err != nil {
		t.Fatal(err)
	}
	keyScript = func(n int, ended bool, _ *window.Window) []window.Key {
		switch n {
		case 1:
			return []window.Key{window.KeySpace}
		case 20:
			return []window.Key{window.KeyS} // the shot of this step, still paused
		case 21:
			return []window.Key{window.KeySpace}
		}
		return nil
	}
	t.Cleanup(func() { keyScript = nil })
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	var o, e bytes.Buffer
	code := run([]string{"-untimed", "-validate", "-stats", "-labels=false", "-n", "2", clip}, &o, &e)
	if err := os.Chdir(wd); err != nil {
		t.Fatal(err)
	}
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e.String())
	}
	var st wall.Stats
	if err := json.Unmarshal(o.Bytes(), &st); err != nil {
		t.Fatalf("-stats: %v: %q", err, o.String())
	}
	if st.Frames != 10 {
		t.Errorf("%d pictures shown, want 2 × 5", st.Frames)
	}
	// The window (128×64) shows the 128×48 canvas from y = 8; the first tile's half (the paused sign
	// is at the bottom right) must be black.
	shot := toRGBA(pictest.ReadPNG(t, filepath.Join(dir, "ycbcrwall-0001.png")))
	for y := 0; y < shot.Rect.Dy(); y++ {
		for x := 0; x < 64; x++ {
			if c := shot.RGBAAt(x, y); c.R|c.G|c.B != 0 {
				t.Fatalf("paused before the first step, the window shows a picture: (%d, %d) is %v", x, y, c)
			}
		}
	}
}

func abs(x int) int { return max(x, -x) }

// TestWindowClick: a click on the grid (128×96, tiles of 64×48) shows the tile under the pointer
// alone, as its number key does, bit for bit; a click on the tile alone goes back to the grid.
func TestWindowClick(t *testing.T) {
	_, shots := windowRunWith(t, "128x96", func(win *window.Window, i int) []window.Key {
		switch i {
		case 0: // labels off: their figures change from step to step
			win.Click(20, 70) // tile 3: the bottom left
			return []window.Key{window.KeyO}
		case 2:
			win.Click(100, 10)
		case 1, 3:
			return []window.Key{window.KeyS}
		case 4:
			return []window.Key{window.KeyEscape, window.Key3, window.KeyS}
		case 5:
			return []window.Key{window.KeyEscape, window.KeyS}
		default:
			return []window.Key{window.KeyQuit}
		}
		return nil
	})
	if len(shots) != 4 {
		t.Fatalf("%d window screenshots, want 4", len(shots))
	}
	clicked, back, key3, grid := shots[0], shots[1], shots[2], shots[3]
	if d := pictest.MaxDiff(t, clicked, key3); d != 0 {
		t.Errorf("a click on tile 3 differs from the 3 key's view by %.0f LSB", d)
	}
	if d := pictest.MaxDiff(t, back, grid); d != 0 {
		t.Errorf("a click on the tile alone: %.0f LSB from the grid, want the grid back", d)
	}
	if d := pictest.MaxDiff(t, clicked, grid); d == 0 {
		t.Error("the click on tile 3 left the grid")
	}
}

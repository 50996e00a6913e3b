package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/app/picfile"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/wall"
)

// keyScript, if set, gives keys to press at display step n (from 1), as if pressed on the window
// before that step draws; ended says every stream has ended. Tests drive the window with it (and
// resize, click or close it).
var keyScript func(n int, ended bool, win *window.Window) []window.Key

// windowSize is the window's size for a cw×ch canvas: -geometry's, else the canvas's, shrunk to at
// most 1280×1024 with its aspect kept, and at least 64 each way.
func windowSize(cw, ch int, geometry [2]int) (int, int) {
	if geometry[0] > 0 {
		return geometry[0], geometry[1]
	}
	w, h := cw, ch
	if w > 1280 {
		w, h = 1280, max(1, h*1280/w)
	}
	if h > 1024 {
		w, h = max(1, w*1024/h), 1024
	}
	return max(w, 64), max(h, 64)
}

// show plays the wall in a window until every stream has ended (with -keep-open, until q), q, the
// window's close button, SIGINT or SIGTERM. Each display step draws what the streams have (timed:
// what their clocks have reached, a step per vsync (pacer); untimed: whatever was decoded since) and
// presents the grid or the picked tile, whose sound plays (sound.go).
func show(w *wall.Wall, dev *gpu.Device, o options, notice func(string), stderr io.Writer) error {
	defer w.LockSteps()() // the main thread (GLFW's), off the GPU's interrupts' CPUs
	cw, ch := w.Layout.Size()
	ww, wh := windowSize(cw, ch, o.geometry)
	win, swap, err := present.OpenWindow(dev, present.WindowParams{Title: fmt.Sprintf("%d videos — ycbcrwall", w.Len()),
		Width: ww, Height: wh, Fullscreen: o.fullscreen, Swapchain: present.SwapchainOptions{Immediate: o.untimed}})
	if err != nil {
		return err
	}
	defer win.Destroy()
	defer swap.Destroy()
	disp, err := wall.NewDisplay(w)
	if err != nil {
		return err
	}
	defer disp.Close()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	tick := time.NewTicker(time.Duration(float64(time.Second) / o.fps))
	defer tick.Stop()
	pk := newPicker(w.Len(), w.Layout.Cols)
	var snd *sound // the picked tile's sound: timed, unless -no-audio
	if !o.noAudio && !o.untimed {
		snd = newSound(w, o, notice)
		defer snd.close()
	}
	var pace pacer
	labels := o.labels
	// The empty grid first: the window shows at once, and the display's pipelines are made before
	// any stream's clock starts.
	if err := present1(disp, win, swap, wall.View{Tile: -1, Cursor: -1, Labels: labels, Filter: o.filter}, false, stderr); err != nil {
		return err
	}
	for n := 1; ; n++ {
		select {
		case <-sig:
			return nil
		default:
		}
		keys := win.Poll()
		if keyScript != nil {
			keys = append(keys, keyScript(n, w.Ended(), win)...)
		}
		for _, c := range win.Clicks() { // a click picks the tile under it, and on a tile alone goes back
			if pk.tile >= 0 {
				pk.key(window.KeyEscape)
			} else if i := disp.TileAt(c.X, c.Y, swap.Width, swap.Height); i >= 0 {
				pk.tile, pk.cursor = i, i
			}
		}
		shoot := false
		for _, k := range keys {
			switch k {
			case window.KeyQuit:
				return nil
			case window.KeySpace:
				w.SetPaused(!w.Paused(), time.Now())
			case window.KeyO:
				labels = !labels
			case window.KeyS:
				shoot = true
			case window.KeyF:
				win.ToggleFullscreen()
			default:
				pk.key(k)
			}
		}
		if !w.Paused() && !w.Ended() {
			if o.untimed {
				_, err = w.Step()
			} else {
				_, err = w.Tick(time.Now())
			}
			if err != nil {
				return err
			}
		}
		v := wall.View{Tile: pk.tile, Cursor: pk.cursor, Labels: labels, Paused: w.Paused(), Filter: o.filter}
		if snd != nil {
			v.Note = snd.follow(pk.tile, w.Paused(), time.Now())
		}
		if err := present1(disp, win, swap, v, shoot, stderr); err != nil {
			return err
		}
		if w.Ended() && !o.keepOpen {
			return nil
		}
		switch {
		case w.Paused() || w.Ended():
			<-tick.C
		case !o.untimed:
			pace.step(w)
		}
	}
}

// pacer paces a timed window's steps by the display: FIFO presentation blocks each step until
// vsync gives an image back, so the steps run at the display's rate; the wall's Period (which
// picture a step shows) follows the measured interval between steps. Where presentation does not
// block (no compositor, a virtual X server) it keeps at least minStep between steps.
type pacer struct {
	last   time.Time
	period time.Duration // the measured step interval, smoothed
}

// minStep bounds the steps of a window whose presentation does not wait for vsync (240 a second).
const minStep = time.Second / 240

func (p *pacer) step(w *wall.Wall) {
	now := time.Now()
	if !p.last.IsZero() {
		if d := now.Sub(p.last); d < minStep {
			time.Sleep(minStep - d)
			now = time.Now()
		}
		d := now.Sub(p.last)
		if d < 200*time.Millisecond { // not a stall (a resize, a hidden window)
			if p.period == 0 {
				p.period = d
			}
			p.period += (d - p.period) / 8
			w.SetPeriod(p.period)
		}
	}
	p.last = now
}

// present1 presents v once, making the swapchain again when the window's size changed; while the
// window is minimised nothing is drawn. With shoot the image presented is written as
// ycbcrwall-NNNN.png.
func present1(disp *wall.Display, win *window.Window, swap *present.Swapchain, v wall.View, shoot bool, stderr io.Writer) error {
	for attempt := 0; attempt < 2; attempt++ {
		if win.Resized() || swap.Suboptimal || attempt > 0 {
			if err := disp.Drain(); err != nil {
				return err
			}
			fw, fh := win.Size()
			if err := swap.Recreate(fw, fh); err != nil {
				return err
			}
		}
		if swap.Width == 0 || swap.Height == 0 {
			return nil
		}
		img, err := disp.Present(swap, v, shoot)
		if errors.Is(err, present.ErrOutOfDate) {
			continue
		}
		if err != nil || !shoot {
			return err
		}
		name, err := freeName("ycbcrwall-%04d.png")
		if err == nil {
			err = picfile.Write(name, img)
		}
		if err != nil {
			return fmt.Errorf("screenshot: %w", err)
		}
		fmt.Fprintf(stderr, "screenshot: %s\n", name)
		return nil
	}
	return nil
}

// freeName is pattern with the first number from 1 that names no file yet.
func freeName(pattern string) (string, error) {
	for i := 1; i < 10000; i++ {
		name := fmt.Sprintf(pattern, i)
		if _, err := os.Lstat(name); errors.Is(err, os.ErrNotExist) {
			return name, nil
		}
	}
	return "", fmt.Errorf("no free name of the form %s", pattern)
}

// picker is which tile the window shows alone, if any, and which the grid outlines, moved by keys.
type picker struct {
	n, cols int
	tile    int // the tile shown alone; -1: the grid
	cursor  int // the tile outlined on the grid; -1: none
}

func newPicker(n, cols int) *picker { return &picker{n: n, cols: max(cols, 1), tile: -1, cursor: -1} }

// digits are the keys that pick the first nine tiles.
var digits = map[window.Key]int{window.Key1: 0, window.Key2: 1, window.Key3: 2, window.Key4: 3, window.Key5: 4,
	window.Key6: 5, window.Key7: 6, window.Key8: 7, window.Key9: 8}

// key moves the picker for k: a digit picks its tile (when there is one), Tab the next tile, an
// arrow moves to the neighbouring tile on the grid (the picked one, or the outline), Enter picks
// the outlined tile, Esc and 0 go back to the grid with the tile last shown outlined.
func (p *picker) key(k window.Key) {
	if i, ok := digits[k]; ok {
		if i < p.n {
			p.tile, p.cursor = i, i
		}
		return
	}
	switch k {
	case window.KeyEscape, window.Key0:
		p.tile = -1
	case window.KeyTab:
		switch {
		case p.tile >= 0:
			p.tile = (p.tile + 1) % p.n
		case p.cursor >= 0:
			p.tile = p.cursor
		default:
			p.tile = 0
		}
		p.cursor = p.tile
	case window.KeyNext: // Enter
		if p.tile < 0 {
			p.tile = max(p.cursor, 0)
			p.cursor = p.tile
		}
	case window.KeyLeft, window.KeyRight, window.KeyUp, window.KeyDown:
		at := p.tile
		if at < 0 {
			at = p.cursor
		}
		if at < 0 { // the first arrow on the grid outlines the first tile
			p.cursor = 0
			return
		}
		col, row := at%p.cols, at/p.cols
		switch k {
		case window.KeyLeft:
			col--
		case window.KeyRight:
			col++
		case window.KeyUp:
			row--
		case window.KeyDown:
			row++
		}
		if i := row*p.cols + col; col >= 0 && col < p.cols && row >= 0 && i < p.n {
			at = i
		}
		p.cursor = at
		if p.tile >= 0 {
			p.tile = at
		}
	}
}

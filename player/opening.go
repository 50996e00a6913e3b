package player

import (
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/subtitle"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Input is what an Opener opens: the source, the sound it plays to (Config.Sound; no Clock
// without sound) and its subtitles (nil: none).
type Input struct {
	Source    Source
	Sound     SoundConfig
	Subtitles *subtitle.Subtitles
}

// Opener opens an input. It must end soon (issue 18: within a second) once stop is closed, with an
// error or with an Input, as FFmpeg's interrupt callback ends a blocked open or probe
// (decode.Options.Stop). stop is closed only while the Opener runs: never once it has returned.
type Opener func(stop <-chan struct{}) (Input, error)

// OpeningWidth and OpeningHeight are the window's size while the input opens, when Config sets none (-geometry).
const OpeningWidth, OpeningHeight = 640, 360

// openGrace is how long a cancelled Opener may take to return before the player ends without it.
var openGrace = time.Second

// PlayOpening plays the input that open opens, as Play does. Headless, open runs first, as a
// program would before Play. In a window, the device and the window (OpeningWidth×OpeningHeight, or
// Config's size) open while open runs on its own goroutine, and the window shows "opening NAME…"
// and is polled meanwhile: q, Esc and closing the window end the wait (EndQuit), Enter, > and < skip
// the input (EndNext, EndPrev), and so does Config.Hooks.Stop (EndQuit); stop is then closed, and the
// Stats say Opened false. A slow or stalled input (a FIFO whose writer stalled, a network URL)
// thus never holds a window that does not answer. The window takes the video's size at the first
// frame, by the rules Play's window is opened with.
//
// An Opener that does not return within a second of being cancelled is left running (its Input, if
// it ever comes, is not closed): the caller then must not free what it uses.
func PlayOpening(name string, open Opener, cfg Config) (*Stats, error) {
	p := newPlayer(cfg)
	return p.end(p.playOpening(name, open))
}

type opened struct {
	in  Input
	err error
}

// runOpener runs open with a stop that closes when cancel or Config.Hooks.Stop does, until open returns.
func (p *Player) runOpener(open Opener, cancel <-chan struct{}) (Input, error) {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		select {
		case <-cancel:
			close(stop)
		case <-p.cfg.Hooks.Stop: // nil: never
			close(stop)
		case <-done:
		}
	}()
	defer close(done)
	return open(stop)
}

// use takes in as the player's source.
func (p *Player) use(in Input) {
	p.src, p.stats.Opened = in.Source, true
	if in.Sound.Clock != nil {
		p.cfg.Sound = in.Sound
	}
	p.cfg.Subtitles.Source = in.Subtitles
}

func (p *Player) playOpening(name string, open Opener) error {
	if p.cfg.Output.Headless {
		in, err := p.runOpener(open, nil)
		if err != nil {
			return err
		}
		p.use(in)
		// Play's figures begin once the input is open, as when a program opens it before Play.
		p.start = time.Now()
		p.pipes0, p.pipeTime0 = vkx.PipelineTime()
		return p.play()
	}
	// The input opens while the device and the window are made (both are start-up costs of the
	// first picture), and the window is polled until it has opened.
	res := make(chan opened, 1)
	cancel := make(chan struct{})
	go func() {
		in, err := p.runOpener(open, cancel)
		res <- opened{in, err}
	}()
	// abandon cancels the open and waits for it a while; a source that opened meanwhile is closed.
	abandon := func() {
		close(cancel)
		select {
		case r := <-res:
			if r.in.Source != nil {
				r.in.Source.Close()
			}
		case <-time.After(openGrace):
			p.logf("notice: %s: the input's open did not end within %v of the quit; leaving it", name, openGrace)
		}
	}
	w, h := OpeningWidth, OpeningHeight
	if p.cfg.Output.Width > 0 && p.cfg.Output.Height > 0 {
		w, h = p.cfg.Output.Width, p.cfg.Output.Height
	}
	if err := p.open(); err != nil {
		abandon()
		return err
	}
	if err := p.openWindow(name, w, h); err != nil {
		abandon()
		return err
	}
	r, ok, err := p.waitOpen(name, res)
	if err != nil || !ok {
		abandon()
		return err
	}
	if r.err != nil {
		return r.err
	}
	p.use(r.in)
	if n := p.src.Info().Name; n != name {
		p.win.SetTitle(p.title(n))
	}
	return p.play()
}

// waitOpen shows "opening NAME…" and polls the window until the input has opened (ok), or the user
// or Config.Hooks.Stop ended the wait (not ok; Stats.End says how).
func (p *Player) waitOpen(name string, res <-chan opened) (opened, bool, error) {
	shown := time.Now()
	var drawn time.Time
	for {
		select {
		case r := <-res:
			return r, true, nil
		case <-p.cfg.Hooks.Stop:
			p.stats.End = EndQuit
			return opened{}, false, nil
		default:
		}
		for _, k := range p.win.Poll() {
			switch c := keyCommands[k].(type) {
			case Quit, Skip: // the keys that end the wait; the others wait for the picture
				p.do(c)
				return opened{}, false, nil
			}
		}
		// Drawn again now and then: a window uncovered or resized meanwhile shows the message again.
		if time.Since(drawn) > 100*time.Millisecond {
			if err := p.drawOpening(name); err != nil {
				return opened{}, false, err
			}
			drawn = time.Now()
		}
		if p.cfg.Hooks.OnOpening != nil {
			p.cfg.Hooks.OnOpening(p, time.Since(shown))
		}
		select {
		case r := <-res:
			return r, true, nil
		case <-p.cfg.Hooks.Stop:
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// drawOpening draws a black window with "opening NAME…" in its middle.
func (p *Player) drawOpening(name string) error {
	if w, h := p.win.Size(); w == 0 || h == 0 {
		return nil // minimised: nothing to draw into
	}
	return p.toSwapchain(func(t swapchainTarget) error {
		return p.rend.DrawOverlay(t, func(cb vk.CommandBuffer, slot int, t ycbcr.Target, w, h int) error {
			c := &p.osd.canvas
			c.Reset()
			line := c.Font.Fit([]string{"opening " + name + "…"}, max(w-2*osdMargin-16, 16))
			lw, lh := c.Font.Width(line[0])+16, c.Font.LineHeight+16
			c.Panel(max(0, (w-lw)/2), max(0, (h-lh)/2), 8, line, osdText, osdBox)
			return p.osd.pass.Draw(cb, slot, t, w, h, c.Quads)
		})
	})
}

// resizeWindow gives PlayOpening's window the video's size (kept for leaving the full screen when on
// it; -geometry's size stays as it is) and makes the swapchain again at the new size.
func (p *Player) resizeWindow(ww, wh int) error {
	if p.cfg.Output.Width > 0 && p.cfg.Output.Height > 0 {
		return nil
	}
	p.win.SetSize(ww, wh)
	if p.win.Fullscreen() {
		return nil
	}
	// A window manager may apply the size a little later: wait for it briefly, so that the first
	// picture is drawn at the size it will have. The FramebufferSize event that follows recreates the
	// swapchain at the next frame in any case.
	for deadline := time.Now().Add(100 * time.Millisecond); time.Now().Before(deadline); {
		if w, h := p.win.Size(); w == ww && h == wh {
			break
		}
		for _, k := range p.win.Poll() {
			p.win.Press(k) // for the playback loop
		}
		time.Sleep(5 * time.Millisecond)
	}
	return p.recreate()
}

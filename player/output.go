package player

import (
	"errors"
	"fmt"
	"time"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/present/osd"
)

// openOutput creates the window and swapchain, or the offscreen target, for the first frame's size;
// PlayOpening's window, open already, is resized to it.
func (p *Player) openOutput(f *Frame) error {
	p.sized = true
	// A picture the device cannot hold ends here, at once, naming the limit.
	if err := p.dev.CheckImageSize(f.Picture.Width, f.Picture.Height); err != nil {
		return err
	}
	w, h := p.orientation(f).DisplaySize(f.Picture.Width, f.Picture.Height)
	if p.cfg.Output.Width > 0 && p.cfg.Output.Height > 0 {
		w, h = p.cfg.Output.Width, p.cfg.Output.Height
	}
	if p.cfg.Output.Headless {
		// With STORAGE usage where the device allows it, for the scale pass to write the target from
		// compute (no fragment shader: docs/scaling.md).
		newTarget := p.dev.NewOffscreen
		if p.dev.StorageFormat(gpu.TargetFormat) {
			newTarget = p.dev.NewStorageOffscreen
		}
		var err error
		p.off, err = newTarget(w, h)
		return err
	}
	// A window of the display size (aspect applied to the width, the picture turned), no larger than
	// 1280 wide or 1024 high; -geometry's size as asked.
	ww, wh := p.orientation(f).DisplaySize(int(float64(f.Picture.Height)*f.aspect()+0.5), f.Picture.Height)
	if ww > 1280 {
		wh = wh * 1280 / ww
		ww = 1280
	}
	if wh > 1024 {
		ww = ww * 1024 / wh
		wh = 1024
	}
	if p.cfg.Output.Width > 0 && p.cfg.Output.Height > 0 {
		ww, wh = p.cfg.Output.Width, p.cfg.Output.Height
	}
	ww, wh = max(ww, 64), max(wh, 64)
	if p.win != nil {
		return p.resizeWindow(ww, wh)
	}
	return p.openWindow(p.src.Info().Name, ww, wh)
}

// openWindow opens the window, its on-screen display and its swapchain.
func (p *Player) openWindow(name string, ww, wh int) error {
	var err error
	if p.win, p.swap, err = present.OpenWindow(p.dev, present.WindowParams{Title: p.title(name), Width: ww, Height: wh,
		Fullscreen: p.cfg.Output.Fullscreen,
		Swapchain:  present.SwapchainOptions{Immediate: p.cfg.Playback.Untimed, HDR10: p.cfg.Colour.HDROutput}}); err != nil {
		if p.cfg.Colour.HDROutput {
			return fmt.Errorf("-hdr-output: %w", err)
		}
		return err
	}
	if p.osd.pass, err = osd.NewPass(p.dev, osdFontPx, framesInFlight); err != nil {
		return err
	}
	p.osd.canvas.Font = p.osd.pass.Font
	if p.osd.subs, err = osd.NewImagePass(p.dev, framesInFlight); err != nil {
		return err
	}
	p.rend.Overlay = p.drawOSD
	p.displayProfile()
	for range p.swap.Images {
		s, err := p.dev.NewSemaphore()
		if err != nil {
			return err
		}
		p.done = append(p.done, s)
	}
	return nil
}

// present draws f into the output (creating it on the first frame) and presents it. An error
// names the stream's own pixel format where the picture is in another layout (a yuv420p stream
// decoded by Vulkan Video into nv12): the user knows the stream, not the layout it was drawn from.
func (p *Player) present(f *Frame) error {
	err := p.presentPicture(f)
	if err != nil && f.SourceFormat != "" && f.SourceFormat != f.Picture.Format.Name {
		return fmt.Errorf("%s stream, drawn from %s: %w", f.SourceFormat, f.Picture.Format.Name, err)
	}
	return err
}

func (p *Player) presentPicture(f *Frame) error {
	if !p.sized {
		t := time.Now()
		if err := p.openOutput(f); err != nil {
			return err
		}
		p.stats.Startup.Output = msOf(time.Since(t))
	}
	if p.stats.FramesPresented == 0 && p.stats.Startup.FirstDraw == 0 {
		defer func(t time.Time) { p.stats.Startup.FirstDraw = msOf(time.Since(t)) }(time.Now())
	}
	prm := p.params(f.Color)
	prm.Dither = p.cfg.Quality.Dither.For(f.Picture.Format, prm, p.cfg.Quality.debands(f.Picture.Format))
	p.rend.Orient = p.orientation(f)
	if p.off != nil {
		return p.rend.Draw(f, prm, offscreenTarget{p.off})
	}
	// The stream's mastering display and content light levels go to an HDR10 display
	// (VK_EXT_hdr_metadata) before the first picture that carries them is presented; a swapchain made
	// again re-sends them (present.Swapchain.Recreate).
	if err := p.swap.SetHDRMetadata(prm.HDR); err != nil {
		return err
	}
	p.stats.HDRDisplayMetadata = p.swap.HDRMetadataNote
	return p.toSwapchain(func(t swapchainTarget) error { return p.rend.Draw(f, prm, t) })
}

// toSwapchain acquires a swapchain image, has draw record and submit into it (its target waits on
// the acquisition and signals the presentation's semaphore), and presents it; the swapchain is made again when it is out of date.
func (p *Player) toSwapchain(draw func(t swapchainTarget) error) error {
	if p.win.Resized() || p.swap.Suboptimal {
		if err := p.recreate(); err != nil {
			return err
		}
	}
	for attempt := 0; ; attempt++ {
		if err := p.rend.WaitNextSlot(); err != nil {
			return err
		}
		sem := p.rend.AcquireSemaphore()
		idx, err := p.swap.Acquire(sem)
		if errors.Is(err, present.ErrOutOfDate) {
			if w, h := p.win.Size(); w == 0 || h == 0 { // minimised: nothing to draw into
				time.Sleep(20 * time.Millisecond)
				p.win.Poll()
				if attempt > 500 {
					return nil
				}
			}
			if err := p.recreate(); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		if err := draw(swapchainTarget{p.swap, idx, sem, p.done[idx]}); err != nil {
			return err
		}
		err = p.swap.Present(idx, p.done[idx])
		if errors.Is(err, present.ErrOutOfDate) {
			return p.recreate()
		}
		return err
	}
}

func (p *Player) recreate() error {
	w, h := p.win.Size()
	if err := p.rend.Drain(); err != nil { // the frames in flight draw into the old images
		return err
	}
	if err := p.swap.Recreate(w, h); err != nil {
		return err
	}
	for len(p.done) < len(p.swap.Images) {
		s, err := p.dev.NewSemaphore()
		if err != nil {
			return err
		}
		p.done = append(p.done, s)
	}
	return nil
}

// orientation is how f is turned for display: -rotate, or the stream's display matrix.
func (p *Player) orientation(f *Frame) formats.Orientation {
	if p.cfg.View.Rotate != nil {
		return formats.Orientation{Rotate: *p.cfg.View.Rotate % 4}
	}
	return f.Orient
}

// rotationName is the orientation of f and whence, for -stats and the info line.
func (p *Player) rotationName(f *Frame) string {
	if p.cfg.View.Rotate != nil {
		return p.orientation(f).String() + " (-rotate)"
	}
	return f.Orient.String() + " (auto: the stream's display matrix)"
}

// title is the window's title for the input name: Config.Output.Title, else the name and the program's.
func (p *Player) title(name string) string {
	if p.cfg.Output.Title != "" {
		return p.cfg.Output.Title
	}
	return name + " — ycbcrplay"
}

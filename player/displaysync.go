package player

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"strings"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Display-synced playback (Config.Playback.VideoSync display-resample, or a TScale): the loop is
// driven by display refreshes rather than by frame times. Each frame is converted once into a
// picture of the output's size; each refresh then draws the blend pass (ycbcr.Blend) of the frame
// its time is in and the next one into the output, with the next one's weight from the TScale
// (0 without blending). So the refreshes of a frame are drawn once the next frame is decoded and
// converted (both are known), and the last frame's at the end.

// Refresh is what the display showed at one refresh, for Hooks.OnRefresh.
type Refresh struct {
	N      int64   // refreshes since the start (or the last seek)
	Time   float64 // the video time it shows
	Before float64 // PTS of the earlier frame shown
	After  float64 // PTS of the later one (Before when none)
	Weight float64 // the later frame's weight
	// Picture is what was presented, read back: headless only (the offscreen target), nil in a window.
	Picture *image.RGBA
}

// DisplaySyncStats is -stats' "display_sync".
type DisplaySyncStats struct {
	Mode          string  `json:"mode"`
	DisplayFPS    float64 `json:"display_fps"`
	DisplayFrom   string  `json:"display_fps_from"`
	Interpolation string  `json:"interpolation"`
	// VideoSpeed is the video's speed on this display (1: the frame rate fits as it is); AudioSpeed*
	// the sound's, with the correction of the A/V offset (nothing without sound).
	VideoSpeed        float64 `json:"video_speed"`
	AudioSpeedMin     float64 `json:"audio_speed_min,omitempty"`
	AudioSpeedMax     float64 `json:"audio_speed_max,omitempty"`
	AudioSpeedChanges int     `json:"audio_speed_changes"`
	Refreshes         int64   `json:"refreshes"`
	// RefreshesPerFrame is the mean over the frames shown; Cadence the first frames' counts.
	RefreshesPerFrame float64 `json:"refreshes_per_frame"`
	Cadence           string  `json:"cadence"`
	// Skipped counts the refreshes that went by without a new picture because drawing was late (the
	// device or the decoder was too slow): the picture before stayed on; Late the stalls of more
	// than a second, after which the display's timeline started again.
	Skipped int64 `json:"skipped_refreshes"`
	// Resyncs counts the times the refreshes were moved to meet the sound at once: once at the
	// start when the offset is over half a refresh, and whenever it is over 100 ms.
	Resyncs int `json:"resyncs"`
	Late    int `json:"stalls"`
}

// resyncAfter is the offset measurement at which the start's offset is taken up at once.
const resyncAfter = 24

// speedControl is what a Clock that plays sound offers for resampling (audio.Output.SetSpeed).
type speedControl interface {
	SetSpeed(ratio float64) error
}

// display is display-synced playback's state.
type displaySync struct {
	on     bool
	tscale TScale
	clock  displayClock
	from   string
	// cur is the frame the next refreshes start in, next the one after it (nil until decoded); pics
	// hold their converted pictures (pics[icur], pics[inext]); curShown: cur had a refresh (p.last
	// holds it then). gen is the decoder's generation of cur.
	cur, next  *Frame
	icur       int
	curShown   bool
	gen        int
	pics       [3]*gpu.Offscreen
	pairs      map[[2]int]*ycbcr.Binding
	blend      *ycbcr.Blend
	picW, picH int
	// The wall clock of refreshes (none when untimed): refresh n0 was due at wall. measured counts
	// the A/V offsets measured since the timeline started; lastOff is the last one (after its
	// resync).
	wall      time.Time
	n0        int64
	measured  int
	startOffs []float64
	lastOff   float64
	// Figures.
	stats      DisplaySyncStats
	perFrame   []int
	curCount   int
	audioSpeed float64
}

// errDisplayStop: playback ends (the user quit, or Config.Playback.Frames were presented) while
// refreshes were being drawn.
var errDisplayStop = errors.New("player: display: stop")

// newDisplay says whether playback is display-synced; the display's rate is settled once the
// output exists (displayRate).
func (p *Player) newDisplay() {
	pb := p.cfg.Playback
	p.disp = displaySync{on: pb.VideoSync == SyncDisplayResample || pb.TScale != TScaleOff, tscale: pb.TScale, gen: -1}
}

// displayRate settles the display's refresh rate: -display-fps, the window's monitor, or 60 Hz
// (headless, said in a notice); and the video's speed on it.
func (p *Player) displayRate() {
	d := &p.disp
	fps, from := p.cfg.Playback.DisplayFPS, "-display-fps"
	if fps <= 0 && p.win != nil {
		if r := p.win.RefreshRate(); r > 0 {
			fps, from = r, "the monitor"
		}
	}
	if fps <= 0 {
		fps, from = 60, "assumed (no -display-fps, no monitor)"
		p.logf("notice: -video-sync display-resample: the display's refresh rate is unknown; assuming 60 Hz (-display-fps N)")
	}
	frameDur := p.pace.frameDur
	speed, ok := fitSpeed(1/fps, frameDur, MaxVideoChange)
	if !ok {
		p.logf("notice: -video-sync display-resample: %.3f fps does not fit %.3f Hz within %.0f %%: frames follow their own times", 1/frameDur, fps, MaxVideoChange*100)
	}
	d.clock.vsync, d.clock.speed, d.audioSpeed = 1/fps, speed, speed
	d.stats = DisplaySyncStats{Mode: SyncDisplayResample.String(), DisplayFPS: fps, DisplayFrom: from,
		Interpolation: d.tscale.String(), VideoSpeed: math.Round(speed*1e6) / 1e6}
}

// displayFrame takes the next decoded frame of generation gen: the first since the start or a seek
// starts the timeline at its PTS; otherwise the refreshes of the current frame are drawn.
func (p *Player) displayFrame(f *Frame, gen int) error {
	d := &p.disp
	if d.cur != nil && gen == d.gen && f.PTS > d.cur.PTS {
		if err := p.convertInto(f, d.inext()); err != nil {
			f.release()
			return err
		}
		d.next = f
		return p.displayUntil(f.PTS)
	}
	// A new timeline: the start, a seek, a loop, a timestamp going back, a step while paused.
	p.dropCurrent()
	d.gen, d.icur = gen, 0
	if err := p.convertInto(f, 0); err != nil {
		f.release()
		return err
	}
	d.cur, d.curShown, d.curCount = f, false, 0
	d.clock.origin, d.clock.n = f.PTS, 0
	d.clock.restart()
	d.wall, d.n0, d.measured, d.startOffs, d.lastOff = time.Time{}, 0, 0, nil, 0
	return nil
}

// displayEnd draws the last frame's refreshes at the input's end (its frame duration).
func (p *Player) displayEnd() error {
	d := &p.disp
	if d.cur == nil {
		return nil
	}
	return p.displayUntil(d.cur.PTS + p.pace.frameDur)
}

// dropCurrent forgets the current frame: one never shown is released, and counted dropped unless
// a seek made it stale.
func (p *Player) dropCurrent() {
	d := &p.disp
	if d.cur != nil && !d.curShown {
		d.cur.release()
		if d.gen == p.dec.gen() {
			p.stats.FramesDropped++
		}
	}
	if d.cur != nil && d.curCount > 0 {
		d.perFrame = append(d.perFrame, d.curCount)
	}
	d.cur, d.curShown, d.curCount = nil, false, 0
}

func (d *displaySync) inext() int { return (d.icur + 1) % len(d.pics) }

// displayUntil draws the refreshes whose times fall before end (video time), blending cur and next
// where next is set, then makes next the current frame.
func (p *Player) displayUntil(end float64) error {
	d := &p.disp
	const eps = 1e-7 // a refresh exactly on a frame's time belongs to that frame
	for d.clock.at(d.clock.n) < end-eps {
		if p.input() {
			return errDisplayStop
		}
		if p.paused || p.dec.gen() != d.gen { // the rest of this frame's refreshes are not shown
			break
		}
		if p.waitRefresh(); d.clock.at(d.clock.n) >= end-eps {
			break // late: the refreshes left to this frame went by showing the last picture
		}
		t := d.clock.at(d.clock.n)
		r := Refresh{N: d.clock.n, Time: t, Before: d.cur.PTS, After: d.cur.PTS}
		pair := [2]int{d.icur, d.icur}
		if d.next != nil && d.tscale != TScaleOff {
			r.After = d.next.PTS
			r.Weight = d.tscale.weight(t, d.cur.PTS, d.next.PTS, d.clock.step())
			pair[1] = d.inext()
		}
		if err := p.drawRefresh(pair, r.Weight); err != nil {
			return err
		}
		d.clock.n++
		d.curCount++
		d.stats.Refreshes++
		p.pace.lastPTS = d.cur.PTS // the picture on screen, where relative seeks and steps start
		p.afterRefresh(&r)
		if !d.curShown {
			d.curShown = true
			if err := p.shown(d.cur); err != nil {
				return err
			}
			if p.cfg.Playback.Frames > 0 && p.stats.FramesPresented >= p.cfg.Playback.Frames {
				return errDisplayStop
			}
		}
	}
	if d.next != nil {
		p.dropCurrent()
		d.cur, d.next, d.icur = d.next, nil, d.inext()
	}
	return nil
}

// waitRefresh sleeps until the next refresh's time on the wall clock (nothing when untimed: the
// refreshes are virtual, as fast as the device draws them). Late by a refresh or more, it moves on
// to the refresh due now: the display went on showing the last picture meanwhile (mpv's skipped
// vsyncs), and the picture stays on the sound's time. Late by more than a second (a stall), the
// timeline starts again from now.
func (p *Player) waitRefresh() {
	d := &p.disp
	if p.cfg.Playback.Untimed {
		return
	}
	now := time.Now()
	if d.wall.IsZero() {
		d.wall, d.n0 = now, d.clock.n
		return
	}
	due := d.wall.Add(time.Duration(float64(d.clock.n-d.n0) * d.clock.vsync * float64(time.Second)))
	late := now.Sub(due).Seconds()
	switch {
	case late > 1:
		d.stats.Late++
		d.wall, d.n0 = now, d.clock.n
	case late >= d.clock.vsync:
		skip := int64(late / d.clock.vsync)
		d.stats.Skipped += skip
		d.clock.n += skip
	default:
		time.Sleep(time.Until(due))
	}
}

// afterRefresh follows a presented refresh: the sound starts under the first one, the A/V offset
// is recorded and corrected, and the hook sees what was shown.
func (p *Player) afterRefresh(r *Refresh) {
	d, c := &p.disp, &p.pace
	if c.clock != nil && !p.paused && !p.cfg.Playback.Untimed {
		if c.fresh {
			c.note(c.clock.Pause(false))
			c.fresh = false
			p.setAudioSpeed(d.clock.speed)
			p.awaitSound(r)
		} else if pos, ok := c.clock.Position(); ok {
			off := r.Time - pos
			c.offs.add(off)
			d.measured++
			// Resynchronised at once, rather than by the sound's small corrections: the start's
			// offset (the median of refreshes 5 to 24 after the sound started, when its delay is
			// measured; one reading is a few ms off either way) and an offset of more than 100 ms
			// in two readings in a row, the same way (the sound stalled). One such reading alone
			// is a refresh presented late on a loaded machine, over at the next one: taken up, it
			// made the refreshes skip ahead and then wait, and left up to a refresh of offset
			// behind. The refreshes move by the offset on the wall clock, so the picture meets the
			// sound.
			if d.measured > resyncAfter-20 && d.measured <= resyncAfter {
				d.startOffs = append(d.startOffs, off)
			}
			big := math.Abs(off) > 0.1
			resync := 0.0
			switch {
			case big && math.Abs(d.lastOff) > 0.1 && (off > 0) == (d.lastOff > 0):
				resync = off
			case d.measured == resyncAfter:
				slices.Sort(d.startOffs)
				if m := d.startOffs[len(d.startOffs)/2]; math.Abs(m) > d.clock.vsync/4 {
					resync = m
				}
			}
			if resync != 0 {
				d.wall = d.wall.Add(time.Duration(resync / d.clock.speed * float64(time.Second)))
				d.stats.Resyncs++
				off -= resync
				d.clock.restart()
			}
			d.lastOff = off
			if !big || resync != 0 {
				p.setAudioSpeed(d.clock.correct(off))
			}
		}
	}
	if p.cfg.Hooks.OnRefresh != nil {
		if p.off != nil {
			if err := p.rend.Drain(); err == nil {
				r.Picture = p.off.RGBA()
			}
		}
		p.cfg.Hooks.OnRefresh(p, *r)
	}
}

// soundStartLimit is the longest the first picture waits for the sound to be heard.
const soundStartLimit = time.Second

// awaitSound holds the first picture r of a timeline until the sound, just started under it, is
// heard (its position moves past r's time: a device takes tens of ms to start, 30-60 ms on a null
// sink), and starts the refreshes' wall clock from there, as the pictures wait for the sound's
// clock without display sync. Without it the refreshes ran ahead of the sound by that delay until
// the start's offset was taken up.
func (p *Player) awaitSound(r *Refresh) {
	d, c := &p.disp, &p.pace
	waitClock(c.clock, r.Time+1e-6, soundStartLimit)
	if pos, ok := c.clock.Position(); ok && pos > r.Time && !d.wall.IsZero() {
		d.wall, d.n0 = time.Now().Add(-time.Duration((pos-r.Time)/d.clock.speed*float64(time.Second))), r.N
	}
}

// setAudioSpeed resamples the sound to play at s (a Clock that cannot keeps its rate).
func (p *Player) setAudioSpeed(s float64) {
	d := &p.disp
	if s != d.audioSpeed || d.stats.AudioSpeedMin == 0 {
		if sc, ok := p.pace.clock.(speedControl); ok {
			p.pace.note(sc.SetSpeed(s))
			if s != d.audioSpeed {
				d.stats.AudioSpeedChanges++
			}
			d.audioSpeed = s
			if d.stats.AudioSpeedMin == 0 || s < d.stats.AudioSpeedMin {
				d.stats.AudioSpeedMin = s
			}
			d.stats.AudioSpeedMax = max(d.stats.AudioSpeedMax, s)
		}
	}
}

// convertInto converts f into picture i (made, or made again, at the output's size).
func (p *Player) convertInto(f *Frame, i int) error {
	if !p.sized {
		if err := p.openOutput(f); err != nil {
			return err
		}
	}
	d := &p.disp
	if d.clock.vsync == 0 {
		p.displayRate()
	}
	w, h := p.outputSize()
	if d.picW != w || d.picH != h {
		if err := p.makePictures(w, h); err != nil {
			return err
		}
	}
	prm := p.params(f.Color)
	prm.Dither = p.cfg.Quality.Dither.For(f.Picture.Format, prm, p.cfg.Quality.debands(f.Picture.Format))
	p.rend.Orient = p.orientation(f)
	return p.rend.DrawPicture(f, prm, d.pics[i])
}

// outputSize is the output's size now (the window's swapchain may change).
func (p *Player) outputSize() (int, int) {
	if p.off != nil {
		return p.off.Width, p.off.Height
	}
	return p.swap.Width, p.swap.Height
}

// makePictures makes the pictures and their blend pairs at w×h; those they replace go with the last
// frame that drew them. The frames in them are converted again.
func (p *Player) makePictures(w, h int) error {
	d := &p.disp
	p.retirePictures()
	if d.blend == nil {
		b, err := ycbcr.NewBlend(p.dev)
		if err != nil {
			return err
		}
		d.blend = b
	}
	d.picW, d.picH = w, h
	d.pairs = map[[2]int]*ycbcr.Binding{}
	for i := range d.pics {
		o, err := p.dev.NewSampledOffscreen(w, h)
		if err != nil {
			return err
		}
		d.pics[i] = o
	}
	for i := range d.pics {
		for _, j := range []int{i, (i + 1) % len(d.pics)} {
			b, err := d.blend.Bind(d.pics[i].View, d.pics[j].View)
			if err != nil {
				return err
			}
			d.pairs[[2]int{i, j}] = b
		}
	}
	// What the old pictures held (the size changed mid-frame: a resize).
	if d.cur != nil {
		if err := p.convertInto(d.cur, d.icur); err != nil {
			return err
		}
	}
	if d.next != nil {
		return p.convertInto(d.next, d.inext())
	}
	return nil
}

// retirePictures hands the pictures and pairs to the fence of the last frame that used them.
func (p *Player) retirePictures() {
	d := &p.disp
	if d.pics[0] == nil {
		return
	}
	pics, pairs := d.pics, d.pairs
	d.pics, d.pairs, d.picW, d.picH = [3]*gpu.Offscreen{}, nil, 0, 0
	p.rend.Stream.Ring.RetireLast(func() {
		for _, b := range pairs {
			b.Destroy()
		}
		for _, o := range pics {
			if o != nil {
				o.Destroy()
			}
		}
	})
}

// destroyDisplay frees the pictures and the pass (after the frames that used them).
func (p *Player) destroyDisplay() {
	d := &p.disp
	if d.next != nil {
		d.next.release()
		d.next = nil
	}
	if d.cur != nil && !d.curShown {
		d.cur.release()
	}
	d.cur = nil
	for _, b := range d.pairs {
		b.Destroy()
	}
	for _, o := range d.pics {
		if o != nil {
			o.Destroy()
		}
	}
	if d.blend != nil {
		d.blend.Destroy()
	}
	*d = displaySync{}
}

// drawRefresh draws pictures pair blended by w into the output and presents it.
func (p *Player) drawRefresh(pair [2]int, w float64) error {
	d := &p.disp
	draw := func(cb vk.CommandBuffer, t ycbcr.Target) error {
		return d.blend.Draw(cb, t, d.pairs[pair], float32(w))
	}
	if p.off != nil {
		var rb *gpu.Offscreen
		if p.cfg.Hooks.OnRefresh != nil {
			rb = p.off
		}
		return p.rend.DrawRefresh(offscreenTarget{p.off}, draw, rb)
	}
	if p.win.Resized() || p.swap.Suboptimal {
		// The pictures follow the new size at the next frame; this refresh scales nothing: it is drawn
		// into the viewport it fits.
		if err := p.recreate(); err != nil {
			return err
		}
	}
	return p.toSwapchain(func(t swapchainTarget) error { return p.rend.DrawRefresh(t, draw, nil) })
}

// displayStats fills -stats' display_sync.
func (p *Player) displayStats() *DisplaySyncStats {
	d := &p.disp
	if !d.on {
		return nil
	}
	s := d.stats
	counts := d.perFrame
	if d.curCount > 0 {
		counts = append(counts[:len(counts):len(counts)], d.curCount)
	}
	if len(counts) > 0 {
		sum := 0
		var parts []string
		for i, c := range counts {
			sum += c
			if i < 12 {
				parts = append(parts, fmt.Sprint(c))
			}
		}
		s.RefreshesPerFrame = math.Round(float64(sum)/float64(len(counts))*1e4) / 1e4
		s.Cadence = strings.Join(parts, " ")
	}
	if s.AudioSpeedMin != 0 {
		s.AudioSpeedMin, s.AudioSpeedMax = math.Round(s.AudioSpeedMin*1e6)/1e6, math.Round(s.AudioSpeedMax*1e6)/1e6
	}
	return &s
}

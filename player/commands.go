package player

import (
	"errors"
	"fmt"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// Command is one thing asked of a playing Player: what a key means (keyCommands), or what a
// program driving the player sends (Config.Hooks.Commands). Player.do runs every command, on the main
// thread between frames, whoever asked.
type Command interface{ command() }

// Switch is how a command sets an on/off state: toggled, or set on or off.
type Switch int

const (
	Toggle Switch = iota
	On
	Off
)

// of is the state s makes of v.
func (s Switch) of(v bool) bool {
	switch s {
	case On:
		return true
	case Off:
		return false
	}
	return !v
}

// The commands.
type (
	// Quit ends playback (Stats.End EndQuit): q, Esc, closing the window, Config.Hooks.Stop.
	Quit struct{}
	// Skip ends this input for the next or the previous one of a list (End: EndNext or EndPrev).
	Skip struct{ End End }
	// Pause pauses or resumes.
	Pause struct{ Switch Switch }
	// Step shows the next frame and pauses; StepBack the frame before the one on screen.
	Step     struct{}
	StepBack struct{}
	// Seek goes to Seconds, or by Seconds when Relative (seeks add up: decoding.from).
	Seek struct {
		Seconds  float64
		Relative bool
	}
	// Speed sets the playback speed, or multiplies it when Relative (0.1 to 16).
	Speed struct {
		Value    float64
		Relative bool
	}
	// Volume sets the sound's volume (0 to 1), or changes it by Value when Relative; Mute mutes.
	Volume struct {
		Value    float64
		Relative bool
	}
	Mute struct{ Switch Switch }
	// Screenshot writes the picture on screen (the video, not the display) as the next free
	// ycbcrplay-NNNN.png in Config.Output.ShotDir.
	Screenshot struct{}
	// CyclePath goes auto → sampler → shader → auto, skipping the sampler where it cannot show the
	// stream; CycleCompare off → split → diff → off (both need the sampler path).
	CyclePath    struct{}
	CycleCompare struct{}
	// CycleZoom goes fit → 1:1 → 2 → fit; Zoom sets Value (0: fit), or with Toggle goes between
	// Value and fit. Both bring a moved picture back to the middle.
	CycleZoom struct{}
	Zoom      struct {
		Value  float64
		Toggle bool
	}
	// Pan moves a zoomed picture by DX, DY pixels (nothing in fit: Renderer.Zoom 0).
	Pan struct{ DX, DY int }
	// Info shows the info panel (and logs the info line); Help the key list; Fullscreen the full
	// screen (a window only).
	Info       struct{ Switch Switch }
	Help       struct{ Switch Switch }
	Fullscreen struct{ Switch Switch }
)

func (Quit) command()         {}
func (Skip) command()         {}
func (Pause) command()        {}
func (Step) command()         {}
func (StepBack) command()     {}
func (Seek) command()         {}
func (Speed) command()        {}
func (Volume) command()       {}
func (Mute) command()         {}
func (Screenshot) command()   {}
func (CyclePath) command()    {}
func (CycleCompare) command() {}
func (CycleZoom) command()    {}
func (Zoom) command()         {}
func (Pan) command()          {}
func (Info) command()         {}
func (Help) command()         {}
func (Fullscreen) command()   {}

// errNoSound refuses the volume commands without a sound that has a volume.
var errNoSound = errors.New("no sound: no volume to change")

// do runs c. ended: playback ends here (Stats.End says how). refused says why c could not be done
// (a seek on a pipe, a failed screenshot, no sound); it was logged and shown already, and playback
// goes on.
func (p *Player) do(c Command) (ended bool, refused error) {
	switch c := c.(type) {
	case Quit:
		p.stats.End = EndQuit
		return true, nil
	case Skip:
		if c.End != EndNext && c.End != EndPrev {
			return false, fmt.Errorf("player: skip to %d: EndNext or EndPrev", c.End)
		}
		p.stats.End = c.End
		return true, nil
	case Pause:
		if paused := c.Switch.of(p.paused); paused != p.paused {
			p.paused = paused
			p.pace.pause(paused)
		}
	case Step:
		p.pace.step(p.paused)
		p.paused, p.step, p.pace.stepped = true, true, true
	case StepBack:
		p.pace.step(p.paused)
		p.paused = true
		// Decoder seeks land on the first frame at or after the target: 1.5 frames back is the
		// previous frame of a constant frame rate.
		return false, p.seekTo(p.dec.from(p.pace.lastPTS) - 1.5*p.pace.frameDur)
	case Seek:
		if c.Relative {
			c.Seconds += p.dec.from(p.pace.lastPTS)
		}
		return false, p.seekTo(c.Seconds)
	case Speed:
		if c.Relative {
			c.Value *= p.pace.speed
		}
		p.setSpeed(c.Value, true)
	case Volume, Mute:
		return false, p.volume(c)
	case Screenshot:
		return false, p.screenshotKey()
	case CyclePath:
		p.cyclePath()
	case CycleCompare:
		p.cycleCompare()
	case CycleZoom, Zoom:
		p.zoom(c)
	case Pan:
		if p.rend.Zoom > 0 {
			p.rend.PanX += c.DX
			p.rend.PanY += c.DY
		}
	case Info:
		p.osd.info = c.Switch.of(p.osd.info)
		p.logf("%s", p.infoLine())
	case Help:
		p.osd.help = c.Switch.of(p.osd.help)
	case Fullscreen:
		if p.win != nil && c.Switch.of(p.win.Fullscreen()) != p.win.Fullscreen() {
			p.win.ToggleFullscreen()
		}
	default:
		return p.control(c)
	}
	return false, nil
}

// seekTo seeks to target (from 0). Paused, the picture at the target is shown and playback stays
// paused. A source that cannot seek (a pipe) is said once, and playback goes on.
func (p *Player) seekTo(target float64) error {
	if p.dec.unseekable {
		if !p.dec.noticed {
			p.dec.noticed = true
			p.logf("notice: %s cannot seek (a pipe): playing on", p.src.Info().Name)
		}
		p.osd.message("cannot seek: the input is a pipe")
		return errors.New("cannot seek: the input is a pipe")
	}
	target = max(0, target)
	p.eofReached = false
	p.ipcEvent("seek", nil)
	p.dec.seek(target)
	p.pace.hold(target)
	if p.paused {
		p.step, p.pace.stepped = true, true
	}
	p.osd.showBar()
	return nil
}

// setSpeed sets the playback speed (pacer.setSpeed), said on the display and the log when announce.
func (p *Player) setSpeed(sp float64, announce bool) {
	if p.disp.on && sp != 1 { // the display's refreshes time the pictures, at the video's speed
		p.osd.message("speed 1× under -video-sync display-resample")
		p.logf("notice: -speed %.2f: display-synced playback plays at 1×", sp)
		return
	}
	sp = p.pace.setSpeed(sp)
	if announce {
		p.osd.message(fmt.Sprintf("speed %.2f×", sp))
		p.logf("speed: %.2f×", sp)
	}
}

// volume runs Volume and Mute on a Clock that plays sound.
func (p *Player) volume(c Command) error {
	vc, ok := p.cfg.Sound.Clock.(volumeControl)
	if !ok {
		return errNoSound
	}
	v, muted := vc.Volume()
	switch c := c.(type) {
	case Volume:
		if c.Relative {
			c.Value += v
		}
		v = min(max(c.Value, 0), 1)
	case Mute:
		muted = c.Switch.of(muted)
	}
	p.pace.note(vc.SetVolume(v, muted))
	p.logf("volume: %.0f%%%s", v*100, map[bool]string{true: " (muted)"}[muted])
	return nil
}

// screenshotKey writes the picture on screen (shoot) and says where, or why not.
func (p *Player) screenshotKey() error {
	path, err := p.shoot()
	if err != nil {
		p.logf("screenshot: %v", err)
		p.osd.message("screenshot failed: " + err.Error())
		return err
	}
	p.logf("screenshot: %s (%.3f s)", path, p.last.PTS)
	p.osd.message("screenshot: " + path)
	return nil
}

// cyclePath goes auto → sampler → shader → auto, skipping the sampler where it cannot show the
// stream.
func (p *Player) cyclePath() {
	next := (p.rend.Choice + 1) % 3
	if next == formats.ChooseSampler {
		if err := p.rend.SamplerPossible(); err != nil {
			p.logf("path: sampler not possible: %v", err)
			next = formats.ChooseShader
		}
	}
	p.rend.SetChoice(next)
	p.logf("path: %s", next)
}

// cycleCompare goes off → split → diff → off; both compare modes need the sampler path.
func (p *Player) cycleCompare() {
	next := (p.rend.Compare + 1) % 3
	if next != CompareOff {
		if err := p.rend.SamplerPossible(); err != nil {
			p.logf("compare: needs the sampler path, which cannot express this stream: %v", err)
			next = CompareOff
		}
	}
	p.rend.SetCompare(next)
	p.logf("compare: %s", next)
}

// zoom runs CycleZoom and Zoom.
func (p *Player) zoom(c Command) {
	r := p.rend
	switch c := c.(type) {
	case CycleZoom:
		switch r.Zoom {
		case 0:
			r.Zoom = 1
		case 1:
			r.Zoom = 2
		default:
			r.Zoom = 0
		}
	case Zoom:
		if c.Toggle && r.Zoom == c.Value {
			r.Zoom = 0
		} else {
			r.Zoom = max(c.Value, 0)
		}
	}
	r.PanX, r.PanY = 0, 0
	p.logf("zoom: %s", zoomName(r.Zoom))
}

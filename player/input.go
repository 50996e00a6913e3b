package player

import (
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// keyCommands is what each key asks for (osdHelp lists them for the user); the arrows are
// arrowCommand's.
var keyCommands = map[window.Key]Command{
	window.KeyQuit:        Quit{},
	window.KeyEscape:      Quit{},
	window.KeyNext:        Skip{End: EndNext}, // Enter or >
	window.KeyPrev:        Skip{End: EndPrev}, // <
	window.KeySpace:       Pause{Switch: Toggle},
	window.KeyPeriod:      Step{},
	window.KeyComma:       StepBack{},
	window.KeyS:           Screenshot{},
	window.KeySlower:      Speed{Value: 1 / 1.1, Relative: true},
	window.KeyFaster:      Speed{Value: 1.1, Relative: true},
	window.KeyBackspace:   Speed{Value: 1},
	window.KeyP:           CyclePath{},
	window.KeyC:           CycleCompare{},
	window.KeyZ:           CycleZoom{},
	window.Key1:           Zoom{Value: 1, Toggle: true},
	window.KeyI:           Info{Switch: Toggle},
	window.KeyHelp:        Help{Switch: Toggle},
	window.KeyF:           Fullscreen{Switch: Toggle},
	window.Key9:           Volume{Value: -0.02, Relative: true},
	window.Key0:           Volume{Value: 0.02, Relative: true},
	window.KeyM:           Mute{Switch: Toggle},
	window.KeyChapterNext: ChapterSeek{Delta: 1},
	window.KeyChapterPrev: ChapterSeek{Delta: -1},
	window.KeyL:           CycleABLoop{},
	window.KeyQuitSave:    QuitSave{},
	window.KeySubNext:     CycleSubtitles{Step: 1},
	window.KeySubPrev:     CycleSubtitles{Step: -1},
	window.KeySubToggle:   SubtitleVisibility{Switch: Toggle},
}

// keyCommand is what k asks for now (nil: nothing): the arrows move a zoomed picture and seek
// otherwise (← → 5 s, ↑ ↓ 60 s).
func (p *Player) keyCommand(k window.Key) Command {
	if c, ok := keyCommands[k]; ok {
		return c
	}
	if p.rend.Zoom > 0 {
		if d, ok := map[window.Key][2]int{window.KeyLeft: {64, 0}, window.KeyRight: {-64, 0}, window.KeyUp: {0, 64}, window.KeyDown: {0, -64}}[k]; ok {
			return Pan{DX: d[0], DY: d[1]}
		}
		return nil
	}
	if s, ok := map[window.Key]float64{window.KeyLeft: -5, window.KeyRight: 5, window.KeyUp: 60, window.KeyDown: -60}[k]; ok {
		return Seek{Seconds: s, Relative: true}
	}
	return nil
}

// input runs what was asked since the last call, in order: Config.Hooks.Stop, the window's keys and
// mouse, Config.Hooks.Keys, Config.Hooks.Commands. ended: playback ends (Stats.End says how).
func (p *Player) input() (ended bool) {
	select {
	case <-p.cfg.Hooks.Stop:
		ended, _ = p.do(Quit{})
		return ended
	default:
	}
	var keys []window.Key
	if p.win != nil {
		keys = p.win.Poll()
		p.mouse()
	}
	for more := p.cfg.Hooks.Keys != nil; more; {
		select {
		case k := <-p.cfg.Hooks.Keys:
			keys = append(keys, k)
		default:
			more = false
		}
	}
	for _, k := range keys {
		// Mapped one at a time: a key may change what the next means (z, then an arrow pans).
		if c := p.keyCommand(k); c != nil {
			if ended, _ = p.do(c); ended {
				return true
			}
		}
	}
	if p.cfg.IPC.Server != nil && p.serveIPC() {
		return true
	}
	for more := p.cfg.Hooks.Commands != nil; more; {
		select {
		case c := <-p.cfg.Hooks.Commands:
			if ended, _ = p.do(c); ended {
				return true
			}
		default:
			more = false
		}
	}
	return false
}

// mouse shows the bar when the pointer moved over the window, and pans a zoomed picture by the
// left button's drags (the renderer keeps it in the window: clampPan).
func (p *Player) mouse() {
	if p.win.MouseMoved() {
		p.osd.showBar()
	}
	if dx, dy := p.win.Drag(); dx != 0 || dy != 0 {
		p.do(Pan{DX: dx, DY: dy})
	}
}

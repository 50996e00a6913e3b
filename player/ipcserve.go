package player

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/ycbcrkit/ycbcrkit/player/ipc"
)

// The player's side of mpv's JSON IPC (Config.IPC): its properties and commands by mpv's names
// (mpv's manual, "Properties" and "List of Input Commands"), answered on the main thread between
// frames through the same Commands the keys send.

// Playlist is the program's list of inputs, for the IPC's playlist properties and commands.
type Playlist interface {
	// Pos is the playing input's place in the list (from 0; -1: none, idle), Count the list's
	// length, Path the playing input as given (a path, a URL, "-").
	Pos() int
	Count() int
	Path() string
	// Entries are the list's inputs as given (mpv's playlist property).
	Entries() []string
	// Edit runs one of mpv's playlist commands with its arguments (loadfile, playlist-next,
	// playlist-prev, playlist-play-index, playlist-clear, playlist-remove, playlist-move, stop);
	// ends: the playing input ends for it (the list knows what plays next, if anything). Its
	// errors wrap the ipc package's.
	Edit(name string, args []any) (ends bool, err error)
}

// playlistCommands are the commands Playlist.Edit runs.
var playlistCommands = map[string]bool{"loadfile": true, "playlist-next": true, "playlist-prev": true,
	"playlist-play-index": true, "playlist-clear": true, "playlist-remove": true, "playlist-move": true, "stop": true}

// Properties are the mpv properties the player answers (mpv's property-list, which clients such as
// python-mpv-jsonipc read first).
var Properties = []string{"ab-loop-a", "ab-loop-b", "aid", "chapter", "chapter-list", "chapters", "core-idle",
	"duration", "eof-reached", "filename", "frame-drop-count", "fullscreen", "idle-active", "media-title", "mute",
	"path", "pause", "percent-pos", "playback-time", "playlist", "playlist-count", "playlist-playing-pos",
	"playlist-pos", "playlist-pos-1", "property-list", "seeking", "sid", "speed", "sub-visibility", "time-pos",
	"time-remaining", "track-list", "vid", "volume"}

// ipcRequests is how many requests the player takes between two frames: a client that floods the
// socket waits for the next frame rather than holding the player.
const ipcRequests = 16

// serveIPC answers the requests waiting (at most ipcRequests) and sends the observed properties
// that changed. ended: a request ended playback (quit, playlist-next, loadfile replace).
func (p *Player) serveIPC() (ended bool) {
	srv := p.cfg.IPC.Server
	for i := 0; i < ipcRequests && !ended; i++ {
		select {
		case r := <-srv.Requests():
			ended = p.request(r)
		default:
			i = ipcRequests
		}
	}
	srv.Update(p.property)
	return ended
}

// ipcEvent sends an event to the IPC's clients, if there are any.
func (p *Player) ipcEvent(name string, fields map[string]any) {
	if p.cfg.IPC.Server != nil {
		p.cfg.IPC.Server.Event(name, fields)
	}
}

// request answers one request.
func (p *Player) request(r *ipc.Request) (ended bool) {
	switch r.Name {
	case "get_property":
		r.Reply(p.property(r.Args[0].(string)))
		return false
	case "set_property":
		c, err := p.setProperty(r.Args[0].(string), r.Args[1])
		if err != nil || c == nil {
			r.Reply(nil, err)
			return false
		}
		return p.run(r, c)
	}
	if r.Name == ThumbnailCommand {
		p.thumbnail(r)
		return false
	}
	c, err := p.ipcCommand(r.Name, r.Args)
	if err != nil || c == nil {
		r.Reply(nil, err)
		return false
	}
	return p.run(r, c)
}

// run does c for r and replies: a refused command (a seek on a pipe) is "error running command".
func (p *Player) run(r *ipc.Request, c Command) (ended bool) {
	ended, refused := p.do(c)
	if refused != nil {
		r.Reply(nil, fmt.Errorf("%w: %v", ipc.ErrCommand, refused))
	} else {
		r.Reply(nil, nil)
	}
	return ended
}

// property is the value of an mpv property, as mpv's JSON gives it.
func (p *Player) property(name string) (any, error) {
	info := p.src.Info()
	switch name {
	case "time-pos", "playback-time":
		if p.last == nil {
			return nil, ipc.ErrPropertyUnavailable
		}
		return p.position(), nil
	case "duration":
		if info.Duration <= 0 {
			return nil, ipc.ErrPropertyUnavailable
		}
		return info.Duration, nil
	case "percent-pos":
		if info.Duration <= 0 || p.last == nil {
			return nil, ipc.ErrPropertyUnavailable
		}
		return 100 * p.position() / info.Duration, nil
	case "pause":
		return p.paused, nil
	case "frame-drop-count": // mpv's: the pictures dropped as late (Stats.FramesDropped)
		return p.stats.FramesDropped, nil
	case "idle-active":
		return false, nil
	case "core-idle":
		return p.paused || p.eofReached, nil
	case "seeking":
		return p.dec.seeking, nil
	case "time-remaining":
		if info.Duration <= 0 || p.last == nil {
			return nil, ipc.ErrPropertyUnavailable
		}
		return max(0, info.Duration-p.position()), nil
	case "media-title": // the file's name (mpv's, without a title tag)
		return p.property("filename")
	case "playlist":
		return playlistProperty(p.cfg.IPC.Playlist, true), nil
	case "playlist-playing-pos":
		return p.property("playlist-pos")
	case "property-list":
		return Properties, nil
	case "fullscreen":
		return p.win != nil && p.win.Fullscreen(), nil
	case "speed":
		return p.pace.speed, nil
	case "volume", "mute":
		vc, ok := p.cfg.Sound.Clock.(volumeControl)
		if !ok {
			// No sound (headless, none in the input): the setting, as mpv keeps it without audio.
			if s := p.cfg.IPC.Session; s != nil {
				return map[bool]any{true: s.Mute, false: s.Volume}[name == "mute"], nil
			}
			return nil, ipc.ErrPropertyUnavailable
		}
		v, muted := vc.Volume()
		if name == "mute" {
			return muted, nil
		}
		return v * 100, nil
	case "path":
		if p.cfg.IPC.Playlist != nil {
			return p.cfg.IPC.Playlist.Path(), nil
		}
		return info.Name, nil
	case "filename":
		if p.cfg.IPC.Playlist != nil {
			return filepath.Base(p.cfg.IPC.Playlist.Path()), nil
		}
		return info.Name, nil
	case "playlist-pos", "playlist-pos-1":
		pos := 0
		if p.cfg.IPC.Playlist != nil {
			pos = p.cfg.IPC.Playlist.Pos()
		}
		if name == "playlist-pos-1" {
			pos++
		}
		return pos, nil
	case "playlist-count":
		if p.cfg.IPC.Playlist != nil {
			return p.cfg.IPC.Playlist.Count(), nil
		}
		return 1, nil
	case "track-list":
		return p.trackList(), nil
	case "vid":
		return 1, nil
	case "aid":
		if p.cfg.Sound.Clock == nil {
			return false, nil // mpv's "no"
		}
		return 1, nil
	case "sid":
		if s := p.cfg.Subtitles.Source; s != nil && s.SID() > 0 {
			return s.SID(), nil
		}
		return false, nil // mpv's "no"
	case "sub-visibility":
		if s := p.cfg.Subtitles.Source; s != nil {
			return s.Visible(), nil
		}
		return nil, ipc.ErrPropertyUnavailable
	case "chapter":
		if len(info.Chapters) == 0 {
			return nil, ipc.ErrPropertyUnavailable
		}
		return chapterAt(info.Chapters, p.position()), nil
	case "chapters":
		return len(info.Chapters), nil
	case "chapter-list":
		list := []map[string]any{}
		for _, c := range info.Chapters {
			list = append(list, map[string]any{"title": c.Title, "time": c.Start})
		}
		return list, nil
	case "eof-reached":
		return p.eofReached, nil
	case "ab-loop-a", "ab-loop-b":
		v := p.ab.a
		if name == "ab-loop-b" {
			v = p.ab.b
		}
		if math.IsNaN(v) {
			return "no", nil
		}
		return v, nil
	}
	return nil, ipc.ErrPropertyNotFound
}

// trackList is mpv's track-list: the video track played, the sound's when it plays, and the
// subtitle tracks (Config.Subtitles), each with mpv's fields.
func (p *Player) trackList() []map[string]any {
	tracks := []map[string]any{{"id": 1, "type": "video", "selected": true}}
	if p.rend != nil && p.rend.format != nil {
		tracks[0]["demux-w"], tracks[0]["demux-h"] = p.rend.width, p.rend.height
	}
	if p.cfg.Sound.Clock != nil {
		a := map[string]any{"id": 1, "type": "audio", "selected": true}
		if p.cfg.Sound.Info.Codec != "" {
			a["codec"] = p.cfg.Sound.Info.Codec
		}
		tracks = append(tracks, a)
	}
	if s := p.cfg.Subtitles.Source; s != nil {
		for _, t := range s.Tracks() {
			st := map[string]any{"id": t.ID, "type": "sub", "codec": t.Codec, "selected": t.ID == s.SID(),
				"default": t.Default, "forced": t.Forced, "external": t.External, "image": t.Image}
			if t.Title != "" {
				st["title"] = t.Title
			}
			if t.Lang != "" {
				st["lang"] = t.Lang
			}
			if t.Path != "" {
				st["external-filename"] = t.Path
			}
			tracks = append(tracks, st)
		}
	}
	return tracks
}

// setProperty is the command that sets an mpv property.
func (p *Player) setProperty(name string, v any) (Command, error) {
	switch name {
	case "sid":
		if p.cfg.Subtitles.Source == nil {
			return nil, ipc.ErrPropertyUnavailable
		}
		if b, ok := v.(bool); ok && !b || v == "no" {
			return SetSubtitles{ID: 0}, nil
		}
		x, err := ipc.Number(v)
		if err != nil {
			return nil, err
		}
		return SetSubtitles{ID: int(x)}, nil
	case "sub-visibility":
		on, err := ipc.Flag(v)
		if err != nil {
			return nil, err
		}
		return SubtitleVisibility{Switch: map[bool]Switch{true: On, false: Off}[on]}, nil
	case "pause", "mute", "fullscreen":
		on, err := ipc.Flag(v)
		if err != nil {
			return nil, err
		}
		if _, ok := p.cfg.Sound.Clock.(volumeControl); name == "mute" && !ok && p.cfg.IPC.Session != nil {
			p.cfg.IPC.Session.Mute = on
			return nil, nil
		}
		sw := map[bool]Switch{true: On, false: Off}[on]
		return map[string]Command{"pause": Pause{Switch: sw}, "mute": Mute{Switch: sw}, "fullscreen": Fullscreen{Switch: sw}}[name], nil
	case "speed", "volume", "time-pos", "playback-time", "chapter", "percent-pos":
		x, err := ipc.Number(v)
		if err != nil {
			return nil, err
		}
		switch name {
		case "speed":
			if !(x >= 0.1 && x <= 16) {
				return nil, fmt.Errorf("%w: speed %g: 0.1 to 16", ipc.ErrPropertyFormat, x)
			}
			return Speed{Value: x}, nil
		case "volume":
			if _, ok := p.cfg.Sound.Clock.(volumeControl); !ok {
				if s := p.cfg.IPC.Session; s != nil {
					s.Volume = min(max(x, 0), 100)
					return nil, nil
				}
				return nil, ipc.ErrPropertyUnavailable
			}
			return Volume{Value: min(max(x, 0), 100) / 100}, nil
		case "chapter":
			if len(p.src.Info().Chapters) == 0 {
				return nil, ipc.ErrPropertyUnavailable
			}
			return ChapterSet{Index: int(x)}, nil
		case "percent-pos":
			d := p.duration()
			if d <= 0 {
				return nil, ipc.ErrPropertyUnavailable
			}
			return Seek{Seconds: d * x / 100}, nil
		}
		return Seek{Seconds: x}, nil
	case "ab-loop-a", "ab-loop-b":
		t := math.NaN()
		if s, ok := v.(string); !ok || s != "no" {
			x, err := ipc.Number(v)
			if err != nil {
				return nil, err
			}
			t = x
		}
		a, b := p.ab.a, p.ab.b
		if name == "ab-loop-a" {
			a = t
		} else {
			b = t
		}
		return SetABLoop{A: a, B: b}, nil
	}
	if _, err := p.property(name); errors.Is(err, ipc.ErrPropertyNotFound) {
		return nil, err
	}
	return nil, fmt.Errorf("%w: %s cannot be set", ipc.ErrPropertyError, name)
}

// ipcCommand is the Command for an mpv input command (nil with a nil error: answered already).
func (p *Player) ipcCommand(name string, args []any) (Command, error) {
	arg := func(i int) (string, bool) {
		if i >= len(args) {
			return "", false
		}
		s, err := ipc.String(args[i])
		return s, err == nil
	}
	switch name {
	case "seek":
		return p.ipcSeek(arg)
	case "set", "add", "cycle":
		return p.ipcChange(name, args, arg)
	case "loadfile", "playlist-next", "playlist-prev", "playlist-play-index", "playlist-clear", "playlist-remove",
		"playlist-move", "stop":
		if p.cfg.IPC.Playlist == nil {
			if name == "stop" {
				return Quit{}, nil
			}
			return nil, ipc.ErrInvalidParameter
		}
		ends, err := p.cfg.IPC.Playlist.Edit(name, args)
		if err != nil || !ends {
			return nil, err
		}
		return Skip{End: EndNext}, nil
	case "screenshot-to-file":
		file, ok := arg(0)
		if !ok {
			return nil, ipc.ErrInvalidParameter
		}
		if err := p.screenshot(file); err != nil {
			return nil, fmt.Errorf("%w: %v", ipc.ErrCommand, err)
		}
		p.logf("screenshot: %s", file)
		return nil, nil
	case "quit":
		return Quit{}, nil
	case "quit-watch-later":
		return QuitSave{}, nil
	case "frame-step":
		return Step{}, nil
	case "frame-back-step":
		return StepBack{}, nil
	case "ab-loop":
		return CycleABLoop{}, nil
	}
	return nil, ipc.ErrInvalidParameter
}

// ipcSeek is mpv's seek command: a target in seconds (or percent) and its flags.
func (p *Player) ipcSeek(arg func(int) (string, bool)) (Command, error) {
	target, ok := arg(0)
	if !ok {
		return nil, ipc.ErrInvalidParameter
	}
	x, err := ipc.Number(target)
	if err != nil {
		return nil, ipc.ErrInvalidParameter
	}
	flags, _ := arg(1)
	c := Seek{Seconds: x, Relative: true}
	for _, f := range strings.Split(flags, "+") {
		switch f {
		case "", "relative", "exact", "keyframes":
		case "absolute":
			c.Relative = false
		case "absolute-percent", "relative-percent":
			d := p.duration()
			if d <= 0 {
				return nil, fmt.Errorf("%w: the duration is unknown", ipc.ErrCommand)
			}
			c.Seconds = d * x / 100
			c.Relative = f == "relative-percent"
		default:
			return nil, ipc.ErrInvalidParameter
		}
	}
	return c, nil
}

// ipcChange is mpv's set, add and cycle commands (name) on a property.
func (p *Player) ipcChange(name string, args []any, arg func(int) (string, bool)) (Command, error) {
	prop, ok := arg(0)
	if !ok {
		return nil, ipc.ErrInvalidParameter
	}
	if name == "set" {
		if len(args) < 2 {
			return nil, ipc.ErrInvalidParameter
		}
		return p.setProperty(prop, args[1])
	}
	if (prop == "sid" || prop == "sub") && name == "cycle" {
		step := 1
		if s, _ := arg(1); s == "down" {
			step = -1
		}
		return CycleSubtitles{Step: step}, nil
	}
	cur, err := p.property(prop)
	if err != nil {
		return nil, err
	}
	if b, ok := cur.(bool); ok && name == "cycle" {
		return p.setProperty(prop, !b)
	}
	x, err := ipc.Number(cur)
	if err != nil {
		return nil, fmt.Errorf("%w: %s cannot be cycled or added to", ipc.ErrPropertyError, prop)
	}
	step := 1.0
	if s, ok := arg(1); ok && name == "add" {
		if step, err = ipc.Number(s); err != nil {
			return nil, ipc.ErrInvalidParameter
		}
	} else if ok && s == "down" {
		step = -1
	}
	return p.setProperty(prop, x+step)
}

// ThumbnailCommand is the IPC's command for a seek thumbnail (not mpv's): ["ycbcrplay-thumbnail",
// SECONDS, WIDTH, FILE] (WIDTH and FILE optional: 200 px, a file the player picks; WIDTH 0: the
// video's width) replies with the PNG file's path once written.
const ThumbnailCommand = "ycbcrplay-thumbnail"

// thumbnail answers a ThumbnailCommand: the path is read here, the picture is made on a goroutine
// (Config.IPC.Thumbnail decodes on a decoder of its own), and the reply comes when it is written.
func (p *Player) thumbnail(r *ipc.Request) {
	mk := p.cfg.IPC.Thumbnail
	if mk == nil || p.cfg.IPC.Playlist == nil {
		r.Reply(nil, fmt.Errorf("%w: no thumbnails here", ipc.ErrCommand))
		return
	}
	if len(r.Args) < 1 || len(r.Args) > 3 {
		r.Reply(nil, ipc.ErrInvalidParameter)
		return
	}
	t, err := ipc.Number(r.Args[0])
	width := -1.0
	if err == nil && len(r.Args) > 1 {
		width, err = ipc.Number(r.Args[1])
	}
	file := ""
	if err == nil && len(r.Args) > 2 {
		file, err = ipc.String(r.Args[2])
	}
	if err != nil || width > 16384 || math.IsNaN(t) {
		r.Reply(nil, ipc.ErrInvalidParameter)
		return
	}
	path := p.cfg.IPC.Playlist.Path()
	go func() {
		out, err := mk(path, t, int(width), file)
		if err != nil {
			r.Reply(nil, fmt.Errorf("%w: %v", ipc.ErrCommand, err))
			return
		}
		r.Reply(out, nil)
	}()
}

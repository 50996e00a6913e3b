package player

import (
	"fmt"
	"slices"
	"time"

	"github.com/ycbcrkit/ycbcrkit/player/ipc"
)

// Idle mode (mpv's --idle): no input plays, the IPC's clients are answered, and a loadfile (or
// another playlist command that makes an input play) ends the wait. mpv's manual, "--idle" and
// "idle-active": https://mpv.io/manual/stable/#options-idle

// Idle serves srv while nothing plays: properties from the list and the session (idle-active true,
// no time-pos or duration), the playlist commands through pl.Edit, pause, volume and mute kept in
// s for the next input. It sends the idle event first. It returns when an input is to play (play:
// the list says which), or at quit or once stop is closed (play false).
func Idle(srv *ipc.Server, pl Playlist, s *Session, stop <-chan struct{}) (play bool) {
	srv.Event("idle", nil)
	get := func(name string) (any, error) { return idleProperty(name, pl, s) }
	srv.Update(get)
	tick := time.NewTicker(50 * time.Millisecond) // new observers get their first values
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return false
		case <-tick.C:
			srv.Update(get)
		case r := <-srv.Requests():
			play, quit := idleRequest(r, pl, s)
			srv.Update(get)
			if play || quit {
				return play
			}
		}
	}
}

// idleRequest answers one request while idle.
func idleRequest(r *ipc.Request, pl Playlist, s *Session) (play, quit bool) {
	str := func(i int) string {
		if i >= len(r.Args) {
			return ""
		}
		v, _ := ipc.String(r.Args[i])
		return v
	}
	switch name := r.Name; {
	case name == "get_property":
		r.Reply(idleProperty(str(0), pl, s))
	case name == "set_property" || name == "set" && len(r.Args) == 2:
		r.Reply(nil, idleSet(str(0), r.Args[1], s))
	case name == "cycle" && (str(0) == "pause" || str(0) == "mute"):
		v, _ := idleProperty(str(0), pl, s)
		r.Reply(nil, idleSet(str(0), !v.(bool), s))
	case name == "quit" || name == "quit-watch-later":
		r.Reply(nil, nil)
		return false, true
	case playlistCommands[name]:
		ends, err := pl.Edit(name, r.Args)
		r.Reply(nil, err)
		return err == nil && ends && name != "stop", false
	case name == "script-message" || name == "script-message-to":
		r.Reply(nil, nil) // no script listens: mpv answers success too
	default:
		r.Reply(nil, fmt.Errorf("%w: %s: nothing is playing (idle)", ipc.ErrCommand, name))
	}
	return false, false
}

// idleProperty is an mpv property while nothing plays.
func idleProperty(name string, pl Playlist, s *Session) (any, error) {
	switch name {
	case "idle-active", "core-idle":
		return true, nil
	case "pause":
		return s.Pause, nil
	case "volume":
		return s.Volume, nil
	case "mute":
		return s.Mute, nil
	case "speed":
		return 1.0, nil
	case "playlist-count":
		return pl.Count(), nil
	case "playlist-pos", "playlist-playing-pos":
		return -1, nil
	case "playlist-pos-1":
		return 0, nil
	case "playlist":
		return playlistProperty(pl, false), nil
	case "property-list":
		return Properties, nil
	case "eof-reached", "seeking", "fullscreen":
		return false, nil
	}
	if slices.Contains(Properties, name) {
		return nil, ipc.ErrPropertyUnavailable
	}
	return nil, ipc.ErrPropertyNotFound
}

// idleSet sets a session property while idle.
func idleSet(name string, v any, s *Session) error {
	switch name {
	case "pause", "mute":
		on, err := ipc.Flag(v)
		if err != nil {
			return err
		}
		if name == "pause" {
			s.Pause = on
		} else {
			s.Mute = on
		}
		return nil
	case "volume":
		x, err := ipc.Number(v)
		if err != nil {
			return err
		}
		s.Volume = min(max(x, 0), 100)
		return nil
	}
	if slices.Contains(Properties, name) {
		return ipc.ErrPropertyUnavailable
	}
	return ipc.ErrPropertyNotFound
}

// playlistProperty is mpv's playlist property: each entry's filename, and current and playing on
// the one playing.
func playlistProperty(pl Playlist, playing bool) []map[string]any {
	out := []map[string]any{}
	if pl == nil {
		return out
	}
	for i, e := range pl.Entries() {
		m := map[string]any{"filename": e, "id": i + 1}
		if playing && i == pl.Pos() {
			m["current"], m["playing"] = true, true
		}
		out = append(out, m)
	}
	return out
}

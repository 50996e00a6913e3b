package main

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ycbcrkit/ycbcrkit/player/ipc"
)

// playlist is the command line's inputs in order, and the one playing: the IPC's playlist
// properties and commands (player.Playlist). Read and changed on the player's thread only (between
// frames), and by run between files and while idle.
type playlist struct {
	items []input
	i     int // the input playing; -1 or past the end: none
	// next, when set by a command (loadfile replace, playlist-next, stop...), is where the list goes
	// once the input playing ends: an index, or -1 for none (idle, or the end without --idle).
	next    int
	nextSet bool
}

func (l *playlist) Pos() int {
	if l.i < 0 || l.i >= len(l.items) {
		return -1
	}
	return l.i
}

func (l *playlist) Count() int { return len(l.items) }

// Path is the playing input as the command line gave it ("-" for standard input).
func (l *playlist) Path() string {
	if l.Pos() < 0 {
		return ""
	}
	if in := l.items[l.i]; !in.stdin {
		return in.url
	}
	return "-"
}

func (l *playlist) Entries() []string {
	out := make([]string, len(l.items))
	for i, in := range l.items {
		out[i] = in.url
		if in.stdin {
			out[i] = "-"
		}
	}
	return out
}

// goTo says where the list goes once the input playing ends.
func (l *playlist) goTo(i int) { l.next, l.nextSet = i, true }

// advance moves to the input that plays next, after one ended by end's way (the list's next
// unless a command said otherwise, or the previous for <). It reports false when none is left.
func (l *playlist) advance(prev bool) bool {
	switch {
	case l.nextSet:
		l.i, l.nextSet = l.next, false
	case prev:
		l.i = max(0, l.i-1)
	default:
		l.i++
	}
	return l.i >= 0 && l.i < len(l.items)
}

// Edit runs mpv's playlist commands (mpv's manual, "List of Input Commands", "Playlist
// Manipulation"); ends: the input playing ends for it.
func (l *playlist) Edit(name string, args []any) (bool, error) {
	str := func(i int) string {
		if i >= len(args) {
			return ""
		}
		s, _ := ipc.String(args[i])
		return s
	}
	index := func(i int) (int, error) {
		s := str(i)
		if s == "current" && l.Pos() >= 0 {
			return l.i, nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n >= len(l.items) {
			return 0, fmt.Errorf("%w: %s: no playlist entry %q", ipc.ErrCommand, name, s)
		}
		return n, nil
	}
	idle := l.Pos() < 0
	switch name {
	case "loadfile":
		return l.load(args)
	case "playlist-next", "playlist-prev":
		to := l.i + 1
		if name == "playlist-prev" {
			to = l.i - 1
		}
		if idle && name == "playlist-next" {
			to = 0
		}
		if to < 0 || to >= len(l.items) || idle && name == "playlist-prev" {
			return false, fmt.Errorf("%w: no %s entry", ipc.ErrCommand, strings.TrimPrefix(name, "playlist-"))
		}
		l.goTo(to)
		return true, nil
	case "playlist-play-index":
		if s := str(0); s == "none" {
			l.goTo(-1)
			return !idle, nil
		}
		n, err := index(0)
		if err != nil {
			return false, err
		}
		l.goTo(n)
		return true, nil
	case "playlist-clear": // all but the input playing
		if idle {
			l.items = nil
		} else {
			l.items, l.i = []input{l.items[l.i]}, 0
		}
		return false, nil
	case "playlist-remove":
		n, err := index(0)
		if err != nil {
			return false, err
		}
		l.items = append(l.items[:n:n], l.items[n+1:]...)
		switch {
		case n == l.i: // the next one plays (now at n)
			l.i--
			l.goTo(n)
			return true, nil
		case n < l.i:
			l.i--
		}
		return false, nil
	case "playlist-move": // entry a goes before entry b (b may be the count: the end)
		a, err := index(0)
		if err != nil {
			return false, err
		}
		b, err := strconv.Atoi(str(1))
		if err != nil || b < 0 || b > len(l.items) {
			return false, fmt.Errorf("%w: playlist-move: no playlist entry %q", ipc.ErrCommand, str(1))
		}
		// The order of the old indices after the move, to follow the input playing.
		order := make([]int, 0, len(l.items))
		for i := range l.items {
			if i != a {
				order = append(order, i)
			}
		}
		if b > a {
			b--
		}
		order = append(order[:b:b], append([]int{a}, order[b:]...)...)
		items := make([]input, len(order))
		cur := l.Pos()
		for i, old := range order {
			items[i] = l.items[old]
			if old == cur {
				l.i = i
			}
		}
		l.items = items
		return false, nil
	case "stop": // the list cleared (unless keep-playlist) and nothing plays: idle, or the end
		if str(0) != "keep-playlist" {
			l.items = nil
		}
		l.goTo(-1)
		return !idle, nil
	}
	return false, ipc.ErrInvalidParameter
}

// load is mpv's loadfile URL [FLAGS [INDEX] [OPTIONS]]: replace (the default) makes URL the whole
// list and plays it; append adds it at the end; append-play adds it and plays it when nothing
// plays; insert-next and insert-next-play put it after the input playing. OPTIONS are per-file
// options, name=value joined by commas: start and pause are followed.
func (l *playlist) load(args []any) (bool, error) {
	str := func(i int) string {
		if i >= len(args) {
			return ""
		}
		s, _ := ipc.String(args[i])
		return s
	}
	url, mode := str(0), str(1)
	if url == "" || url == "-" {
		return false, fmt.Errorf("%w: loadfile: a file or URL (standard input plays alone)", ipc.ErrInvalidParameter)
	}
	// mpv 0.38 put an INDEX before OPTIONS; older mpv took OPTIONS third.
	opts := str(2)
	if _, err := strconv.Atoi(opts); err == nil || len(args) > 3 {
		opts = str(3)
	}
	in := input{url: url, name: filepath.Base(url)}
	if err := in.setOptions(opts); err != nil {
		return false, err
	}
	idle := l.Pos() < 0
	switch mode {
	case "", "replace":
		l.items, l.i = []input{in}, -1
		l.goTo(0)
		return true, nil
	case "append", "append-play":
		l.items = append(l.items, in)
		if mode == "append-play" && idle {
			l.goTo(len(l.items) - 1)
			return true, nil
		}
		return false, nil
	case "insert-next", "insert-next-play":
		at := l.i + 1
		if idle {
			at = len(l.items)
		}
		l.items = append(l.items[:at:at], append([]input{in}, l.items[at:]...)...)
		if mode == "insert-next-play" {
			l.goTo(at)
			return true, nil
		}
		return false, nil
	}
	return false, fmt.Errorf("%w: loadfile: mode replace, append, append-play, insert-next or insert-next-play", ipc.ErrInvalidParameter)
}

// setOptions reads loadfile's per-file options (start=T,pause=yes); others are refused.
func (in *input) setOptions(opts string) error {
	if opts == "" {
		return nil
	}
	for _, kv := range strings.Split(opts, ",") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "start":
			t, err := parseTime(v)
			if err != nil {
				return fmt.Errorf("%w: loadfile: %v", ipc.ErrInvalidParameter, err)
			}
			in.start = &t
		case "pause":
			p := v == "yes" || v == "" || v == "true"
			if !p && v != "no" && v != "false" {
				return fmt.Errorf("%w: loadfile: pause=%s: yes or no", ipc.ErrInvalidParameter, v)
			}
			in.pause = &p
		default:
			return fmt.Errorf("%w: loadfile: option %q: start and pause are taken", ipc.ErrInvalidParameter, k)
		}
	}
	return nil
}

// ipcEvent sends an event when there is an IPC server.
func ipcEvent(srv *ipc.Server, name string, fields map[string]any) {
	if srv != nil {
		srv.Event(name, fields)
	}
}

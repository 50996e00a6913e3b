package main

import (
	"errors"
	"path/filepath"

	"github.com/ycbcrkit/ycbcrkit/player/ipc"
)

// playlist is the command line's inputs in order, and the one playing: the IPC's playlist
// properties and its loadfile and playlist-next/-prev (player.Playlist). Read and changed on the
// player's thread only (between frames), and by run between files.
type playlist struct {
	items []input
	i     int
}

func (l *playlist) Pos() int   { return l.i }
func (l *playlist) Count() int { return len(l.items) }

// Path is the playing input as the command line gave it ("-" for standard input).
func (l *playlist) Path() string {
	if l.i < 0 || l.i >= len(l.items) {
		return ""
	}
	if in := l.items[l.i]; !in.stdin {
		return in.url
	}
	return "-"
}

// Load is mpv's loadfile: "replace" makes url the whole list (it plays next: the list's index is
// put before it), "append" and "append-play" add it at the end.
func (l *playlist) Load(url, mode string) (bool, error) {
	if url == "" || url == "-" {
		return false, errors.New("loadfile: a file or URL (standard input plays alone)")
	}
	in := input{url: url, name: filepath.Base(url)}
	switch mode {
	case "replace":
		l.items, l.i = []input{in}, -1
		return true, nil
	case "append", "append-play":
		l.items = append(l.items, in)
		return false, nil
	}
	return false, errors.New("loadfile: mode replace, append or append-play")
}

// ipcEvent sends an event when there is an IPC server.
func ipcEvent(srv *ipc.Server, name string, fields map[string]any) {
	if srv != nil {
		srv.Event(name, fields)
	}
}

package main

import (
	"fmt"

	"github.com/ycbcrkit/ycbcrkit/internal/avx"
	"github.com/ycbcrkit/ycbcrkit/player"
	"github.com/ycbcrkit/ycbcrkit/player/watchlater"
)

// resume starts the play where an earlier quit kept the position (-save-position-on-quit, Q),
// unless -start says otherwise or -no-resume; the position is forgotten once used, as mpv does.
// resumable: the input is a file whose position can be kept (not a pipe, not the default clip).
func (f *playing) resume(cfg *player.Config) (resumable bool) {
	in := f.in
	if in.stdin || avx.IsFIFO(in.url) || in.name == "default clip" {
		return false
	}
	if f.o.resume.off || f.o.resume.startGiven {
		return true
	}
	pos, ok, err := watchlater.Load(watchlater.Dir(), in.url)
	if err != nil {
		fmt.Fprintf(f.stderr, "notice: %v\n", err)
	} else if ok {
		cfg.Playback.Start = pos
		fmt.Fprintf(f.stderr, "notice: %s: resuming at %.3f s (the position kept at the last quit; -no-resume ignores it)\n", in.name, pos)
		if err := watchlater.Delete(watchlater.Dir(), in.url); err != nil {
			fmt.Fprintf(f.stderr, "notice: %v\n", err)
		}
	}
	return true
}

// keep keeps the position where playback ended, when Q asked for it (Stats.SavePosition) or
// -save-position-on-quit and the user quit.
func (f *playing) keep(st *player.Stats) {
	if !st.SavePosition && !(f.o.resume.save && st.End == player.EndQuit) {
		return
	}
	if err := watchlater.Save(watchlater.Dir(), f.in.url, st.Position); err != nil {
		fmt.Fprintf(f.stderr, "notice: %v\n", err)
	} else {
		fmt.Fprintf(f.stderr, "notice: %s: position %.3f s kept for the next play\n", f.in.name, st.Position)
	}
}

package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ycbcrkit/ycbcrkit/subtitle"
)

// subOptions are the subtitle flags, as mpv's: -sid, -sub-file (repeatable), -sub-delay, -sub-scale.
type subOptions struct {
	sid   int // -1: auto (mpv's rules), 0: no, else the track
	files fileList
	delay float64
	scale float64
}

// fileList is a repeatable flag's values.
type fileList []string

func (l *fileList) String() string     { return strings.Join(*l, ",") }
func (l *fileList) Set(v string) error { *l = append(*l, v); return nil }

// parseSID reads -sid: auto, no, or a track number from 1.
func parseSID(v string) (int, error) {
	switch v {
	case "auto":
		return -1, nil
	case "no":
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("bad -sid %q: auto, no or a subtitle track number from 1", v)
	}
	return n, nil
}

// libassNotice is printed once per process, not once per file of a list.
var libassNotice sync.Once

// openSubtitles finds url's subtitle tracks (its own, when it is a local file: pipes and network
// inputs are read once), the -sub-file files and those beside it with its base name (mpv's
// sub-auto=exact), and selects -sid's. Nil when there are none; problems are notices. timeout
// (-timeout) bounds each blocking call on a file, the wait for a named pipe's writer included;
// stop ends the open (a signal).
func openSubtitles(url string, pipe bool, origin float64, o subOptions, timeout time.Duration, stop <-chan struct{}, stderr io.Writer) *subtitle.Subtitles {
	local := !pipe && !strings.Contains(url, "://")
	if fi, err := os.Stat(url); err != nil || !fi.Mode().IsRegular() {
		local = false
	}
	files := append([]string(nil), o.files...)
	if local {
		files = append(files, subtitle.Beside(url)...)
	}
	if !local && len(files) == 0 {
		return nil
	}
	opening, opened := whileOpening(stop)
	s, err := subtitle.Open(url, subtitle.Options{Embedded: local, Origin: origin, Files: files, Timeout: timeout, Stop: opening,
		Log: func(format string, args ...any) { fmt.Fprintf(stderr, "notice: "+format+"\n", args...) }})
	opened()
	if err != nil {
		fmt.Fprintf(stderr, "notice: no subtitles: %v\n", err)
		return nil
	}
	tracks := s.Tracks()
	if len(tracks) == 0 {
		s.Close()
		return nil
	}
	if n := s.Notice(); n != "" {
		libassNotice.Do(func() { fmt.Fprintln(stderr, "notice: "+n) })
	}
	if o.sid >= 0 {
		if err := s.Select(o.sid); err != nil {
			fmt.Fprintf(stderr, "notice: -sid %d: the input has %d subtitle track(s)\n", o.sid, len(tracks))
			s.Select(0)
		}
	}
	s.SetDelay(o.delay)
	s.SetScale(o.scale)
	return s
}

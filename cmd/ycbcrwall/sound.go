package main

import (
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ycbcrkit/ycbcrkit/audio"
	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
	"github.com/ycbcrkit/ycbcrkit/wall"
)

// sound plays the sound of the tile the window shows alone (the picked tile), where its input has
// one, through PulseAudio (package audio, as ycbcrplay's sound). Its audio comes from a decoder of
// its own (decode.AudioDecoder: a second demuxer on the tile's URL, a second connection to a
// network source), opened on a goroutine when the tile is picked and closed when the grid comes
// back or another tile is picked: the tiles' decoders and the display loop do no audio work at
// all, and none is done while no tile is picked.
//
// The tile keeps its own clock (the picture does not follow the sound, as ycbcrplay's does), and
// the sound is started on it: made ready, corked, at a time primeAhead beyond where the tile's
// clock is (wall.Media), and uncorked at the display step where the clock reaches that time, less
// the sink's latency. Opening the input and the server's stream, however long they take, then
// delay nothing that is heard. Each pause of the wall corks it. Where the sound heard and the
// tile's clock part by more than resyncAfter (a looped input's next play, a stall), it is made
// ready again ahead of the clock. A live feed's sound plays as it arrives on its own connection,
// from that start on (a live source cannot be sought); one that a second reader cannot open (a
// unicast UDP or RTP port, an SRT listener, a pipe) has none, said once in a notice.
type sound struct {
	w      *wall.Wall
	volume float64
	notice func(string)
	// live and rtsp are -live and -rtsp-transport, for the sound's own connection.
	live   decode.LiveMode
	rtsp   string
	tile   int          // the tile followed; -1: the grid
	cur    *tileSound   // its sound, opening or playing; nil: none
	none   map[int]bool // tiles found without sound ("no sound" on their label)
	closes sync.WaitGroup
}

// soundLatency is the output's buffer (audio.Config.TargetLatency, mpv's default --audio-buffer):
// room for its feeder to be late. It fills while the output waits, corked, so it delays nothing.
const soundLatency = 200 * time.Millisecond

// primeAhead is how far beyond the tile's clock a sound is made ready: time to open the input
// (a file's) and the server's stream and to fill the buffer. Where that took longer, the tile's
// clock has passed the start and it is made ready again from there.
const primeAhead = 300 * time.Millisecond

// resyncAfter is how far the sound heard may be from the tile's clock before it is made ready
// again, and resyncEvery how often that is looked at, from settle after each start (the first
// milliseconds of an output have no position yet).
const (
	resyncAfter = 150 * time.Millisecond
	resyncEvery = 250 * time.Millisecond
	settle      = 300 * time.Millisecond
)

// tileSound is one picked tile's sound: opened on a goroutine, made ready, then played.
type tileSound struct {
	tile   int
	live   bool
	stop   chan struct{} // closed: given up (interrupts the open and the decoder)
	opened chan struct{} // closed by the opener: dec, out, at and err are set
	dec    *decode.AudioDecoder
	out    *audio.Output
	err    error
	// at is the media time the output starts at, corked while waiting for the tile's clock to
	// reach it; taken: the opener is done and the display loop took the result.
	at                 float64
	taken, waiting     bool
	paused             bool // what the output was last told, once playing
	restarted, checked time.Time
	media              float64 // the tile's time at the step before (playing)
}

func newSound(w *wall.Wall, o options, notice func(string)) *sound {
	return &sound{w: w, volume: float64(o.volume) / 100, notice: notice, live: o.live, rtsp: o.rtsp, tile: -1, none: map[int]bool{}}
}

// follow is called at each display step with the tile shown alone (-1: the grid) and whether the
// wall is paused; it returns the line the tile's label adds ("no sound"), if any.
func (s *sound) follow(tile int, paused bool, now time.Time) string {
	if tile != s.tile {
		s.drop()
		s.tile = tile
	}
	if tile < 0 {
		return ""
	}
	if s.none[tile] {
		return "no sound"
	}
	media, playing := s.w.Media(tile, now)
	if !playing { // before its first picture, or ended: nothing to hear
		s.drop()
		return ""
	}
	if s.cur == nil {
		if s.cur = s.open(tile, media, paused, now); s.cur == nil {
			s.none[tile] = true
			return "no sound"
		}
	}
	ts := s.cur
	if !ts.taken {
		select {
		case <-ts.opened:
		default:
			return ""
		}
		ts.taken, ts.waiting, ts.paused = true, true, true
		if ts.err != nil {
			return s.fail(tile, ts.err)
		}
	}
	if ts.waiting {
		if paused {
			return ""
		}
		// Uncorked at the step the clock reaches the start, less what the sink holds before it
		// is heard (the server's timing of the stream).
		sink := ts.out.Stats().Sink.Seconds()
		switch {
		case media >= ts.at-sink && media < ts.at+resyncAfter.Seconds():
			if err := ts.out.Pause(false); err != nil {
				return s.fail(tile, err)
			}
			ts.waiting, ts.paused, ts.restarted, ts.checked, ts.media = false, false, now, now, media
		case media >= ts.at || media < ts.at-2*primeAhead.Seconds():
			// Passed (a slow start), or the clock went back (a looped input's next play).
			return s.prime(ts, media)
		}
		return ""
	}
	if paused != ts.paused {
		if err := ts.out.Pause(paused); err != nil {
			return s.fail(tile, err)
		}
		ts.paused, ts.restarted = paused, now
	}
	back := media < ts.media-resyncAfter.Seconds() // a looped input's next play
	ts.media = media
	if back && !ts.live {
		return s.prime(ts, media)
	}
	if ts.live || paused || now.Sub(ts.restarted) < settle || now.Sub(ts.checked) < resyncEvery {
		return ""
	}
	ts.checked = now
	if pos, ok := ts.out.Position(); ok && math.Abs(pos-media) > resyncAfter.Seconds() {
		// The tile's clock moved away from the sound (a stall, a play longer than its sound).
		return s.prime(ts, media)
	}
	return ""
}

// prime makes ts's output ready again, corked, primeAhead beyond media; a live feed's sound, which
// cannot be sought, starts from where it is.
func (s *sound) prime(ts *tileSound, media float64) string {
	ts.at, ts.waiting, ts.paused = media+primeAhead.Seconds(), true, true
	if err := ts.out.Pause(true); err != nil {
		return s.fail(ts.tile, err)
	}
	if ts.live {
		ts.waiting, ts.paused = false, false
		if err := ts.out.Pause(false); err != nil {
			return s.fail(ts.tile, err)
		}
		return ""
	}
	if err := ts.out.Seek(ts.at); err != nil {
		return s.fail(ts.tile, err)
	}
	return ""
}

// fail gives tile up: no sound, with a notice unless it has no audio stream.
func (s *sound) fail(tile int, err error) string {
	if !errors.Is(err, decode.ErrNoAudio) {
		s.notice(fmt.Sprintf("%s: no sound: %v", s.name(tile), err))
	}
	s.none[tile] = true
	s.drop()
	return "no sound"
}

// open starts opening tile's sound on a goroutine, made ready primeAhead beyond media (the tile's
// time at now); nil when the tile cannot have one (a notice says why).
func (s *sound) open(tile int, media float64, paused bool, now time.Time) *tileSound {
	info := s.w.Info(tile)
	if why := readOnce(info.URL); why != "" {
		s.notice(fmt.Sprintf("%s: no sound: %s", s.name(tile), why))
		return nil
	}
	ts := &tileSound{tile: tile, live: decode.IsLive(info.URL) || s.live == decode.LiveYes, stop: make(chan struct{}),
		opened: make(chan struct{})}
	name, tileName := "ycbcrwall "+s.w.Label(tile), s.name(tile)
	ao := decode.AudioOptions{Related: info.StreamIndex, Origin: info.Start, Stop: ts.stop, Live: s.live, RTSPTransport: s.rtsp,
		Log: func(line string) { s.notice(tileName + " sound: " + line) }}
	go func() {
		defer close(ts.opened)
		dec, err := decode.OpenAudio(info.URL, ao)
		if err != nil {
			ts.err = err
			return
		}
		at := media + primeAhead.Seconds()
		if !paused {
			at += time.Since(now).Seconds()
		}
		var src audio.Source = dec
		if ts.live {
			src = &asArrives{dec: dec, at: at}
		} else if err := dec.Seek(max(at, 0)); err != nil {
			dec.Close()
			ts.err = err
			return
		}
		ai := dec.Info()
		out, err := audio.Open(src, ai.OutRate, ai.OutChannels, audio.Config{Name: name, Start: at,
			TargetLatency: soundLatency, Volume: s.volume, Muted: s.volume == 0, Paused: true})
		if err != nil {
			dec.Close()
			ts.err = err
			return
		}
		ts.dec, ts.out, ts.at = dec, out, at
	}()
	return ts
}

// drop stops the sound followed, if any: at once (the output's stream is closed, what it had queued
// unheard), its decoder closed once its opener is done, on a goroutine of its own.
func (s *sound) drop() {
	ts := s.cur
	if ts == nil {
		return
	}
	s.cur = nil
	close(ts.stop)
	s.closes.Add(1)
	go func() {
		defer s.closes.Done()
		<-ts.opened
		if ts.out != nil {
			ts.out.Close()
		}
		if ts.dec != nil {
			ts.dec.Close()
		}
	}()
}

// close stops the sound and waits until every output is closed.
func (s *sound) close() {
	s.drop()
	s.closes.Wait()
}

func (s *sound) name(tile int) string { return fmt.Sprintf("tile %d (%s)", tile+1, s.w.Label(tile)) }

// readOnce says why a second reader cannot open u, or "": standard input and named pipes are read
// once, by the tile's decoder; a unicast UDP or RTP URL and an SRT listener bind a local port,
// which the tile's decoder holds (a second socket on it, with SO_REUSEADDR, would take the
// datagrams from the first: socket(7)). A multicast group can be joined twice.
func readOnce(u string) string {
	if u == "-" || strings.HasPrefix(u, "pipe:") || avx.IsFIFO(u) {
		return "the pipe is read once, by the tile's decoder"
	}
	scheme, _, ok := strings.Cut(u, "://")
	if !ok {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	switch strings.ToLower(scheme) {
	case "udp", "rtp":
		if ip := net.ParseIP(p.Hostname()); ip == nil || !ip.IsMulticast() {
			return fmt.Sprintf("%s is unicast: its port takes one reader, the tile's decoder", strings.ToLower(scheme))
		}
	case "srt":
		if p.Query().Get("mode") == "listener" {
			return "an SRT listener takes one caller, the tile's decoder"
		}
	}
	return ""
}

// asArrives plays a live feed's sound as its connection gives it: its first chunk at the media
// time at (the tile's clock then), the rest after it, whatever the
// timestamps of a second connection (an RTSP session's own) say.
type asArrives struct {
	dec   *decode.AudioDecoder
	at    float64
	shift float64
	set   bool
}

func (a *asArrives) Next() (*decode.Chunk, error) {
	c, err := a.dec.Next()
	if err != nil {
		return nil, err
	}
	if !a.set {
		a.shift, a.set = a.at-c.PTS, true
	}
	c.PTS += a.shift
	return c, nil
}

func (a *asArrives) Seek(float64) error { return errors.New("a live feed's sound cannot be sought") }

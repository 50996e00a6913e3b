package decode

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// CaptureLog takes FFmpeg's log off stderr for the whole process, from now on. Each message at
// warning level or more severe is counted for the decoder whose demuxer, protocol or codec (or one
// of their threads) logged it, and that decoder's Options.Log receives a summary at most once a
// second: "12 corrupt packets (mpegts) in the last second". Messages of no such decoder (one opened
// without Options.Log, an AudioDecoder, a filter graph, a hardware device) are summarised the same
// way to other, or dropped when other is nil. FFmpeg's own text never reaches stderr.
//
// Programs call it once, before opening inputs; a program that wants FFmpeg's lines as they are
// (ycbcrplay -v) does not call it.
//
// A later call replaces other, handing out what the one before had counted (CaptureLog(nil) at
// the end of a program says what is left).
func CaptureLog(other func(summary string)) {
	var s *logSink
	if other != nil {
		s = newLogSink(other)
	}
	otherLog.Swap(s).close()
	avx.CaptureLog(routeLog)
}

// LogWindow is how long a summary's counts gather: the first message after a quiet time starts a
// window, and its summary goes out when the window ends (or the decoder closes).
const LogWindow = time.Second

// logKinds name the messages a live feed's trouble makes, by the start of FFmpeg's format string
// (constant per kind: libavformat/demux.c, mpegts.c, udp.c, rtpdec.c, rtsp.c; libavcodec/h264_slice.c,
// hevc/refs.c), so that a burst reads as one count. Others count as "other FFmpeg messages", with
// the last one's text.
var logKinds = []struct{ prefix, noun string }{
	{"Packet corrupt", "corrupt packets"},
	{"PES packet size mismatch", "damaged PES packets"},
	{"Circular buffer overrun", "UDP buffer overruns"},
	{"Part of datagram lost", "truncated UDP datagrams"},
	{"RTP: missed", "RTP losses"},
	{"RTP: dropping old packet", "late RTP packets"},
	{"max delay reached", "RTP reordering timeouts"},
	{"error while decoding MB", "damaged macroblock rows"},
	{"concealing", "concealments"},
	{"non-existing PPS", "missing parameter sets"},
	{"no frame!", "undecodable pictures"},
	{"Could not find ref with POC", "missing reference pictures"},
}

const otherNoun = "other FFmpeg messages"

// logSink counts one decoder's messages and hands out their summaries.
type logSink struct {
	out func(string)

	mu     sync.Mutex
	counts map[string]int // by noun and item ("corrupt packets\x00mpegts")
	order  []string       // keys in the order first met
	last   string         // the last other message, "item: text"
	timer  *time.Timer
	closed bool
}

func newLogSink(out func(string)) *logSink { return &logSink{out: out, counts: map[string]int{}} }

var (
	otherLog atomic.Pointer[logSink]
	sinksMu  sync.RWMutex
	sinks    = map[uintptr]*logSink{}
)

// routeLog runs on the thread that logged (avx.CaptureLog).
func routeLog(m avx.LogMessage) {
	var s *logSink
	if m.Owner != 0 {
		sinksMu.RLock()
		s = sinks[m.Owner]
		sinksMu.RUnlock()
	}
	if s == nil {
		s = otherLog.Load()
	}
	if s != nil {
		s.add(m)
	}
}

func registerLog(key uintptr, s *logSink) {
	if s == nil || key == 0 {
		return
	}
	sinksMu.Lock()
	sinks[key] = s
	sinksMu.Unlock()
}

func unregisterLog(key uintptr) {
	sinksMu.Lock()
	delete(sinks, key)
	sinksMu.Unlock()
}

func (s *logSink) add(m avx.LogMessage) {
	noun := otherNoun
	for _, k := range logKinds {
		if strings.HasPrefix(m.Format, k.prefix) {
			noun = k.noun
			break
		}
	}
	key := noun + "\x00" + m.Item
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if s.counts[key] == 0 {
		s.order = append(s.order, key)
	}
	s.counts[key]++
	if noun == otherNoun {
		s.last = oneLineText(m.Item + ": " + m.Text)
	}
	if s.timer == nil {
		s.timer = time.AfterFunc(LogWindow, s.flush)
	}
}

// flush hands out the summary of what was counted, if anything.
func (s *logSink) flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.flushLocked()
	}
}

func (s *logSink) flushLocked() {
	s.timer = nil
	if len(s.order) == 0 {
		return
	}
	parts := make([]string, 0, len(s.order))
	for _, key := range s.order {
		noun, item, _ := strings.Cut(key, "\x00")
		p := fmt.Sprintf("%d %s", s.counts[key], noun)
		if noun == otherNoun && s.last != "" {
			p += fmt.Sprintf(" (last: %q)", s.last)
		} else if item != "" {
			p += " (" + item + ")"
		}
		parts = append(parts, p)
	}
	clear(s.counts)
	s.order, s.last = s.order[:0], ""
	s.out(strings.Join(parts, ", ") + " in the last second")
}

// close hands out what is counted and ends the sink: nothing more comes out of it.
func (s *logSink) close() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
	}
	s.flushLocked()
	s.closed = true
}

// discard drops what is counted and ends the sink.
func (s *logSink) discard() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
	}
	clear(s.counts)
	s.order, s.closed = nil, true
}

// oneLineText is FFmpeg's message on one line of at most 100 characters.
func oneLineText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, strings.TrimSpace(s))
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}

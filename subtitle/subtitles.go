package subtitle

import (
	"fmt"
	"image"
	"sync"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/ass"
)

// Options say where a playback's subtitles come from.
type Options struct {
	// Embedded reads the input's own subtitle tracks, on a second demuxer: for files, not for pipes
	// (which cannot be opened twice) or network streams (which would be fetched twice).
	Embedded bool
	// Origin is the input's start time in seconds (decode.Info.Start): embedded tracks' times are
	// moved by it onto the video's clock.
	Origin float64
	// Files are external subtitle files (-sub-file, and Beside's), listed after the embedded tracks.
	// A named pipe among them is read through FFmpeg's pipe protocol, opened without blocking
	// (avx.OpenFIFO), so that Timeout and Stop reach the wait for its writer too.
	Files []string
	// Timeout bounds each blocking call on a file (opening, the wait for a named pipe's writer, each
	// read), as decode.Options.Timeout does the video's: a file that times out is logged and its
	// reading ends. ≤ 0: no limit.
	Timeout time.Duration
	// Stop, once closed, ends Open's waits (a named pipe with no writer, a stalled read) at once.
	// Reading after Open is ended by Close.
	Stop <-chan struct{}
	// Log receives what goes wrong in the background (a file that cannot be read); nil: dropped.
	Log func(format string, args ...any)
}

// Layout is where the overlay goes: an output of W×H pixels whose picture covers Video.
type Layout struct {
	W, H  int
	Video image.Rectangle
}

// Overlay is what shows at a time: one premultiplied RGBA image (Go's image.RGBA), sRGB-encoded,
// whose Rect is its place in the output's pixels.
type Overlay struct {
	Image *image.RGBA
	// Gen changes whenever Image does, so that a drawing pass uploads only new images.
	Gen uint64
}

// Subtitles are a playback's subtitle tracks, the one shown and how.
type Subtitles struct {
	mu     sync.Mutex
	tracks []*track
	files  []*file
	lib    *ass.Lib
	rend   *ass.Renderer
	notice string
	stop   chan struct{}
	wg     sync.WaitGroup
	done   chan struct{}

	sid     int
	hidden  bool
	delay   float64
	scale   float64
	last    key
	overlay *Overlay
	gen     uint64
	scratch []ass.Image
}

// key is what an overlay was made for.
type key struct {
	sid    int
	layout Layout
	scale  float64
	ev     *bitmapEvent
}

// Open finds the subtitle tracks of input (when o.Embedded) and of o.Files, starts reading their
// events in the background, and selects the track mpv would (AutoSelect). A file that cannot be read
// is logged and left out; only a failure to start libass with libass present is an error.
func Open(input string, o Options) (*Subtitles, error) {
	s := &Subtitles{stop: make(chan struct{}), done: make(chan struct{}), scale: 1}
	log := o.Log
	if log == nil {
		log = func(string, ...any) {}
	}
	if err := ass.Load(); err != nil {
		s.notice = fmt.Sprintf("subtitles: %s is not installed: text subtitles are not shown", ass.Library)
	} else {
		var err error
		if s.lib, err = ass.New(); err == nil {
			s.rend, err = s.lib.NewRenderer("sans-serif")
		}
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("subtitle: %w", err)
		}
	}
	add := func(path string, external bool, origin float64) {
		f, tracks, err := openFile(path, external, origin, s.lib, o.Timeout, o.Stop)
		if err != nil {
			select {
			case <-o.Stop: // the program is ending: no notice
			default:
				log("%v", err)
			}
			return
		}
		for _, t := range tracks {
			t.ID = len(s.tracks) + 1
			s.tracks = append(s.tracks, t)
		}
		if f != nil {
			s.files = append(s.files, f)
		}
	}
	if o.Embedded {
		add(input, false, o.Origin)
	}
	for _, p := range o.Files {
		add(p, true, 0)
	}
	hasText := false
	for _, t := range s.tracks {
		hasText = hasText || !t.Image
	}
	if !hasText || s.lib != nil {
		s.notice = ""
	}
	s.sid = AutoSelect(s.Tracks())
	lock := func() func() { s.mu.Lock(); return s.mu.Unlock }
	for _, f := range s.files {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			f.read(s.stop, lock, log)
		}()
	}
	go func() {
		s.wg.Wait()
		close(s.done)
	}()
	return s, nil
}

// Done is closed once every file has been read to its end (or stopped by Close).
func (s *Subtitles) Done() <-chan struct{} { return s.done }

// Notice is the one line to show when text tracks cannot be drawn (libass missing), or "".
func (s *Subtitles) Notice() string { return s.notice }

// Tracks lists the tracks (plain data, for -stats, the info panel and IPC's track-list).
func (s *Subtitles) Tracks() []Track {
	out := make([]Track, len(s.tracks))
	for i, t := range s.tracks {
		out[i] = t.Track
	}
	return out
}

// SID is the selected track's id (0: none; mpv's sid "no").
func (s *Subtitles) SID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sid
}

// Select shows track id (0: none). An id no track has is an error.
func (s *Subtitles) Select(id int) error {
	if id < 0 || id > len(s.tracks) {
		return fmt.Errorf("subtitle: no track %d (%d tracks)", id, len(s.tracks))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sid = id
	return nil
}

// Cycle selects the next track (step 1, mpv's j) or the previous (−1, J), through "none", and
// returns it.
func (s *Subtitles) Cycle(step int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sid = Next(s.sid, len(s.tracks), step)
	return s.sid
}

// Visible says whether the selected track is drawn (mpv's sub-visibility, the v key).
func (s *Subtitles) Visible() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.hidden
}

// SetVisible shows or hides the selected track.
func (s *Subtitles) SetVisible(v bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hidden = !v
}

// SetDelay moves the subtitles later by d seconds (mpv's sub-delay; negative: earlier).
func (s *Subtitles) SetDelay(d float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// SetScale scales text subtitles' fonts (mpv's sub-scale; 1 is their own size).
func (s *Subtitles) SetScale(x float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scale = x
}

// Render is what shows at time now (seconds, the video's clock) laid out for l: nil when nothing
// does. The same *Overlay comes back while nothing changed.
func (s *Subtitles) Render(now float64, l Layout) *Overlay {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hidden || s.sid == 0 || l.W <= 0 || l.H <= 0 || l.Video.Empty() {
		return nil
	}
	t := s.tracks[s.sid-1]
	now -= s.delay
	k := key{sid: s.sid, layout: l, scale: s.scale}
	var img *image.RGBA
	if t.Image {
		k.ev = t.active(now)
		if k == s.last {
			return s.overlay
		}
		if k.ev != nil {
			img = renderBitmap(k.ev, l)
		}
	} else {
		if t.text == nil {
			return nil
		}
		var changed bool
		s.scratch, changed = renderText(s.rend, t.text, now, l, s.scale, s.scratch)
		if !changed && k == s.last {
			return s.overlay
		}
		img = composite(s.scratch, l.W, l.H)
	}
	s.last = k
	s.overlay = nil
	if img != nil {
		s.gen++
		s.overlay = &Overlay{Image: img, Gen: s.gen}
	}
	return s.overlay
}

// Close stops the readers and frees everything.
func (s *Subtitles) Close() {
	if s.stop != nil {
		close(s.stop)
		for _, f := range s.files {
			f.intr.Abort() // a read blocked on a stalled pipe
		}
		s.wg.Wait()
		s.stop = nil
	}
	for _, f := range s.files {
		f.close()
	}
	s.files = nil
	for _, t := range s.tracks {
		t.close()
	}
	if s.rend != nil {
		s.rend.Close()
		s.rend = nil
	}
	if s.lib != nil {
		s.lib.Close()
		s.lib = nil
	}
}

package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"
)

// progress is -headless's status line on a terminal: position / duration, frames, frames per
// second, rewritten in place with a carriage return at most every progressEvery, first after
// progressAfter (a short run prints nothing), and erased at the end. Pipes and files get nothing.
type progress struct {
	w        io.Writer
	duration float64 // seconds, 0 when unknown
	start    time.Time
	last     time.Time
	width    int // of the line on screen, in runes: what clear blanks
}

// Variables, so that a test can show every frame's line.
var (
	progressEvery = 250 * time.Millisecond
	progressAfter = time.Second
)

// newProgress returns the status line for stderr, or nil when stderr is not a terminal. A terminal
// is a character device (os.ModeCharDevice; golang.org/x/term is not a dependency here); a pipe or
// a regular file is not, nor is any writer that is not an *os.File.
func newProgress(stderr io.Writer, duration float64, now time.Time) *progress {
	f, ok := stderr.(*os.File)
	if !ok {
		return nil
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return &progress{w: f, duration: duration, start: now}
}

// frame is called after each presented frame: frames so far, the position in seconds.
func (p *progress) frame(frames int, position float64, now time.Time) {
	if p == nil || now.Sub(p.start) < progressAfter || now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	line := formatProgress(position, p.duration, frames, now.Sub(p.start))
	n := len([]rune(line))
	pad := strings.Repeat(" ", max(0, p.width-n)) // blank what a longer previous line left
	fmt.Fprintf(p.w, "\r%s%s", line, pad)
	p.width = n
}

// clear erases the status line, leaving the cursor at the start of the empty line.
func (p *progress) clear() {
	if p == nil || p.width == 0 {
		return
	}
	fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
	p.width = 0
}

// formatProgress is the status line: "1:02.5 / 3:00.0  1500 frames  48.0 fps" (no duration part
// when it is unknown; no fps before any time has passed).
func formatProgress(position, duration float64, frames int, elapsed time.Duration) string {
	s := clock(position)
	if duration > 0 {
		s += " / " + clock(duration)
	}
	s += fmt.Sprintf("  %d frames", frames)
	if elapsed > 0 {
		s += fmt.Sprintf("  %.1f fps", float64(frames)/elapsed.Seconds())
	}
	return s
}

// clock is seconds as [h:]m:ss.d.
func clock(sec float64) string {
	if math.IsNaN(sec) || sec < 0 {
		sec = 0
	}
	tenths := int64(math.Round(sec * 10))
	h, m, s, d := tenths/36000, tenths/600%60, tenths/10%60, tenths%10
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d.%d", h, m, s, d)
	}
	return fmt.Sprintf("%d:%02d.%d", m, s, d)
}

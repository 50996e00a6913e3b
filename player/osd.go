package player

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/present/osd"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// The on-screen display (the window only; screenshots are the video picture): a progress bar with
// position and duration on a seek, while paused and when the mouse moves; a paused sign; the info
// panel (i); the key list (? or F1); the compare mode's labels; short messages (speed, path,
// screenshot). Its colours are opaque where tests measure them.
var (
	osdText    = color.NRGBA{240, 240, 240, 255}
	osdBox     = color.NRGBA{0, 0, 0, 170}
	osdTrack   = color.NRGBA{60, 60, 60, 255}    // the progress bar's track
	osdFill    = color.NRGBA{230, 230, 230, 255} // the progress bar's played part
	osdMark    = color.NRGBA{255, 200, 60, 255}  // the chapter marks on the bar
	osdPaused  = color.NRGBA{255, 255, 255, 230}
	osdBarShow = 2 * time.Second // how long the bar stays after a seek or a mouse move
)

// osdFontPx is the display's text size in pixels per em.
const osdFontPx = 16

// Bar geometry: the track runs from osdMargin to the width − osdMargin, osdBarH tall, its bottom
// osdMargin above the window's.
const (
	osdMargin = 16
	osdBarH   = 10
)

// osdHelp is the key list (? or F1).
var osdHelp = []string{
	"keys",
	"space        pause / play",
	"← →          seek 5 s (repeats add up)",
	"↑ ↓          seek 60 s",
	". ,          step one frame forward / back",
	"[ ]          speed down / up,  Backspace: 1×",
	"s            screenshot of the picture",
	"p            path: auto, sampler, shader",
	"c            compare: off, split, diff",
	"z 1          zoom fit, 1:1, 2:1 / 1:1 on-off",
	"drag ← → ↑ ↓ move the zoomed picture",
	"i            info panel",
	"j J v        subtitles: next / previous track, show / hide",
	"f            fullscreen",
	"9 0 m        volume down / up, mute",
	"? F1         this list",
	"Enter >  <   next / previous file",
	"PgUp PgDn    next / previous chapter (also @ !)",
	"l            A-B loop: set A, set B, clear",
	"q Esc        quit,  Q: quit keeping the position",
}

// display is the player's on-screen display state.
type display struct {
	pass     *osd.Pass
	subs     *osd.ImagePass // the subtitles' overlay
	shotSubs *osd.ImagePass // the same over screenshots (Player.shotSubtitles), made on first need
	canvas   osd.Canvas
	barUntil time.Time // the progress bar shows until then (seek, mouse)
	info     bool
	help     bool
	msg      string
	msgUntil time.Time
	cx, cy   float64  // the last cursor position seen
	lines    []string // the info panel's last lines (tests compare them with -stats)
	shown    []string // the panel as drawn: fitted to the room the bar and the paused sign leave
	// diff is the measured |sampler − shader| of the picture on screen in diff mode (measureDiff), and
	// when it was measured.
	diff   string
	diffAt time.Time
}

// showBar shows the progress bar for a while.
func (d *display) showBar() { d.barUntil = time.Now().Add(osdBarShow) }

// message shows a line at the top left for a while.
func (d *display) message(s string) {
	d.msg, d.msgUntil = s, time.Now().Add(osdBarShow)
}

// clockText is t as m:ss.s (h:mm:ss.s from an hour on).
func clockText(t float64) string {
	t = math.Max(t, 0)
	h, m := int(t)/3600, int(t)/60%60
	sec := t - float64(int(t)/60*60)
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%04.1f", h, m, sec)
	}
	return fmt.Sprintf("%d:%04.1f", m, sec)
}

// drawOSD is the renderer's overlay: the display's quads for this frame, over the whole target.
func (p *Player) drawOSD(cb vk.CommandBuffer, slot int, t ycbcr.Target, w, h int) error {
	d := &p.osd
	if d.pass == nil {
		return nil
	}
	if err := p.drawSubtitles(cb, slot, t, w, h); err != nil { // under the display's own text
		return err
	}
	c := &d.canvas
	c.Reset()
	now := time.Now()
	f := c.Font
	lh := f.LineHeight
	p.labelCompare(c, w, h)
	if d.msg != "" && now.Before(d.msgUntil) {
		c.Panel(osdMargin, osdMargin, 6, []string{d.msg}, osdText, osdBox)
	}
	if p.paused {
		// The paused sign: two bars, top right.
		x, y, bh := w-osdMargin-26, osdMargin, 28
		c.Rect(x-4, y-4, x+30, y+bh+4, osdBox)
		c.Rect(x+2, y, x+10, y+bh, osdPaused)
		c.Rect(x+16, y, x+24, y+bh, osdPaused)
	}
	if p.paused || now.Before(d.barUntil) {
		pos, dur := p.position(), p.duration()
		x0, x1 := osdMargin, w-osdMargin
		y1 := h - osdMargin
		y0 := y1 - osdBarH
		label := clockText(pos)
		if dur > 0 {
			label += " / " + clockText(dur)
		}
		if p.paused {
			label += "  (paused)"
		}
		if sp := p.pace.speed; sp != 1 {
			label += fmt.Sprintf("  %.2g×", sp)
		}
		c.Rect(x0-6, y0-lh-10, x1+6, y1+6, osdBox)
		c.Text(x0, y0-lh-4, label, osdText)
		c.Rect(x0, y0, x1, y1, osdTrack)
		if dur > 0 {
			c.Rect(x0, y0, x0+int(math.Round(float64(x1-x0)*math.Min(math.Max(pos/dur, 0), 1))), y1, osdFill)
			// Chapter marks, as mpv's OSC draws them: a tick at each chapter's start, above and below
			// the track.
			for _, ch := range p.src.Info().Chapters {
				if ch.Start > 0 && ch.Start < dur {
					x := x0 + int(math.Round(float64(x1-x0)*ch.Start/dur))
					c.Rect(x-1, y0-3, x+1, y1+3, osdMark)
				}
			}
		}
	}
	if d.info {
		d.lines = p.infoLines()
		y := osdMargin
		if d.msg != "" && now.Before(d.msgUntil) {
			y += lh + 2*6 + 4
		}
		// The panel leaves the paused sign (top right) and the bar with its time label (bottom)
		// uncovered: lines that do not fit above the bar end in "…".
		right, bottom := w-osdMargin, h
		if p.paused {
			right = w - osdMargin - 26 - 4 - osdMargin/2
		}
		if p.paused || now.Before(d.barUntil) {
			bottom = h - osdMargin - osdBarH - lh - 10 - osdMargin/2
		}
		d.shown = fitPanel(f.Fit(d.lines, right-osdMargin-16), (bottom-y-16)/lh)
		if len(d.shown) > 0 {
			c.Panel(osdMargin, y, 8, d.shown, osdText, osdBox)
		}
	}
	if d.help {
		bw := 0
		for _, l := range osdHelp {
			bw = max(bw, f.Width(l))
		}
		bh := len(osdHelp) * lh
		c.Panel(max(0, (w-bw)/2-10), max(0, (h-bh)/2-10-lh), 10, f.Fit(osdHelp, w-20), osdText, osdBox)
	}
	return d.pass.Draw(cb, slot, t, w, h, c.Quads)
}

// labelCompare names the compare mode's halves: split shows the sampler path left of the middle of
// the picture and the shader path right of it; diff their amplified difference.
func (p *Player) labelCompare(c *osd.Canvas, w, h int) {
	r := p.rend
	if r.active == CompareOff || r.format == nil || p.last == nil {
		return
	}
	x, y, vw, _ := Letterbox(w, h, p.last.aspect())
	y += osdMargin
	if p.paused {
		y += 40 // below the paused sign
	}
	switch r.active {
	case CompareSplit:
		c.Panel(x+osdMargin, y, 6, []string{"sampler"}, osdText, osdBox)
		lw := c.Font.Width("shader") + 12
		c.Panel(x+vw-osdMargin-lw, y, 6, []string{"shader"}, osdText, osdBox)
		c.Rect(x+vw/2, y, x+vw/2+1, y+c.Font.LineHeight+12, osdText) // the seam
	case CompareDiff:
		lines := []string{fmt.Sprintf("|sampler − shader| ×%d", DiffGain)}
		if p.osd.diff != "" {
			lines = append(lines, p.osd.diff)
		}
		c.Panel(x+osdMargin, y, 6, lines, osdText, osdBox)
	}
}

// position is the time of the picture on screen (seconds).
func (p *Player) position() float64 {
	if p.last == nil {
		return 0
	}
	return p.last.PTS
}

// duration is the input's duration (seconds; 0 when unknown).
func (p *Player) duration() float64 { return p.src.Info().Duration }

// infoLines are the info panel's labelled fields, from the same figures -stats prints.
func (p *Player) infoLines() []string {
	st := p.stats
	p.fill(&st)
	if ds, ok := p.src.(DeviceSource); ok {
		d := ds.Decoding()
		st.Decoder, st.HWDec, st.HWDecReason, st.HWDecRoute = d.Decoder, hwdecName(d.Decode), d.Reason, p.hwRoute(d.Decode)
	}
	dec := "software decoding"
	switch st.HWDec {
	case "vulkan":
		dec = "hardware (vulkan) decoding"
	case "upload":
		dec = "software decoding, uploaded into Vulkan frames"
	}
	codec := st.Decoder
	if codec == "" {
		codec = "-"
	}
	el := time.Since(p.start).Seconds()
	lines := []string{
		"file        " + p.src.Info().Name,
		"codec       " + codec + ", " + dec,
		fmt.Sprintf("format      %s %dx%d → %s", st.PixelFormat, p.rend.width, p.rend.height, strings.ReplaceAll(st.VkFormat, "VK_FORMAT_", "")),
		fmt.Sprintf("colour      matrix %s, range %s, siting %s", st.Matrix, st.Range, st.ChromaLocation),
		fmt.Sprintf("            primaries %s, transfer %s", st.Primaries, st.Transfer),
		"path        " + st.Path + ": " + st.PathReason,
		"conversion  " + st.Conversion,
		"upload      " + st.Upload,
		"quality     dither " + st.Dither + ", deband " + st.Deband,
	}
	if st.HDRPeak != "" {
		lines = append(lines, "HDR peak    "+st.HDRPeak)
	}
	lines = append(lines,
		fmt.Sprintf("frames      %.1f fps shown, %d dropped", float64(st.FramesPresented)/el, st.FramesDropped),
		fmt.Sprintf("GPU         %.2f ms per frame", st.GPUMsPerFrame))
	return append(lines, p.subtitleLines()...)
}

// fitPanel keeps the first n lines, the last of them "…" when some are left out.
func fitPanel(lines []string, n int) []string {
	switch {
	case n <= 0:
		return nil
	case len(lines) <= n:
		return lines
	}
	return append(lines[:n-1:n-1], "…")
}

package player

import (
	"errors"
	"fmt"
	"image"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/present/osd"
	"github.com/ycbcrkit/ycbcrkit/subtitle"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Subtitles: the selected track (Config.Subtitles) drawn over the picture in the display's pass at
// the window's resolution, and by the same GPU pass over screenshots at the video's (as mpv's
// screenshot mode "subtitles"); its text is laid out in the picture's letterboxed place, whatever
// the zoom.

// subtitleTime is the subtitles' time of the picture on screen.
func (p *Player) subtitleTime() float64 { return p.position() }

// drawSubtitles records the overlay of the picture on screen into the display's pass, in the
// output's colour space.
func (p *Player) drawSubtitles(cb vk.CommandBuffer, slot int, t ycbcr.Target, w, h int) error {
	s := p.cfg.Subtitles.Source
	if s == nil || p.osd.subs == nil || p.last == nil {
		return nil
	}
	x, y, vw, vh := Letterbox(w, h, p.last.aspect())
	o := s.Render(p.subtitleTime(), subtitle.Layout{W: w, H: h, Video: image.Rect(x, y, x+vw, y+vh)})
	if o == nil {
		return nil
	}
	return p.osd.subs.Draw(cb, slot, t, w, h, o.Image, p.cfg.Colour.HDROutput)
}

// shotSubtitles draws the subtitles of the picture's time over a screenshot of the whole picture,
// with the display's GPU pass (osd.ImagePass), as mpv's screenshot renders them through its
// renderer: what the screenshot shows is what that pass draws. The pass has a slot of its own
// (display.shotSubs), free after each screenshot, which waits for its submission.
func (p *Player) shotSubtitles(img *image.RGBA) (*image.RGBA, error) {
	s := p.cfg.Subtitles.Source
	if s == nil || img == nil {
		return img, nil
	}
	b := img.Rect
	o := s.Render(p.subtitleTime(), subtitle.Layout{W: b.Dx(), H: b.Dy(), Video: b})
	if o == nil {
		return img, nil
	}
	if p.osd.shotSubs == nil {
		var err error
		if p.osd.shotSubs, err = osd.NewImagePass(p.dev, 1); err != nil {
			return nil, err
		}
	}
	return p.dev.DrawOver(img, func(cb vk.CommandBuffer, t *gpu.Offscreen) error {
		return p.osd.shotSubs.Draw(cb, 0, t, b.Dx(), b.Dy(), o.Image, p.cfg.Colour.HDROutput)
	})
}

// Subtitle commands (mpv's j, J, v, and its sid and sub-visibility properties).
type (
	// CycleSubtitles selects the next track (Step 1: j) or the previous (−1: J), through none.
	CycleSubtitles struct{ Step int }
	// SetSubtitles selects track ID (0: none).
	SetSubtitles struct{ ID int }
	// SubtitleVisibility shows or hides the selected track (v).
	SubtitleVisibility struct{ Switch Switch }
)

func (CycleSubtitles) command()     {}
func (SetSubtitles) command()       {}
func (SubtitleVisibility) command() {}

// errNoSubtitles refuses the subtitle commands for an input without subtitle tracks.
var errNoSubtitles = errors.New("no subtitles")

// subtitleCommand runs the commands of this file (Player.control calls it for them).
func (p *Player) subtitleCommand(c Command) error {
	s := p.cfg.Subtitles.Source
	switch c := c.(type) {
	case CycleSubtitles:
		if s == nil {
			p.osd.message("Subtitles: none in this file")
			return errNoSubtitles
		}
		p.showSubtitles(s.Cycle(c.Step))
	case SetSubtitles:
		if s == nil {
			return errNoSubtitles
		}
		if err := s.Select(c.ID); err != nil {
			return err
		}
		p.showSubtitles(c.ID)
	case SubtitleVisibility:
		if s == nil {
			return errNoSubtitles
		}
		s.SetVisible(c.Switch.of(s.Visible()))
		p.osd.message(map[bool]string{true: "Subtitles visible", false: "Subtitles hidden"}[s.Visible()])
	default:
		return fmt.Errorf("player: unknown command %T", c)
	}
	return nil
}

// showSubtitles says which track is selected, on the display and the log.
func (p *Player) showSubtitles(id int) {
	name := subtitleName(p.cfg.Subtitles.Source.Tracks(), id)
	p.osd.message("Subtitles: " + name)
	p.logf("sid: %s", name)
}

// subtitleName is track id's label, or "no".
func subtitleName(tracks []subtitle.Track, id int) string {
	if id < 1 || id > len(tracks) {
		return "no"
	}
	return tracks[id-1].Label()
}

// fillSubtitles puts the tracks and the one shown into the figures.
func (p *Player) fillSubtitles(st *Stats) {
	s := p.cfg.Subtitles.Source
	if s == nil {
		st.SubtitlesVisible = true // mpv's sub-visibility: an option, yes by default, tracks or not
		return
	}
	st.SubtitleTracks, st.SID = s.Tracks(), s.SID()
	st.SubtitlesVisible = s.Visible()
}

// subtitleLines are the info panel's lines about subtitles.
func (p *Player) subtitleLines() []string {
	s := p.cfg.Subtitles.Source
	if s == nil {
		return []string{"subtitles   none"}
	}
	tracks := s.Tracks()
	shown := subtitleName(tracks, s.SID())
	if !s.Visible() {
		shown += " (hidden)"
	}
	lines := []string{"subtitles   " + shown}
	for _, t := range tracks {
		if t.ID != s.SID() { // the others: the one shown is on the first line
			lines = append(lines, "            "+t.Label())
		}
	}
	return lines
}

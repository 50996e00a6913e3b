package player

import (
	"fmt"
	"math"
)

// Chapters, the A-B loop and quitting with the position kept, as mpv has them (mpv's manual,
// "Keyboard Control" and --ab-loop-a, --ab-loop-b, --save-position-on-quit).

// More commands.
type (
	// ChapterSeek goes Delta chapters on from the one playing (PgUp, @: 1; PgDn, !: -1), as mpv's
	// "add chapter": back from inside a chapter goes to its start first when more than a second in.
	ChapterSeek struct{ Delta int }
	// ChapterSet goes to chapter Index (from 0).
	ChapterSet struct{ Index int }
	// CycleABLoop is the l key: set A at the picture on screen, then B, then clear both.
	CycleABLoop struct{}
	// SetABLoop sets A and B (NaN: unset); the loop runs while both are set.
	SetABLoop struct{ A, B float64 }
	// QuitSave quits, asking the program to keep the position (Q; Stats.SavePosition).
	QuitSave struct{}
)

func (ChapterSeek) command() {}
func (ChapterSet) command()  {}
func (CycleABLoop) command() {}
func (SetABLoop) command()   {}
func (QuitSave) command()    {}

// abLoop is the A-B loop's points (NaN: unset).
type abLoop struct{ a, b float64 }

func noABLoop() abLoop { return abLoop{math.NaN(), math.NaN()} }

func (l abLoop) active() bool { return !math.IsNaN(l.a) && !math.IsNaN(l.b) && l.b > l.a }

// control runs the commands of this file (Player.do calls it for them).
func (p *Player) control(c Command) (ended bool, refused error) {
	switch c := c.(type) {
	case ChapterSeek:
		return false, p.chapterSeek(c.Delta)
	case ChapterSet:
		return false, p.chapterSet(c.Index)
	case CycleABLoop:
		pos := p.position()
		switch {
		case math.IsNaN(p.ab.a):
			p.ab.a = pos
			p.osd.message(fmt.Sprintf("A-B loop: A %s", clockText(pos)))
		case math.IsNaN(p.ab.b):
			p.ab.b = pos
			p.osd.message(fmt.Sprintf("A-B loop: %s - %s", clockText(p.ab.a), clockText(pos)))
		default:
			p.ab = noABLoop()
			p.osd.message("A-B loop cleared")
		}
		p.logf("ab-loop: A %s, B %s", abText(p.ab.a), abText(p.ab.b))
	case SetABLoop:
		p.ab = abLoop{c.A, c.B}
	case QuitSave:
		p.stats.SavePosition = true
		p.stats.End = EndQuit
		return true, nil
	default:
		return false, p.subtitleCommand(c)
	}
	return false, nil
}

func abText(t float64) string {
	if math.IsNaN(t) {
		return "no"
	}
	return fmt.Sprintf("%.3f", t)
}

// chapter is the index of the chapter playing at pos (-1 before the first, or without chapters).
func chapterAt(chs []Chapter, pos float64) int {
	i := -1
	for j, c := range chs {
		// A frame's PTS may fall a hair before its chapter's start (rounding of the time bases).
		if pos+1e-3 >= c.Start {
			i = j
		}
	}
	return i
}

// chapterSeek goes delta chapters on; back from more than a second into a chapter goes to its
// start (mpv's "add chapter -1" does so too).
func (p *Player) chapterSeek(delta int) error {
	chs := p.src.Info().Chapters
	if len(chs) == 0 {
		p.osd.message("no chapters")
		return fmt.Errorf("no chapters")
	}
	pos := p.dec.from(p.position())
	cur := chapterAt(chs, pos)
	if delta < 0 && cur >= 0 && pos-chs[cur].Start > 1 {
		delta++
	}
	return p.chapterSet(cur + delta)
}

// chapterSet goes to chapter i; past the last one, to the input's end as mpv does (which ends it).
func (p *Player) chapterSet(i int) error {
	chs := p.src.Info().Chapters
	if len(chs) == 0 {
		return fmt.Errorf("no chapters")
	}
	if i >= len(chs) {
		p.osd.message("end of the chapters")
		if d := p.duration(); d > 0 {
			return p.seekTo(d)
		}
		return nil
	}
	i = max(i, 0)
	title := chs[i].Title
	if title == "" {
		title = fmt.Sprintf("chapter %d", i+1)
	}
	p.osd.message(fmt.Sprintf("%s (%d/%d)", title, i+1, len(chs)))
	p.logf("chapter: %d/%d %s at %.3f s", i+1, len(chs), chs[i].Title, chs[i].Start)
	return p.seekTo(chs[i].Start)
}

// loopAB seeks back to A once the picture shown reaches B (pts the frame just shown).
func (p *Player) loopAB(pts float64) {
	if p.ab.active() && pts >= p.ab.b && !p.dec.seeking {
		p.seekTo(p.ab.a)
	}
}

package audio

import (
	"math"

	"github.com/ycbcrkit/ycbcrkit/decode"
)

// joinTolerance: chunks this close to where the stream is are played as they are.
const joinTolerance = 0.002

// Timeline keeps a run of chunks on the media timeline: sample n of what Place returns, over all
// calls, is media time Start + n/Rate. A chunk that starts after the running position is preceded
// by silence (a track starting after the video, a hole in the stream); one that starts before it
// (an overlap, or samples before Start) is cut.
type Timeline struct {
	Rate, Channels int
	// Next is the media time of the next sample; set it to the start time first.
	Next float64
	// Silence and Cut count the sample frames inserted and dropped.
	Silence, Cut int64
}

// Place returns c's samples as they go on the timeline: silence first, or cut, and advances Next.
func (l *Timeline) Place(c *decode.Chunk) []float32 {
	n := len(c.Samples) / l.Channels
	var out []float32
	switch gap := c.PTS - l.Next; {
	case n == 0:
		return nil
	case gap > joinTolerance:
		k := int(math.Round(gap * float64(l.Rate)))
		out = append(make([]float32, k*l.Channels, (k+n)*l.Channels), c.Samples...)
		l.Silence += int64(k)
	case gap < -joinTolerance:
		k := min(int(math.Round(-gap*float64(l.Rate))), n)
		out = c.Samples[k*l.Channels:]
		l.Cut += int64(k)
	default:
		out = c.Samples
	}
	l.Next += float64(len(out)/l.Channels) / float64(l.Rate)
	return out
}

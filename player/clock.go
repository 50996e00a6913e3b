package player

import (
	"math"
	"sort"
	"time"

	"github.com/ycbcrkit/ycbcrkit/audio"
)

// Clock is a master clock the video follows instead of the wall clock: audio.Output is one (the
// position of the sound being heard), an engine's own audio another. Position's ok is false while
// the clock has not started (the sound's first samples are still on their way to the device).
//
// The player holds the clock (Pause(true)) before a seek and releases it once the first frame at the
// target is shown, as it does after the first frame of all: open the clock paused, so that the
// sound starts under the first picture rather than while the window opens.
type Clock interface {
	Position() (seconds float64, ok bool)
	Pause(paused bool) error
	Seek(seconds float64) error
}

// volumeControl is what the keys 9, 0 and m need from a Clock that plays sound.
type volumeControl interface {
	Volume() (float64, bool)
	SetVolume(v float64, muted bool) error
}

// AudioInfo describes the sound for -stats.
type AudioInfo struct {
	Codec    string `json:"codec"`
	Rate     int    `json:"rate"`
	Channels int    `json:"channels"`
}

// AudioStats is -stats' "audio": the stream, and the output's measured latency (the delay from
// writing a sample to hearing it: queued samples plus the device's own latency).
type AudioStats struct {
	AudioInfo
	Device           string  `json:"device,omitempty"`
	DeviceLatencyMs  float64 `json:"device_latency_ms"`
	LatencyMaxMs     float64 `json:"device_latency_max_ms"`
	SinkLatencyMs    float64 `json:"sink_latency_ms"`
	Underflows       int     `json:"underflows"`
	SilenceInsertedS float64 `json:"silence_inserted_s"`
}

// OffsetStats is -stats' "av_offset_ms": video PTS minus the audio position at each presented
// frame, in milliseconds. Mean is signed (positive: the picture is early); P95 and Max are of the
// absolute value.
type OffsetStats struct {
	Frames int     `json:"frames"`
	Mean   float64 `json:"mean"`
	P95    float64 `json:"p95"`
	Max    float64 `json:"max"`
}

// offsets collects the A/V offsets.
type offsets struct{ v []float64 }

func (o *offsets) add(s float64) { o.v = append(o.v, s) }

func (o *offsets) stats() *OffsetStats {
	if len(o.v) == 0 {
		return nil
	}
	abs := make([]float64, len(o.v))
	sum := 0.0
	for i, x := range o.v {
		sum += x
		abs[i] = math.Abs(x)
	}
	sort.Float64s(abs)
	p95 := abs[min(len(abs)-1, int(math.Ceil(0.95*float64(len(abs))))-1)]
	ms := func(s float64) float64 { return math.Round(s*1e5) / 100 }
	return &OffsetStats{Frames: len(o.v), Mean: ms(sum / float64(len(o.v))), P95: ms(p95), Max: ms(abs[len(abs)-1])}
}

// audioStats fills -stats' audio from the clock, when it is an audio.Output.
func (p *Player) audioStats() *AudioStats {
	if p.cfg.Sound.Clock == nil {
		return nil
	}
	s := &AudioStats{AudioInfo: p.cfg.Sound.Info}
	if o, ok := p.cfg.Sound.Clock.(interface{ Stats() audio.Stats }); ok {
		st := o.Stats()
		ms := func(d time.Duration) float64 { return math.Round(float64(d.Microseconds())/10) / 100 }
		s.Device, s.DeviceLatencyMs, s.LatencyMaxMs, s.SinkLatencyMs = st.Device, ms(st.Latency), ms(st.LatencyMax), ms(st.Sink)
		s.Underflows, s.SilenceInsertedS = st.Underflows, st.Silence.Seconds()
	}
	return s
}

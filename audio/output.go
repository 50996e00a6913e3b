package audio

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/internal/pulse"
)

// Source gives the chunks to play; *decode.AudioDecoder is one.
type Source interface {
	Next() (*decode.Chunk, error)
	Seek(seconds float64) error
}

// Config tunes an Output.
type Config struct {
	// Name is the stream's name on the server (what a mixer shows).
	Name string
	// Start is the media time the output starts at: samples before it are cut, a track starting
	// later is preceded by silence.
	Start float64
	// Volume is the stream volume, 1 being 100 %; Muted mutes it.
	Volume float64
	Muted  bool
	// Paused starts the output corked.
	Paused bool
	// TargetLatency is the buffer's target, device included; 0 means 200 ms (mpv's default
	// --audio-buffer): room for the feeder to be late on a loaded machine without an underrun. The
	// latency is measured, so its size does not move the clock.
	TargetLatency time.Duration
	// Resample lets SetSpeed play the sound faster or slower by a small ratio (the player's
	// display-synced timing): the server resamples the stream (PA_STREAM_VARIABLE_RATE), so an
	// output that does not need it leaves it off and its samples reach the sink unconverted.
	Resample bool
	// Samples, when set, sees each run of samples as it is queued for playback, with its media time.
	Samples func(pts float64, samples []float32)
}

// Stats describe the output.
type Stats struct {
	Server, Device string
	Rate, Channels int
	// Latency is the mean delay from writing a sample to hearing it (pulse.Stream.Delay: queued
	// samples plus the sink's latency) over the Position calls while the stream played, LatencyMax
	// its largest. Sink is the device's part (the last timing
	// update's sink_usec).
	Latency, LatencyMax, Sink time.Duration
	Underflows                int
	Silence                   time.Duration // silence inserted for gaps (a late track start)
	Cut                       time.Duration // samples dropped for overlaps and before Start
}

// Output plays a Source through PulseAudio.
type Output struct {
	src      Source
	rate, ch int
	cfg      Config
	ctx      *pulse.Context

	mu      sync.Mutex
	st      *pulse.Stream
	base    float64   // media time of the stream's first sample
	written int64     // frames written to st
	eof     bool      // the source is exhausted: everything it had is written
	endAt   time.Time // when the last sample was heard (zero before)
	endPos  float64   // the position at endAt (moved on by pauses after the end)
	paused  bool
	err     error // the feeder's failure
	volume  float64
	muted   bool
	// playRate is the rate the server plays the stream at (rate, or rate × SetSpeed's ratio).
	playRate int

	latSum  time.Duration
	latN    int
	latMax  time.Duration
	under   int // underflows of closed streams
	silence int64
	cut     int64

	quit chan struct{}
	done chan struct{}
}

// Open connects to the PulseAudio server and starts playing src (interleaved float32 at rate with
// ch channels) from cfg.Start. An error means no sound: the library or the server is missing.
func Open(src Source, rate, ch int, cfg Config) (*Output, error) {
	ctx, err := pulse.Connect(cfg.Name)
	if err != nil {
		return nil, fmt.Errorf("audio: %w", err)
	}
	o := &Output{src: src, rate: rate, ch: ch, cfg: cfg, ctx: ctx, paused: cfg.Paused, volume: cfg.Volume, muted: cfg.Muted, playRate: rate}
	if err := o.startStream(cfg.Start); err != nil {
		ctx.Close()
		return nil, err
	}
	return o, nil
}

// startStream creates a stream whose first sample is media time base and starts the feeder.
func (o *Output) startStream(base float64) error {
	target := o.cfg.TargetLatency
	if target <= 0 {
		target = 200 * time.Millisecond
	}
	o.mu.Lock()
	playRate := o.playRate
	o.mu.Unlock()
	st, err := o.ctx.NewStream(pulse.StreamOptions{Name: o.cfg.Name, Rate: playRate, Channels: o.ch,
		TargetLatency: target, Volume: o.volume, Muted: o.muted, Corked: o.paused, Variable: o.cfg.Resample})
	if err != nil {
		return fmt.Errorf("audio: %w", err)
	}
	o.mu.Lock()
	o.st, o.base, o.written, o.eof, o.err = st, base, 0, false, nil
	o.quit, o.done = make(chan struct{}), make(chan struct{})
	o.mu.Unlock()
	go o.feed(st, base, o.quit, o.done)
	return nil
}

// stopStream ends the feeder and closes the stream.
func (o *Output) stopStream() {
	o.mu.Lock()
	st, quit, done := o.st, o.quit, o.done
	o.mu.Unlock()
	if st == nil {
		return
	}
	close(quit)
	st.Wake()
	<-done
	o.mu.Lock()
	o.under += st.Underflows()
	st.Close()
	o.st = nil
	o.mu.Unlock()
}

// timingRefresh is how old the server's timing may get before Position asks for a new update.
const timingRefresh = 20 * time.Millisecond

// endTolerance: a position this close to the end of the last sample written counts as the end.
const endTolerance = 0.001

// feed writes the source's chunks to st, keeping sample n of the stream at media time base + n/rate.
func (o *Output) feed(st *pulse.Stream, base float64, quit <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	fail := func(err error) {
		o.mu.Lock()
		o.err = err
		o.mu.Unlock()
	}
	var pending []float32
	line := Timeline{Rate: o.rate, Channels: o.ch, Next: base}
	for {
		select {
		case <-quit:
			return
		default:
		}
		if len(pending) == 0 {
			c, err := o.src.Next()
			if errors.Is(err, io.EOF) {
				// A stream shorter than the prebuffer would otherwise never start.
				if err := st.Trigger(); err != nil {
					fail(err)
					return
				}
				o.mu.Lock()
				o.eof = true
				o.mu.Unlock()
				return
			}
			if err != nil {
				fail(err)
				return
			}
			at := line.Next
			silence, cut := line.Silence, line.Cut
			pending = line.Place(c)
			o.mu.Lock()
			o.silence += line.Silence - silence
			o.cut += line.Cut - cut
			o.mu.Unlock()
			if o.cfg.Samples != nil && len(pending) > 0 {
				o.cfg.Samples(at, pending)
			}
			continue
		}
		n, err := st.Writable()
		if err != nil {
			fail(err)
			return
		}
		if n == 0 {
			st.Wait()
			continue
		}
		n = min(n, len(pending)/o.ch)
		o.mu.Lock()
		err = st.Write(pending[:n*o.ch])
		o.written += int64(n)
		o.mu.Unlock()
		if err != nil {
			fail(err)
			return
		}
		pending = pending[n*o.ch:]
	}
}

// Position is the media time being heard now: Base + written/rate − latency, between Base and the
// end of what was written; after the last sample, the end plus the wall-clock time since. ok is
// false while the server has no timing for the stream yet (the first milliseconds), and after a
// failure (Err says which).
func (o *Output) Position() (pos float64, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.st == nil || o.err != nil {
		return 0, false
	}
	if !o.endAt.IsZero() {
		if o.paused {
			return o.endPos, true
		}
		return o.endPos + time.Since(o.endAt).Seconds(), true
	}
	end := o.base + float64(o.written)/float64(o.rate)
	lat, playing, err := o.st.Delay(o.written, timingRefresh)
	if err != nil {
		return o.base, false
	}
	if playing {
		o.latSum += lat
		o.latN++
		o.latMax = max(o.latMax, lat)
	}
	// The delay is the server's, at the rate it plays: in media time, the speed times as much.
	pos = end - lat.Seconds()*float64(o.playRate)/float64(o.rate)
	if o.eof && pos >= end-endTolerance && !o.paused {
		// Everything written has been heard: go on with the wall clock.
		o.endAt, o.endPos = time.Now(), end
		return end, true
	}
	return math.Max(o.base, math.Min(pos, end)), true
}

// Pause corks (true) or uncorks the stream: the position stops and resumes with the sound. On the
// wall clock after the end, pausing holds the position as well.
func (o *Output) Pause(paused bool) error {
	o.mu.Lock()
	if o.paused == paused {
		o.mu.Unlock()
		return nil
	}
	if !o.endAt.IsZero() {
		// Past the end: the wall-clock position holds while paused.
		if paused {
			o.endPos += time.Since(o.endAt).Seconds()
		} else {
			o.endAt = time.Now()
		}
	}
	o.paused = paused
	st := o.st
	o.mu.Unlock()
	if st == nil {
		return nil
	}
	if err := st.Cork(paused); err != nil {
		return fmt.Errorf("audio: %w", err)
	}
	return nil
}

// Seek restarts playback at media time t (a new stream: the queued samples are dropped).
func (o *Output) Seek(t float64) error {
	o.stopStream()
	if err := o.src.Seek(t); err != nil {
		return fmt.Errorf("audio: %w", err)
	}
	o.mu.Lock()
	o.endAt = time.Time{}
	o.mu.Unlock()
	return o.startStream(t)
}

// SetSpeed plays the sound at ratio times its rate from now on (the output must be opened with
// Config.Resample), to the nearest whole Hz: the player's display-synced timing asks for a few
// tenths of a percent. Position stays media time.
func (o *Output) SetSpeed(ratio float64) error {
	if !o.cfg.Resample {
		return errors.New("audio: set speed: the output was opened without Config.Resample")
	}
	if ratio <= 0 || math.IsNaN(ratio) {
		return fmt.Errorf("audio: set speed %v", ratio)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	r := int(math.Round(float64(o.rate) * ratio))
	if r == o.playRate {
		return nil
	}
	o.playRate = r
	if o.st == nil {
		return nil
	}
	if err := o.st.SetRate(r); err != nil {
		return fmt.Errorf("audio: %w", err)
	}
	return nil
}

// SetVolume sets the volume (1 is 100 %) and mute.
func (o *Output) SetVolume(v float64, muted bool) error {
	o.mu.Lock()
	o.volume, o.muted = v, muted
	st := o.st
	o.mu.Unlock()
	if st == nil {
		return nil
	}
	if err := st.SetVolume(v, muted); err != nil {
		return fmt.Errorf("audio: %w", err)
	}
	return nil
}

// Volume returns the volume and mute state.
func (o *Output) Volume() (float64, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.volume, o.muted
}

// Ended reports whether every sample of the source has been heard.
func (o *Output) Ended() bool {
	o.Position()
	o.mu.Lock()
	defer o.mu.Unlock()
	return !o.endAt.IsZero()
}

// Err is the failure that stopped playback, if any.
func (o *Output) Err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// Stats returns the output's figures so far.
func (o *Output) Stats() Stats {
	o.mu.Lock()
	defer o.mu.Unlock()
	s := Stats{Server: o.ctx.Server(), Rate: o.rate, Channels: o.ch, LatencyMax: o.latMax, Underflows: o.under,
		Silence: time.Duration(float64(o.silence) / float64(o.rate) * float64(time.Second)),
		Cut:     time.Duration(float64(o.cut) / float64(o.rate) * float64(time.Second))}
	if o.latN > 0 {
		s.Latency = o.latSum / time.Duration(o.latN)
	}
	if o.st != nil {
		s.Device = o.st.Device()
		s.Underflows += o.st.Underflows()
		if t, err := o.st.Timing(); err == nil {
			s.Sink = t.Sink
		}
	}
	return s
}

// Close stops playback and disconnects.
func (o *Output) Close() {
	o.stopStream()
	if o.ctx != nil {
		o.ctx.Close()
		o.ctx = nil
	}
}

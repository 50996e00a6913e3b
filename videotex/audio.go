package videotex

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/ycbcrkit/ycbcrkit/audio"
	"github.com/ycbcrkit/ycbcrkit/decode"
)

// AudioOptions ask Open to decode the input's audio as well and hand it to the engine, which plays
// it through its own mixer. The engine's audio is then the clock: pass its playback position (what
// the mixer has had heard: samples handed to the device less the device's latency) to Acquire, or
// set Options.Clock and call AcquireClock, and the pictures follow the sound.
type AudioOptions struct {
	// Track chooses the stream: 0 is FFmpeg's best, N the N-th audio stream (from 1).
	Track int
	// Rate and Channels are the format handed out (interleaved float32): 0 keeps the stream's rate,
	// and mono, making everything else stereo.
	Rate, Channels int
	// Samples receives the audio in order on the package's audio goroutine, with the media time of
	// its first sample on Acquire's clock (the first picture is 0). The runs join without gaps: a
	// track that starts after the video begins with silence, samples before the first picture are
	// cut. It may block (a full mixer queue): decoding waits. After the last run it is not called
	// again; with Options.Loop the audio plays once.
	Samples func(pts time.Duration, samples []float32)
}

// AudioInfo describes the audio handed to AudioOptions.Samples; ok is false without one (no
// AudioOptions, or the input has no audio).
func (t *Texture) AudioInfo() (info decode.AudioInfo, ok bool) {
	if t.audio == nil {
		return decode.AudioInfo{}, false
	}
	return t.audio.Info(), true
}

// AcquireClock is Acquire at Options.Clock's time.
func (t *Texture) AcquireClock() (*Frame, error) {
	if t.opts.Clock == nil {
		return nil, errors.New("videotex: AcquireClock needs Options.Clock")
	}
	return t.Acquire(t.opts.Clock())
}

// openAudio opens the audio decoder on the video's clock; the input having no audio is not an error.
func (t *Texture) openAudio(url string) error {
	o := t.opts.Audio
	if o.Samples == nil {
		return errors.New("AudioOptions.Samples is nil")
	}
	a, err := decode.OpenAudio(url, decode.AudioOptions{Track: o.Track, Related: t.info.StreamIndex, Origin: t.info.Start,
		Rate: o.Rate, Channels: o.Channels, Timeout: t.opts.Decode.Timeout})
	if errors.Is(err, decode.ErrNoAudio) && o.Track == 0 {
		return nil
	}
	if err != nil {
		return err
	}
	t.audio = a
	t.audioDone = make(chan struct{})
	return nil
}

// audioLoop hands the audio to the engine, from media time 0 (the first picture's PTS, which Open has
// waited for) on.
func (t *Texture) audioLoop(first float64) {
	defer close(t.audioDone)
	info := t.audio.Info()
	line := audio.Timeline{Rate: info.OutRate, Channels: info.OutChannels, Next: first}
	for {
		select {
		case <-t.audioQuit:
			return
		default:
		}
		c, err := t.audio.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.fail(fmt.Errorf("audio: %w", err))
			return
		}
		at := line.Next
		if s := line.Place(c); len(s) > 0 {
			t.opts.Audio.Samples(time.Duration((at-first)*float64(time.Second)), s)
		}
	}
}

package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/ycbcrkit/ycbcrkit/audio"
	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/player"
)

// sound is the audio side of a playback: its decoder and output (the player's master clock).
type sound struct {
	dec *decode.AudioDecoder
	out *audio.Output
}

// openSound opens url's audio (the best stream, or -aid's N-th) on the video's clock and starts it
// through PulseAudio. No sound is not an error: a file without audio plays silently, and a missing
// library or server gives one notice line; nil is returned then.
//
// stop ends the open (a second connection to a URL that stalls) as it ends the video's.
func openSound(url, name string, video decode.Info, o options, stop <-chan struct{}, stderr io.Writer) *sound {
	opening, opened := whileOpening(stop)
	so := o.sound
	dec, err := decode.OpenAudio(url, decode.AudioOptions{Track: so.aid, Related: video.StreamIndex, Origin: video.Start,
		Timeout: o.decode.timeout, Stop: opening})
	opened()
	if err != nil {
		if errors.Is(err, decode.ErrNoAudio) && so.aid == 0 || errors.Is(err, decode.ErrInterrupted) && stopped(stop) {
			return nil
		}
		fmt.Fprintf(stderr, "notice: no sound: %v\n", err)
		return nil
	}
	info := dec.Info()
	out, err := audio.Open(dec, info.OutRate, info.OutChannels, audio.Config{Name: "ycbcrplay " + name,
		Volume: float64(so.volume) / 100, Muted: so.volume == 0 || so.mute, Paused: true,
		Resample: o.cfg.Playback.VideoSync == player.SyncDisplayResample}) // the player starts it under the first frame
	if err != nil {
		dec.Close()
		fmt.Fprintf(stderr, "notice: no sound (%s, %d Hz, %d channels): %v; playing video alone\n", info.Codec, info.Rate, info.Channels, err)
		return nil
	}
	return &sound{dec: dec, out: out}
}

func (s *sound) info() player.AudioInfo {
	i := s.dec.Info()
	return player.AudioInfo{Codec: i.Codec, Rate: i.Rate, Channels: i.Channels}
}

func (s *sound) close() {
	s.out.Close()
	s.dec.Close()
}

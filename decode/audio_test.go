package decode

import (
	"errors"
	"io"
	"math"
	"path/filepath"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/soundtest"
)

// decodeAudio decodes the whole stream, checking that chunks join without gaps or overlaps.
func decodeAudio(t *testing.T, a *AudioDecoder) (first float64, samples []float32) {
	t.Helper()
	info := a.Info()
	next := math.NaN()
	for {
		c, err := a.Next()
		if errors.Is(err, io.EOF) {
			return first, samples
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Samples) == 0 {
			continue
		}
		if math.IsNaN(next) {
			first = c.PTS
		} else if math.Abs(c.PTS-next) > 0.5/float64(info.OutRate) {
			t.Fatalf("chunk at %.6fs, want %.6fs (the end of the one before)", c.PTS, next)
		}
		next = c.PTS + float64(c.Frames(info.OutChannels))/float64(info.OutRate)
		samples = append(samples, c.Samples...)
	}
}

func maxDiff(a, b []float32) (float64, int) {
	worst, at := 0.0, -1
	for i := range a {
		if d := math.Abs(float64(a[i]) - float64(b[i])); d > worst {
			worst, at = d, i
		}
	}
	return worst, at
}

// TestAudioEqualsFFmpeg: the decoded, resampled samples equal the same FFmpeg build's ffmpeg program
// decoding the same stream to the same format (an independent pipeline: its own demuxer, decoder
// and aresample filter), for the AAC clip at its own rate and resampled to 44.1 kHz mono.
func TestAudioEqualsFFmpeg(t *testing.T) {
	dir := t.TempDir()
	clip := soundtest.Clip(t, dir, 3, 0)
	for _, tc := range []struct {
		rate, channels int
		tol            float64 // swresample's float resampler vs. the same with the CLI's filter graph
	}{{0, 0, 0}, {44100, 1, 1e-6}} {
		a, err := OpenAudio(clip, AudioOptions{Rate: tc.rate, Channels: tc.channels, Related: -1})
		if err != nil {
			t.Fatal(err)
		}
		info := a.Info()
		if info.Codec != "aac" || info.Rate != soundtest.Rate || info.Channels != 2 || info.Track != 1 {
			t.Fatalf("info %+v: want aac, 48000 Hz, 2 channels, track 1 (the clip's construction)", info)
		}
		first, got := decodeAudio(t, a)
		a.Close()
		want := soundtest.Reference(t, clip, info.OutRate, info.OutChannels)
		if first != 0 {
			t.Errorf("%d Hz: first sample at %.6fs, want 0", info.OutRate, first)
		}
		if len(got) != len(want) {
			t.Fatalf("%d Hz %d ch: %d samples, ffmpeg gives %d", info.OutRate, info.OutChannels, len(got), len(want))
		}
		if d, at := maxDiff(got, want); d > tc.tol {
			t.Fatalf("%d Hz %d ch: sample %d differs from ffmpeg's by %g", info.OutRate, info.OutChannels, at, d)
		}
	}
}

// TestAudioSeekAndOrigin: on a lossless (PCM) track timed in samples, Seek lands on the exact sample, and a track
// that starts 0.5 s after the video has its beeps on the video's whole seconds.
func TestAudioSeekAndOrigin(t *testing.T) {
	dir := t.TempDir()
	src := soundtest.Clip(t, dir, 4, 0)
	pcm := filepath.Join(dir, "pcm.mov") // MOV times audio in samples; Matroska rounds to 1 ms
	ffmpegMake(t, "-i", src, "-c:v", "copy", "-c:a", "pcm_f32le", pcm)
	want := soundtest.Reference(t, pcm, soundtest.Rate, 2)

	a, err := OpenAudio(pcm, AudioOptions{Related: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, target := range []float64{2.5, 1.25, 3.999} {
		if err := a.Seek(target); err != nil {
			t.Fatal(err)
		}
		first, got := decodeAudio(t, a)
		if math.Abs(first-target) > 0.5/soundtest.Rate {
			t.Errorf("seek to %gs: first chunk at %.6fs", target, first)
		}
		off := int(math.Round(target*soundtest.Rate)) * 2
		if len(got) != len(want)-off {
			t.Fatalf("seek to %gs: %d samples to the end, want %d", target, len(got), len(want)-off)
		}
		if d, at := maxDiff(got, want[off:]); d != 0 {
			t.Fatalf("seek to %gs: sample %d differs by %g", target, at, d)
		}
	}

	late := soundtest.Clip(t, dir, 3, 0.5)
	v, err := Open(late, Options{})
	if err != nil {
		t.Fatal(err)
	}
	vi := v.Info()
	v.Close()
	b, err := OpenAudio(late, AudioOptions{Origin: vi.Start, Related: vi.StreamIndex})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// The track starts near 0.5 s (the encoder's priming samples come first, and the muxer may keep
	// them); what the clip's construction fixes is that its beeps start on whole seconds of the video's
	// clock. AAC's pre-echo may move an onset early by a few samples.
	first, got := decodeAudio(t, b)
	if first < 0.45 || first > 0.5+0.5/soundtest.Rate {
		t.Errorf("delayed track: first sample at %.6fs, want 0.5 or the priming before it", first)
	}
	onsets := soundtest.Onsets(got, 2, soundtest.Rate, 0.05, 0.5)
	if len(onsets) != 2 {
		t.Fatalf("delayed track: beeps at %v (from the first sample), want 2", onsets)
	}
	for i, o := range onsets {
		if at := first + o; math.Abs(at-float64(i+1)) > 0.002 {
			t.Errorf("delayed track: beep %d starts at %.6fs, want %d s", i+1, at, i+1)
		}
	}
}

func TestAudioMissing(t *testing.T) {
	dir := t.TempDir()
	src := soundtest.Clip(t, dir, 1, 0)
	silent := filepath.Join(dir, "silent.mp4")
	ffmpegMake(t, "-i", src, "-c", "copy", "-an", silent)
	if _, err := OpenAudio(silent, AudioOptions{Related: -1}); !errors.Is(err, ErrNoAudio) {
		t.Fatalf("file without audio: %v, want ErrNoAudio", err)
	}
	if _, err := OpenAudio(src, AudioOptions{Track: 2}); !errors.Is(err, ErrNoAudio) {
		t.Fatalf("track 2 of a file with one: %v, want ErrNoAudio", err)
	}
}

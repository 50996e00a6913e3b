package main

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/soundtest"
	"github.com/ycbcrkit/ycbcrkit/player"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// The sound tests play the beep clips of internal/testkit/soundtest (a white flash and a 1 kHz beep from each
// whole second) in a window, with the sound going to a private PulseAudio server's null sink, and
// record that sink's monitor with parec. What they expect comes from the clips' construction (beeps
// 1.000 s apart, on whole seconds of the video's clock) and from the same FFmpeg build's ffmpeg
// program decoding the clip on its own (soundtest.Reference), never from the player's own output;
// the one figure of the player's own that is checked is its av_offset_ms, against mpv's resync
// threshold (20 ms).

const rate = soundtest.Rate

type soundStats struct {
	FramesPresented int `json:"frames_presented"`
	FramesDropped   int `json:"frames_dropped"`
	Audio           *struct {
		Codec           string  `json:"codec"`
		Rate            int     `json:"rate"`
		Channels        int     `json:"channels"`
		DeviceLatencyMs float64 `json:"device_latency_ms"`
		Silence         float64 `json:"silence_inserted_s"`
		Underflows      int     `json:"underflows"`
	} `json:"audio"`
	AV *player.OffsetStats `json:"av_offset_ms"`
}

func needDisplay(t *testing.T) {
	t.Helper()
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
}

// checkOffsets holds the player's A/V offsets to mpv's resync threshold.
func checkOffsets(t *testing.T, st soundStats) {
	t.Helper()
	if st.AV == nil || st.Audio == nil {
		t.Fatalf("stats have no audio or av_offset_ms: %+v", st)
	}
	t.Logf("frames %d presented, %d dropped; audio %+v; av_offset_ms %+v", st.FramesPresented, st.FramesDropped, *st.Audio, *st.AV)
	if st.AV.P95 > 20 || math.Abs(st.AV.Mean) > 5 {
		t.Errorf("av_offset_ms %+v: want p95 ≤ 20 and |mean| ≤ 5", *st.AV)
	}
}

// checkSpacing: consecutive onsets in want (indexes into on) are 1.000 s apart within 2 ms.
func checkSpacing(t *testing.T, on []float64, from, to int) {
	t.Helper()
	defer func() {
		if t.Failed() {
			t.Logf("onsets: %.4f", on)
		}
	}()
	for i := from + 1; i <= to; i++ {
		if d := on[i] - on[i-1]; math.Abs(d-1) > 0.002 {
			t.Errorf("beeps %d and %d are %.6f s apart in the recording, want 1.000 ± 0.002", i-1, i, d)
		}
	}
}

// checkSame: from the recording's onset at recAt (seconds) on, for seconds, the recording equals
// the reference from its beep at refBeep (whole seconds) on.
func checkSame(t *testing.T, rec, ref []float32, recAt float64, refBeep int, seconds float64) {
	t.Helper()
	refOn := soundtest.Onsets(ref[refBeep*rate*2:], 2, rate, 0.05, 0.5)
	if len(refOn) == 0 {
		t.Fatalf("reference: no beep at %d s", refBeep)
	}
	seg := ref[refBeep*rate*2:]
	seg = seg[:min(len(seg), int(seconds*rate)*2)]
	guess := int(math.Round((recAt - refOn[0]) * rate))
	lag, r := soundtest.Align(rec, seg, 2, guess, 96, rate)
	n := min(len(seg), len(rec)-2*lag)
	worst := 0.0
	for i := 0; i < n; i++ {
		worst = math.Max(worst, math.Abs(float64(rec[2*lag+i])-float64(seg[i])))
	}
	t.Logf("from beep %d s: recording at sample %d, correlation %.7f over %.3f s, largest difference %g", refBeep, lag, r, float64(n)/2/rate, worst)
	if r < 0.9999 || n < len(seg)-2*rate/100 {
		t.Errorf("from beep %d s: recording vs. ffmpeg's decode: correlation %.7f over %d of %d samples", refBeep, r, n, len(seg))
	}
}

// TestSoundSync60s is the check: a minute of beeps and flashes, played in a window with sound.
// (1) the beeps in the recording are 1.000 s apart within 2 ms for the whole minute (no drift, no
// lost or doubled samples); (2) the recording equals the same FFmpeg build's decode of the track;
// (3) the player's av_offset_ms has p95 ≤ 20 ms and a mean within ±5 ms; (4) so has the offset
// measured without asking the player, the flashes on the screen against the beeps in the sink
// (measureSync, avsync_test.go), logged beside it.
func TestSoundSync60s(t *testing.T) {
	srv, dir, clip := soundSetup(t, 60, 0)
	ref := soundtest.Reference(t, clip, rate, 2)
	var st soundStats
	m, got := measureSync(t, srv, dir, 60, func() { st = playSoundStats(t, clip) })
	checkMeasured(t, m, st)
	on := soundtest.Onsets(got, 2, rate, 0.05, 0.5)
	if len(on) != 60 {
		t.Fatalf("recording: %d beeps, want 60: %v", len(on), on)
	}
	checkSpacing(t, on, 0, 59)
	if d := on[59] - on[0]; math.Abs(d-59) > 0.002 {
		t.Errorf("first to last beep: %.6f s, want 59.000 ± 0.002", d)
	}
	checkSame(t, got, ref, on[0], 0, 60)
	checkOffsets(t, st)
	if st.Audio.Codec != "aac" || st.Audio.Rate != rate || st.Audio.Channels != 2 || st.Audio.DeviceLatencyMs <= 0 {
		t.Errorf("stats audio %+v: want aac, 48000 Hz, 2 channels (the clip's) and a measured latency", *st.Audio)
	}
}

// playKeys plays clip in a window with sound as ycbcrplay does, calling onFrame after each presented
// frame (to press keys).
func playKeys(t *testing.T, clip string, onFrame func(p *player.Player, n int)) soundStats {
	t.Helper()
	return playIn(t, clip, onFrame, nil)
}

func playIn(t *testing.T, clip string, onFrame func(p *player.Player, n int), wrap func(player.Clock) player.Clock) soundStats {
	t.Helper()
	d, err := decode.Open(clip, decode.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var log bytes.Buffer
	snd := openSound(clip, "test", d.Info(), options{sound: soundOptions{volume: 100}}, nil, &log)
	if snd == nil {
		t.Fatalf("no sound: %s", log.String())
	}
	defer snd.close()
	var clock player.Clock = snd.out
	if wrap != nil {
		clock = wrap(clock)
	}
	st, err := player.Play(&decoderSource{d: d, name: "test"}, player.Config{GPU: player.GPUConfig{Validate: true}, Sound: player.SoundConfig{Clock: clock, Info: snd.info()}, Hooks: player.Hooks{OnFrame: onFrame, Log: &log}})
	if err != nil || log.Len() > 0 {
		t.Fatalf("play: %v: %s", err, log.String())
	}
	b, _ := json.Marshal(st)
	var out soundStats
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSoundSeek seeks forward 5 s (→) at 1.5 s: the beeps before and after are 1 s apart, the
// sound after the seek is the track from there on, and the picture keeps to it.
func TestSoundSeek(t *testing.T) {
	srv, dir, clip := soundSetup(t, 10, 0)
	ref := soundtest.Reference(t, clip, rate, 2)
	rec := srv.Record(t, dir)
	st := playKeys(t, clip, func(p *player.Player, n int) {
		if n == 45 { // PTS 1.467: the seek goes to 6.467, so beeps 0, 1, 7, 8, 9 are heard
			p.Window().Press(window.KeyRight)
		}
	})
	got := rec.Stop(t)
	on := soundtest.Onsets(got, 2, rate, 0.05, 0.5)
	if len(on) != 5 {
		t.Fatalf("recording: beeps at %v, want 5 (0 and 1 s, then 7, 8 and 9 s)", on)
	}
	checkSpacing(t, on, 0, 1)
	checkSpacing(t, on, 2, 4)
	checkSame(t, got, ref, on[0], 0, 1.4)
	checkSame(t, got, ref, on[2], 7, 3)
	checkOffsets(t, st)
}

// TestSoundPause pauses at 1.5 s for about a second: the sound stops and resumes where it was (the
// beeps on each side 1 s apart, the track continuous), and the picture keeps to it.
func TestSoundPause(t *testing.T) {
	srv, dir, clip := soundSetup(t, 6, 0)
	ref := soundtest.Reference(t, clip, rate, 2)
	rec := srv.Record(t, dir)
	st := playKeys(t, clip, func(p *player.Player, n int) {
		if n == 45 {
			w := p.Window()
			w.Press(window.KeySpace)
			time.AfterFunc(time.Second, func() { w.Press(window.KeySpace) })
		}
	})
	got := rec.Stop(t)
	on := soundtest.Onsets(got, 2, rate, 0.05, 0.5)
	if len(on) != 6 {
		t.Fatalf("recording: beeps at %v, want 6", on)
	}
	checkSpacing(t, on, 0, 1)
	if d := on[2] - on[1]; d < 1.8 || d > 2.5 {
		t.Errorf("beeps 1 and 2 are %.3f s apart, want 1 s plus the pause (about 1 s)", d)
	}
	checkSpacing(t, on, 2, 5)
	checkSame(t, got, ref, on[2], 2, 3.9)
	checkOffsets(t, st)
}

// TestSoundLateTrack plays a clip whose audio starts 0.5 s after its video: the output starts with
// that much silence (less the AAC priming the muxer kept, which starts the track at 0.479 s), the
// beeps land on the video's whole seconds and the picture keeps to them.
func TestSoundLateTrack(t *testing.T) {
	srv, dir, clip := soundSetup(t, 4, 0.5)
	st, got := playRecorded(t, srv, dir, clip)
	on := soundtest.Onsets(got, 2, rate, 0.05, 0.5)
	if len(on) != 3 {
		t.Fatalf("recording: beeps at %v, want 3 (1, 2 and 3 s)", on)
	}
	checkSpacing(t, on, 0, 2)
	checkOffsets(t, st)
	if s := st.Audio.Silence; s < 0.45 || s > 0.5 {
		t.Errorf("silence before the track: %.4f s, want 0.5 s less the priming", s)
	}
}

// TestSoundAudioOnly: a file with audio and no video fails with one error line, as before sound
// (no still picture is shown).
func TestSoundAudioOnly(t *testing.T) {
	dir := t.TempDir()
	clip := soundtest.Clip(t, dir, 1, 0)
	m4a := filepath.Join(dir, "audio.m4a")
	soundtest.Run(t, 30*time.Second, "ffmpeg", "-hide_banner", "-loglevel", "error", "-i", clip, "-vn", "-c", "copy", m4a)
	_, stderr, code := play(t, "-headless", "-untimed", m4a)
	if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "no video stream") {
		t.Fatalf("audio-only file: exit %d, stderr %q: want exit 1 and one line naming the missing video", code, stderr)
	}
}

// TestSoundNotWhenUntimedOrAbsent: headless and -untimed runs play no sound and print nothing about
// it; a timed window run without a server says so in one notice line and plays the video alone.
func TestSoundNotWhenUntimedOrAbsent(t *testing.T) {
	dir := t.TempDir()
	clip := soundtest.Clip(t, dir, 1, 0)
	t.Setenv("PULSE_SERVER", "unix:"+filepath.Join(dir, "no-server"))
	for _, args := range [][]string{{"-headless", "-untimed"}, {"-headless"}, {"-untimed"}} {
		if len(args) == 1 && !window.Available() {
			continue
		}
		out, stderr, code := play(t, append(args, "-stats", clip)...)
		if code != 0 || stderr != "" || strings.Contains(out, `"audio"`) {
			t.Errorf("%v: exit %d, stderr %q, stats with audio: %v", args, code, stderr, strings.Contains(out, `"audio"`))
		}
	}
	needDisplay(t)
	out, stderr, code := play(t, "-stats", clip)
	if code != 0 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "notice: no sound") || strings.Contains(out, `"audio"`) {
		t.Fatalf("no server: exit %d, stderr %q: want exit 0 and one notice", code, stderr)
	}
	var st soundStats
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.FramesPresented < 25 {
		t.Fatalf("no server: %v, %d frames presented, want the second's 30", err, st.FramesPresented)
	}
}

// soundSetup is what every sound test in a window starts with: a display, a private PulseAudio with
// a null sink for this process, and the beep/flash clip of the given length and audio delay.
func soundSetup(t *testing.T, seconds int, audioDelay float64) (*soundtest.Server, string, string) {
	t.Helper()
	needDisplay(t)
	srv := soundtest.StartServer(t)
	srv.Setenv(t)
	dir := t.TempDir()
	return srv, dir, soundtest.Clip(t, dir, seconds, audioDelay)
}

// playRecorded plays clip in a window with sound while recording the sink's monitor; the run must
// end cleanly and print nothing on stderr. It returns the player's -stats and the recording.
func playRecorded(t *testing.T, srv *soundtest.Server, dir, clip string) (soundStats, []float32) {
	t.Helper()
	rec := srv.Record(t, dir)
	st := playSoundStats(t, clip)
	return st, rec.Stop(t)
}

// playSoundStats plays clip as ycbcrplay -stats -validate does; the run must end cleanly and print
// nothing on stderr. It returns the -stats.
func playSoundStats(t *testing.T, clip string) soundStats {
	t.Helper()
	out, stderr, code := play(t, "-stats", "-validate", clip)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var st soundStats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

package decode

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/nettest"
)

// corruptTS writes an H.264 MPEG-TS clip with 188-byte packets cut out of its middle: the demuxer's
// continuity counters then mark PES packets corrupt, FFmpeg's "Packet corrupt (stream = 0, dts = …)"
// warning, and the decoder meets broken slices, as a UDP feed with a gap gives them.
func corruptTS(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.ts")
	ffmpegMake(t, "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=2", "-c:v", "libx264",
		"-preset", "ultrafast", "-g", "15", "-pix_fmt", "yuv420p", "-f", "mpegts", clean)
	b, err := os.ReadFile(clean)
	if err != nil {
		t.Fatal(err)
	}
	const pkt = 188
	var out []byte
	for i := 0; i+pkt <= len(b); i += pkt {
		if n := i / pkt; n > len(b)/pkt/3 && n%40 == 0 {
			continue
		}
		out = append(out, b[i:i+pkt]...)
	}
	cut := filepath.Join(dir, "cut.ts")
	if err := os.WriteFile(cut, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return cut
}

// TestLogSummaries: with CaptureLog, FFmpeg's warnings about a damaged TS input reach that
// decoder's Options.Log as one summary ("N corrupt packets (mpegts) in the last second"), and none
// reach a clean input's decoder opened beside it, nor the catch-all: each message is counted for
// the decoder whose demuxer or codec logged it.
func TestLogSummaries(t *testing.T) {
	var mu sync.Mutex
	got := map[string][]string{}
	add := func(who string) func(string) {
		return func(s string) { mu.Lock(); got[who] = append(got[who], s); mu.Unlock() }
	}
	CaptureLog(add("other"))
	bad, err := Open(corruptTS(t), Options{Threads: 2, Log: add("bad")})
	if err != nil {
		t.Fatal(err)
	}
	good, err := Open(filepath.Join(mediaDir, "default.mkv"), Options{Threads: 2, Log: add("good")})
	if err != nil {
		t.Fatal(err)
	}
	// Interleaved, so that both decoders are open while FFmpeg logs.
	for bad != nil || good != nil {
		for _, d := range []**Decoder{&bad, &good} {
			if *d == nil {
				continue
			}
			f, err := (*d).Next()
			if err != nil {
				(*d).Close() // hands out the last summary
				*d = nil
				continue
			}
			f.Release()
		}
	}
	CaptureLog(nil) // hands out what reached the catch-all
	mu.Lock()
	defer mu.Unlock()
	all := strings.Join(got["bad"], "\n")
	if !strings.Contains(all, "corrupt packets (mpegts)") || !strings.Contains(all, " in the last second") {
		t.Errorf("the damaged input's summaries %q: want its corrupt packets counted", got["bad"])
	}
	if len(got["good"]) != 0 || len(got["other"]) != 0 {
		t.Errorf("summaries for the clean input %q, for no input %q: want none", got["good"], got["other"])
	}
	for _, s := range got["bad"] {
		if strings.Contains(s, "\n") || strings.Contains(s, "@ 0x") {
			t.Errorf("summary %q: want one line, none of FFmpeg's own", s)
		}
	}
	t.Logf("summaries: %q", got["bad"])
}

// TestLiveResumeAfterTimeout: a UDP MPEG-TS feed (FFmpeg's own sender, in real time) that stops for
// longer than Options.Timeout gives ErrTimeout, and the next Next plays the feed again when it comes
// back, without reopening: the interrupted read's sticky end of the I/O context is cleared.
func TestLiveResumeAfterTimeout(t *testing.T) {
	// It mostly waits on the clock: side by side with the others that do (scripts/test-lib.sh, run).
	t.Parallel()
	ff := os.Getenv("YCBCRKIT_FFMPEG")
	if ff == "" {
		t.Skip("YCBCRKIT_FFMPEG not set (scripts/build-ffmpeg.sh --env)")
	}
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first.ts"), filepath.Join(dir, "second.ts")
	for _, c := range []struct {
		file string
		secs int
	}{{first, 2}, {second, 1}} {
		ffmpegMake(t, "-f", "lavfi", "-i", fmt.Sprintf("testsrc2=size=320x180:rate=30:duration=%d", c.secs), "-c:v", "libx264",
			"-preset", "ultrafast", "-g", "15", "-pix_fmt", "yuv420p", "-f", "mpegts", c.file)
	}
	url := "udp://" + nettest.UDPAddr(t)
	send := func(clip string) {
		if b, err := exec.Command(ff, "-hide_banner", "-nostdin", "-loglevel", "error", "-re", "-i", clip, "-c", "copy",
			"-f", "mpegts", url+"?pkt_size=1316").CombinedOutput(); err != nil {
			t.Errorf("sending %s: %v: %s", clip, err, b)
		}
	}
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		time.Sleep(200 * time.Millisecond)
		send(first)
		// Longer than the timeout even where the reader lags the sender (its start is a burst:
		// ffmpeg -re's -readrate_initial_burst, 0.5 s).
		time.Sleep(2 * time.Second)
		send(second)
	}()
	defer func() { <-sent }()
	var d *Decoder
	var err error
	for try := 0; d == nil; try++ { // until the sender has started (as a wall waits for a feed)
		if d, err = Open(url, Options{Threads: 2, Timeout: 400 * time.Millisecond}); err != nil && (try == 10 || !errors.Is(err, ErrTimeout)) {
			t.Fatal(err)
		}
	}
	defer d.Close()
	if !d.Live() {
		t.Error("Live() = false for a udp:// URL")
	}
	var before, after, timeouts int
	for end := time.Now().Add(8 * time.Second); time.Now().Before(end); {
		f, err := d.Next()
		switch {
		case errors.Is(err, ErrTimeout) && after > 0: // the second run's end
			end = time.Now()
		case errors.Is(err, ErrTimeout):
			timeouts++
		case err != nil:
			t.Fatalf("after %d + %d pictures: %v", before, after, err)
		case timeouts == 0:
			before++
			f.Release()
		default:
			after++
			f.Release()
		}
	}
	if before == 0 || after < 20 {
		t.Errorf("%d pictures, ErrTimeout, then %d: want the feed's second run (30 pictures) after the timeout", before, after)
	}
	t.Logf("%d pictures, ErrTimeout, %d pictures", before, after)
}

// TestOpenLater: a feed that is down when it is opened. Open with OpenTimeout gives up on a silent
// UDP port after that limit (plus the live probe's second), not Timeout, and its error says the
// limit; a decoder from OpenLater has no Info and fails Next with ErrNotOpened until Reopen opens
// it, then decodes; and a timed-out opening leaves the reads' own limit in the next error message.
func TestOpenLater(t *testing.T) {
	url := "udp://" + nettest.UDPAddr(t)
	t0 := time.Now()
	_, err := Open(url, Options{Threads: 1, Timeout: 10 * time.Second, OpenTimeout: 200 * time.Millisecond})
	took := time.Since(t0)
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "after 200ms") || took > 3*time.Second {
		t.Errorf("silent feed, OpenTimeout 200 ms: %v after %s; want ErrTimeout after 200ms within 3 s", err, took)
	}

	d := OpenLater(filepath.Join(mediaDir, "default.mkv"), Options{Threads: 1, HWDec: HWDecNo})
	defer d.Close()
	if i := d.Info(); i.Width != 0 || i.Codec != "" {
		t.Errorf("Info before opening: %+v, want the zero Info", i)
	}
	if _, err := d.Next(); !errors.Is(err, ErrNotOpened) {
		t.Fatalf("Next before opening: %v, want ErrNotOpened", err)
	}
	if err := d.Reopen(); err != nil {
		t.Fatal(err)
	}
	f, err := d.Next()
	if err != nil {
		t.Fatal(err)
	}
	f.Release()
	if i := d.Info(); i.Width == 0 {
		t.Errorf("Info after Reopen: %+v", i)
	}
}

// TestLogOpenProbe: what FFmpeg logs with no context while it opens an input (libavformat/hls.c's
// probe: "mime type is not rfc8216 compliant" for a playlist served as application/x-mpegurl, with
// av_log(NULL, ...)) is that input's, not the catch-all's. Before, it reached the catch-all, which
// ycbcrwall printed as a notice naming no tile.
func TestLogOpenProbe(t *testing.T) {
	dir := t.TempDir()
	ffmpegMake(t, "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=1", "-c:v", "libx264", "-preset", "ultrafast",
		"-g", "15", "-pix_fmt", "yuv420p", "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", filepath.Join(dir, "v.m3u8"))
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".m3u8") {
			w.Header().Set("Content-Type", "application/x-mpegurl") // not RFC 8216's
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()
	var mu sync.Mutex
	got := map[string][]string{}
	add := func(who string) func(string) {
		return func(s string) { mu.Lock(); got[who] = append(got[who], s); mu.Unlock() }
	}
	CaptureLog(add("other"))
	d, err := Open(srv.URL+"/v.m3u8", Options{Threads: 1, HWDec: HWDecNo, Log: add("hls")})
	if err != nil {
		CaptureLog(nil)
		t.Fatal(err)
	}
	if f, err := d.Next(); err == nil {
		f.Release()
	}
	d.Close() // hands out its last summary
	CaptureLog(nil)
	mu.Lock()
	defer mu.Unlock()
	if all := strings.Join(got["hls"], "\n"); !strings.Contains(all, "mime type is not rfc8216 compliant") || len(got["other"]) != 0 {
		t.Errorf("the playlist's summaries %q, the catch-all's %q: want the probe's warning the playlist's", got["hls"], got["other"])
	}
}

package decode

import (
	"encoding/binary"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// moovAtEnd makes an MP4 of default.mkv (100 frames, 0.5 MB) played loops times, as FFmpeg's mp4 muxer writes it without
// +faststart: ftyp, mdat, then moov. The box order is checked by walking the top-level boxes
// (ISO/IEC 14496-12, 4.2: 32-bit size, type; size 1: a 64-bit size follows).
func moovAtEnd(t *testing.T, loops int) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "moov-at-end.mp4")
	ffmpegMake(t, "-stream_loop", fmt.Sprint(loops-1), "-i", filepath.Join(mediaDir, "default.mkv"), "-c", "copy", "-f", "mp4", file)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for off := uint64(0); off+8 <= uint64(len(b)); {
		size := uint64(binary.BigEndian.Uint32(b[off:]))
		if size == 1 {
			size = binary.BigEndian.Uint64(b[off+8:])
		}
		order = append(order, string(b[off+4:off+8]))
		if size < 8 {
			break
		}
		off += size
	}
	if fmt.Sprint(order) != "[ftyp free mdat moov]" && fmt.Sprint(order) != "[ftyp mdat moov]" {
		t.Fatalf("top-level boxes %v: want moov after mdat", order)
	}
	return file
}

// pipeURL feeds file through a pipe as `cat file |` would and returns FFmpeg's URL for its reading
// end.
func pipeURL(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(data)
		w.Close()
	}()
	t.Cleanup(func() { r.Close() })
	return fmt.Sprintf("pipe:%d", r.Fd())
}

// TestPipeMoovAtEnd: an MP4 whose moov box follows its media does not open from a pipe without the
// cache (FFmpeg's demuxer cannot go back for the media, as `cat x.mp4 | ffmpeg -i -` fails), and
// plays from one with it: all 100 frames, the PTS of each the same as from the file; a seek back
// inside the cached range lands on its frame.
func TestPipeMoovAtEnd(t *testing.T) {
	file := moovAtEnd(t, 1)
	if d, err := Open(pipeURL(t, file), Options{}); err == nil {
		n := 0
		for ; ; n++ {
			f, err := d.Next()
			if err != nil {
				t.Logf("without the cache: %d frames, then %v", n, err)
				break
			}
			f.Release()
		}
		d.Close()
		if n == 100 {
			t.Fatal("without the cache the pipe played all 100 frames: the test shows nothing")
		}
	}
	ref, err := Open(file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want []float64
	decodeAll(t, ref, func(_ int, f *Frame) { want = append(want, f.PTS) })
	ref.Close()

	d, err := Open(pipeURL(t, file), Options{CacheSize: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var got []float64
	decodeAll(t, d, func(_ int, f *Frame) { got = append(got, f.PTS) })
	if len(got) != 100 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%d frames from the pipe (want 100), PTS equal to the file's: %v", len(got), fmt.Sprint(got) == fmt.Sprint(want))
	}
	if !d.CanSeekTo(1.0) {
		t.Fatal("CanSeekTo(1.0): false inside the cached range")
	}
	if err := d.Seek(1.0); err != nil {
		t.Fatal(err)
	}
	f, err := d.Next()
	if err != nil {
		t.Fatal(err)
	}
	if f.PTS != 1.0 {
		t.Errorf("seek back to 1.0 s landed on %g", f.PTS)
	}
	f.Release()
}

// TestPipeCacheTooSmall: a cache smaller than the media before the moov box cannot hold the walk
// to the end and back: the open fails with one error line, never a hang.
func TestPipeCacheTooSmall(t *testing.T) {
	file := moovAtEnd(t, 8) // 4 MB
	d, err := Open(pipeURL(t, file), Options{CacheSize: 1 << 20})
	if err == nil {
		d.Close()
		t.Fatal("a 1 MiB cache opened an MP4 whose media before moov is 4 MB")
	}
	oneLine(t, err)
	t.Logf("%v", err)
}

// noRangeServer serves file over HTTP on 127.0.0.1 the way a simple server does that ignores Range
// requests (every request gets the whole file, 200, no Accept-Ranges), and counts the requests.
func noRangeServer(t *testing.T, file string) (url string, requests *atomic.Int32) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	requests = new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "video/x-matroska")
		w.Header().Set("Content-Length", fmt.Sprint(len(data)))
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/" + filepath.Base(file), requests
}

// TestHTTPSeekBackInCache: over HTTP from a server without ranges, a seek back inside the cached
// range lands on its frame from the cache, without a second request; frames after it have the
// file's PTS.
func TestHTTPSeekBackInCache(t *testing.T) {
	url, requests := noRangeServer(t, filepath.Join(mediaDir, "default.mkv"))
	d, err := Open(url, Options{CacheSize: 8 << 20, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for i := 0; i < 60; i++ { // to 2.4 s
		f, err := d.Next()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		f.Release()
	}
	if !d.CanSeekTo(0.8) {
		t.Fatal("CanSeekTo(0.8): false inside the cached range")
	}
	if err := d.Seek(0.8); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		f, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		if want := 0.8 + float64(i)*0.04; math.Abs(f.PTS-want) > 1e-6 {
			t.Errorf("frame %d after the seek: PTS %g, want %g", i, f.PTS, want)
		}
		f.Release()
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("%d HTTP requests, want 1 (the seek back served from the cache)", n)
	}
}

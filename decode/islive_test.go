package decode

import "testing"

// TestIsLive: live feeds by their protocol (and HLS by its playlist); files, pipes and plain HTTP
// downloads are not live.
func TestIsLive(t *testing.T) {
	for u, want := range map[string]bool{
		"udp://127.0.0.1:1234":                        true,
		"udp://@239.0.0.1:1234?fifo_size=1000":        true,
		"rtp://127.0.0.1:5004":                        true,
		"RTSP://cam.local/stream":                     true,
		"srt://127.0.0.1:9000?mode=caller":            true,
		"https://example.com/live/index.m3u8?token=x": true,
		"http://example.com/clip.mp4":                 false,
		"clip.m3u8":                                   false,
		"file:///tmp/a.ts":                            false,
		"pipe:0":                                      false,
		"/tmp/udp://x":                                false,
		"tcp://127.0.0.1:9000":                        false,
	} {
		if got := IsLive(u); got != want {
			t.Errorf("IsLive(%q) = %v, want %v", u, got, want)
		}
	}
}

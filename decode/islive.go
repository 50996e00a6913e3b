package decode

import (
	"net/url"
	"strings"
)

// liveSchemes are the protocols of live feeds: MPEG-TS over UDP and RTP, RTSP (over TCP or UDP),
// SRT and RTMP. A live feed has no end and no seeking: it can only be reopened.
var liveSchemes = map[string]bool{"udp": true, "rtp": true, "rtsp": true, "rtsps": true, "srt": true,
	"rtmp": true, "rtmps": true}

// IsLive says whether u names a live feed: one of liveSchemes, or an HLS playlist (.m3u8) over HTTP
// or HTTPS. A client treats its end or failure as a lost signal and reopens it (package pump).
// Files, pipes and other HTTP resources are not live.
func IsLive(u string) bool {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return false
	}
	scheme = strings.ToLower(scheme)
	if liveSchemes[scheme] {
		return true
	}
	if scheme != "http" && scheme != "https" {
		return false
	}
	p, err := url.Parse(scheme + "://" + rest)
	return err == nil && strings.HasSuffix(strings.ToLower(p.Path), ".m3u8")
}

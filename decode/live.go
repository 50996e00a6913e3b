package decode

import (
	"fmt"
	"strings"
	"time"

	"github.com/asticode/go-astiav"
)

// LiveMode says whether an input is read as a live source.
type LiveMode int

const (
	// LiveAuto reads the URLs IsLive names as live sources, the others as files.
	LiveAuto LiveMode = iota
	// LiveYes reads any input as a live source (a pipe a live feed is written into).
	LiveYes
	// LiveNo reads every input as a file: FFmpeg's defaults.
	LiveNo
)

func (m LiveMode) String() string { return [...]string{"auto", "yes", "no"}[m] }

// ParseLiveMode reads -live's value.
func ParseLiveMode(s string) (LiveMode, error) {
	for m := LiveAuto; m <= LiveNo; m++ {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("bad -live %q: auto, yes or no", s)
}

// How a live source is read (Options.Live). Sizes are FFmpeg 7.1's options of the same names
// (libavformat/options_table.h, udp.c, rtsp.c); docs/live.md says why each.
const (
	// LiveProbeSize and LiveProbeDuration bound what FFmpeg reads to learn the streams
	// (probesize, analyzeduration): a feed's picture size comes with its first key frame, which live
	// encoders send at least once a second. With fflags nobuffer what the probe read is dropped, not
	// played late: the pictures start at the live edge.
	LiveProbeSize     = 2 << 20
	LiveProbeDuration = time.Second
	// LiveUDPBuffer is the jitter buffer of UDP inputs: the udp protocol's receiving thread queues
	// datagrams in a ring of this many bytes (fifo_size, in 188-byte TS packets: 11,155) while the
	// decoder is busy; 1.7 s of a 10 Mb/s feed. An overrun drops datagrams and goes on
	// (overrun_nonfatal), a "UDP buffer overruns" notice, rather than ending the input.
	LiveUDPBuffer = 2 << 20
	// LiveRTPReorder and LiveRTPDelay are the jitter buffer of RTP (RTSP over UDP, rtp://): packets
	// out of order wait in a queue of that many (reorder_queue_size) for at most that long
	// (max_delay) before a gap is given up on.
	LiveRTPReorder = 500
	LiveRTPDelay   = 250 * time.Millisecond
)

// isLive says whether the input is read as a live source.
func (m LiveMode) isLive(url string) bool { return m == LiveYes || m == LiveAuto && IsLive(url) }

// liveOptions are the options avformat_open_input gets for a live source. Options FFmpeg's demuxer
// or protocol does not know stay unused, so one set serves every scheme; a URL's own query options
// (udp://…?fifo_size=…) win over these. timeout ≤ 0: none.
func liveOptions(url string, timeout time.Duration, rtspTransport string) (*astiav.Dictionary, error) {
	set := [][2]string{
		{"fflags", "+nobuffer"},
		{"probesize", fmt.Sprint(LiveProbeSize)},
		{"analyzeduration", fmt.Sprint(LiveProbeDuration.Microseconds())},
		{"fifo_size", fmt.Sprint(LiveUDPBuffer / 188)},
		{"overrun_nonfatal", "1"},
		{"reorder_queue_size", fmt.Sprint(LiveRTPReorder)},
		{"max_delay", fmt.Sprint(LiveRTPDelay.Microseconds())},
	}
	if scheme, _, _ := strings.Cut(strings.ToLower(url), "://"); timeout > 0 && (scheme == "rtsp" || scheme == "rtsps") {
		// RTSP's socket I/O timeout (rtsp.c "timeout", µs; "stimeout" before FFmpeg 5): its TCP
		// connection and its UDP wait end with ETIMEDOUT as the interrupt callback ends the rest.
		// Only there: udp.c's "timeout" would end a UDP read with a sticky EIO.
		set = append(set, [2]string{"timeout", fmt.Sprint(timeout.Microseconds())})
	}
	switch rtspTransport {
	case "":
	case "tcp", "udp":
		set = append(set, [2]string{"rtsp_transport", rtspTransport})
	default:
		return nil, fmt.Errorf("bad RTSP transport %q: tcp or udp", rtspTransport)
	}
	d := astiav.NewDictionary()
	for _, kv := range set {
		if err := d.Set(kv[0], kv[1], 0); err != nil {
			d.Free()
			return nil, fmt.Errorf("live option %s: %w", kv[0], err)
		}
	}
	return d, nil
}

package decode

import (
	"fmt"
	"runtime"
	"time"

	"github.com/ycbcrkit/ycbcrkit/gpu"
)

// Defaults for the zero Options.
const (
	// DefaultTimeout bounds each blocking demuxer call: opening, probing, reading a packet, seeking.
	DefaultTimeout = 10 * time.Second
	// DefaultMaxSize is the largest width and height accepted (Vulkan's guaranteed maxImageDimension2D
	// is 4096; 16384 is what current GPUs allow, and a larger "video" is far more likely a broken or
	// hostile file than a real one).
	DefaultMaxSize = 16384
)

// Deinterlace is when decoded pictures go through FFmpeg's bwdif deinterlacer.
type Deinterlace int

const (
	// DeinterlaceAuto deinterlaces frames marked interlaced (AV_FRAME_FLAG_INTERLACED) from the first
	// such frame on; progressive frames pass through untouched.
	DeinterlaceAuto Deinterlace = iota
	// DeinterlaceYes deinterlaces every frame.
	DeinterlaceYes
	// DeinterlaceNo never deinterlaces.
	DeinterlaceNo
)

func (m Deinterlace) String() string { return [...]string{"auto", "yes", "no"}[m] }

// ParseDeinterlace reads -deinterlace's value.
func ParseDeinterlace(s string) (Deinterlace, error) {
	for m := DeinterlaceAuto; m <= DeinterlaceNo; m++ {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("bad -deinterlace %q: auto, yes or no", s)
}

// Options tune Open. The zero value is what a player wants.
type Options struct {
	// Threads is the decoder's thread count (frame and slice threading) in software; 0 means
	// runtime.NumCPU(). Vulkan Video decodes on one thread (Decoder.Threads, decode/hw.go).
	Threads int
	// Timeout bounds each blocking demuxer call, so that a stalled network URL returns ErrTimeout
	// instead of hanging; 0 means DefaultTimeout, negative means no limit.
	Timeout time.Duration
	// OpenTimeout, when positive, bounds Open's connecting and probing instead of Timeout (reads
	// and later openings keep Timeout): a wall gives its live inputs a short one, so that a feed
	// that is down at start holds the wall's start that long, not Timeout (OpenLater).
	OpenTimeout time.Duration
	// Stop, when closed, interrupts the decoder as Interrupt does, from then on: Open too, which
	// returns ErrInterrupted, so that a caller can end a wait for a stalled input before it has a
	// Decoder to interrupt (a signal while FFmpeg probes a pipe whose writer stopped). nil: none.
	Stop <-chan struct{}
	// MaxWidth and MaxHeight refuse larger pictures with ErrTooLarge; 0 means DefaultMaxSize.
	MaxWidth, MaxHeight int
	// Deinterlace: the zero value deinterlaces frames marked interlaced (bwdif, one frame per
	// field: the frame rate doubles, as FFmpeg's bwdif does by default).
	Deinterlace Deinterlace
	// HWDec chooses Vulkan Video decoding (decode/hw.go); the zero value is auto, which needs Vulkan.
	HWDec HWDec
	// HWDecName is how the caller names HWDec in HW().Reason ("Options.HWDec" says "Options.HWDec
	// is no"); empty: "-hwdec".
	HWDecName string
	// Vulkan is the device FFmpeg decodes on (opened with gpu.Options.Video); nil: software.
	Vulkan *gpu.Device
	// Video picks the Video-th video stream of the input, counted from 1 in stream order (cover
	// pictures not counted), as mpv's --vid does; 0: FFmpeg's best (av_find_best_stream).
	Video int

	// CacheSize, when positive, reads the input through a read-ahead cache of that many bytes
	// (decode/readahead): for inputs read once, a pipe or a network stream, so that the demuxer
	// can seek inside what was read (an MP4 whose moov box is at the end; seeks back). 0: none,
	// FFmpeg's protocols are read directly.
	CacheSize int64

	// Live says whether the input is read as a live source (live.go): the zero value, LiveAuto,
	// for the URLs IsLive names. A live source is opened with a short probe (LiveProbeSize,
	// LiveProbeDuration) whose packets are not played late (fflags nobuffer), jitter buffers of a
	// stated size (LiveUDPBuffer, LiveRTPReorder, LiveRTPDelay) and RTSP's socket timeout at
	// Timeout, and never through the read-ahead cache (CacheSize is ignored).
	Live LiveMode
	// RTSPTransport is RTSP's lower transport: "tcp", "udp", or "" for FFmpeg's choice (UDP, then
	// TCP when no UDP packet comes: libavformat/rtspdec.c).
	RTSPTransport string

	// Log receives this decoder's summaries of FFmpeg's log once CaptureLog routes it (log.go): at
	// most one line a second, such as "12 corrupt packets (mpegts) in the last second", without a
	// prefix (the caller names the input: "notice: tile 3 (cam3): ..."). It runs on a goroutine of
	// its own (or in Close, for the last one); nil: this decoder's messages go to CaptureLog's other.
	Log func(summary string)

	hwSkipCheck bool // tests: no capability check in get_format, FFmpeg's hwaccel init decides
}

func (o Options) withDefaults() Options {
	if o.Threads <= 0 {
		o.Threads = runtime.NumCPU()
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxWidth <= 0 {
		o.MaxWidth = DefaultMaxSize
	}
	if o.MaxHeight <= 0 {
		o.MaxHeight = DefaultMaxSize
	}
	return o
}

package wall

import (
	"syscall"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
)

// mb is bytes in MiB.
func mb(n int64) float64 { return float64(n) / (1 << 20) }

// StreamStats are one stream's figures.
type StreamStats struct {
	Input   string  `json:"input"`
	Frames  int     `json:"frames"`
	Dropped int     `json:"dropped"`
	FPS     float64 `json:"fps"`
	Decoder string  `json:"decoder"`
	// HWDec is "vulkan" while Vulkan Video decodes, else "no" with HWDecReason.
	HWDec       string `json:"hwdec"`
	HWDecReason string `json:"hwdec_reason,omitempty"`
	// Route is how the hardware-decoded pictures reached the conversion (stream.Plan's route).
	Route string `json:"hwdec_route,omitempty"`
	Path  string `json:"path"`
	// GPUMemoryMB is the device memory the stream's pictures hold (stream.Stream.MemoryBytes: its
	// slots' images and staging buffers; not the conversion paths the streams share, nor FFmpeg's
	// images when Vulkan Video decodes).
	GPUMemoryMB float64 `json:"gpu_memory_mb"`
	Error       string  `json:"error,omitempty"`
}

// Stats are the wall's figures: the aggregate and each stream's.
type Stats struct {
	Streams int     `json:"streams"`
	Frames  int     `json:"frames"`
	Seconds float64 `json:"seconds"`
	// FPS is every stream's pictures together per second of the wall's run.
	FPS       float64 `json:"fps"`
	Canvas    [2]int  `json:"canvas"`
	PeakRSSMB float64 `json:"peak_rss_mb"`
	// GPUMemoryMB is the most device memory the toolkit had allocated at once (every stream's
	// pictures, the shared conversions, the canvas: gpu.Device.MemoryStats); PictureBuffersMB the
	// most host memory the software decoders' picture buffers held at once.
	GPUMemoryMB      float64       `json:"gpu_memory_mb"`
	PictureBuffersMB float64       `json:"picture_buffers_mb"`
	CPUSeconds       float64       `json:"cpu_seconds"`
	PerStream        []StreamStats `json:"per_stream"`
	MinStreamFPS     float64       `json:"min_stream_fps"`
}

// Stats reports the figures so far: the run is timed from the first display step to the last
// picture drawn.
func (w *Wall) Stats() Stats {
	s := Stats{Streams: len(w.tiles), Canvas: [2]int{w.canvas.w, w.canvas.h}}
	var end time.Time
	for i, t := range w.tiles {
		ss := StreamStats{Input: t.in.Label, Frames: t.shown, Dropped: t.dropped}
		if t.shown > 1 {
			ss.FPS = float64(t.shown-1) / t.last.Sub(t.first).Seconds()
		}
		h := t.dec.HW()
		ss.Decoder, ss.HWDec, ss.HWDecReason = h.Decoder, "no", h.Reason
		if h.Active {
			ss.HWDec, ss.HWDecReason = "vulkan", ""
		}
		ss.GPUMemoryMB = mb(t.st.MemoryBytes())
		if t.shown > 0 {
			plan := t.st.Plan()
			ss.Route, ss.Path = plan.Route.String(), plan.Path.Path.String()
		}
		if t.err != nil {
			ss.Error = t.err.Error()
		}
		s.Frames += t.shown
		if t.last.After(end) {
			end = t.last
		}
		if i == 0 || ss.FPS < s.MinStreamFPS {
			s.MinStreamFPS = ss.FPS
		}
		s.PerStream = append(s.PerStream, ss)
	}
	if !w.start.IsZero() && end.After(w.start) {
		s.Seconds = end.Sub(w.start).Seconds()
		s.FPS = float64(s.Frames) / s.Seconds
	}
	s.GPUMemoryMB = mb(w.dev.MemoryStats().PeakBytes)
	_, peak := decode.PictureMemory()
	s.PictureBuffersMB = mb(peak)
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		s.PeakRSSMB = float64(ru.Maxrss) / 1024
		s.CPUSeconds = time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	}
	return s
}

package wall

import (
	"math"
	"slices"
	"syscall"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
)

// mb is bytes in MiB.
func mb(n int64) float64 { return float64(n) / (1 << 20) }

// StreamStats are one stream's figures.
type StreamStats struct {
	Input   string `json:"input"`
	Frames  int    `json:"frames"`
	Dropped int    `json:"dropped"`
	// Why pictures were dropped (timed): the picture was decoded after its time (late decode), two
	// pictures fell due between two display steps (late display: the steps came too late), or the
	// stream had no free slot when its picture was due (late conversion: its GPU work behind).
	LateDecode     int `json:"dropped_late_decode"`
	LateDisplay    int `json:"dropped_late_display"`
	LateConversion int `json:"dropped_late_conversion"`
	// Replayed counts the frames submitted from commands recorded for an earlier picture of the
	// same decoder image (stream.Options.Replay), of them Recorded the ones recorded then.
	Replayed int `json:"frames_replayed,omitempty"`
	Recorded int `json:"replay_recordings,omitempty"`
	// PlayGapMs is the mean time between a play's last picture and the next play's first, less
	// one step (a looped input's restart: 0 when seamless), over PlayRestarts restarts.
	PlayGapMs    float64 `json:"play_gap_ms,omitempty"`
	PlayRestarts int     `json:"play_restarts,omitempty"`
	// NoSignalAtStart: a live input that could not be opened when the wall started (Open); its
	// pump opened it later, if its feed came (Frames).
	NoSignalAtStart bool `json:"no_signal_at_start,omitempty"`
	// SignalLosses counts the times the stream lost its signal while playing (Wall.Signal; each
	// one a notice, with its return).
	SignalLosses int `json:"signal_losses,omitempty"`
	// DroppedShare is Dropped of the pictures that fell due (Frames + Dropped).
	DroppedShare float64 `json:"dropped_share"`
	// FPS is the pictures shown per second: timed, between the presentation times (the display
	// steps' times on the wall's clock) of the first and last; untimed, of the wall clock.
	FPS     float64 `json:"fps"`
	Decoder string  `json:"decoder"`
	// HWDec is "vulkan" while Vulkan Video decodes, else "no" with HWDecReason.
	HWDec       string `json:"hwdec"`
	HWDecReason string `json:"hwdec_reason,omitempty"`
	// Route is how the hardware-decoded pictures reached the conversion (stream.Plan's route).
	Route string `json:"hwdec_route,omitempty"`
	Path  string `json:"path"`
	// GPUMemoryMB is the device memory the stream holds: its pictures (stream.Stream.MemoryBytes:
	// its slots' images and staging buffers) and, when Vulkan Video decodes, its decoder's frames
	// (decode.Decoder.DeviceMemory); not the conversion paths the streams share, nor FFmpeg's
	// session memory and bitstream buffers (in the total's ffmpeg_gpu_memory_mb).
	GPUMemoryMB float64 `json:"gpu_memory_mb"`
	// DecoderGPUMemoryMB is the part of GPUMemoryMB that is the decoder's frames (Vulkan Video's
	// decode pictures, references included: FFmpeg's frames pool grows to what the stream holds at
	// once); the rest is the stream's own pictures.
	DecoderGPUMemoryMB float64 `json:"decoder_gpu_memory_mb,omitempty"`
	// HostMemoryMB is the host memory of the stream's decoded pictures (decode.Decoder.HostMemory:
	// its decoder's picture buffers, references included; 0 when Vulkan Video decodes); the rest
	// of a stream's host memory (FFmpeg's contexts and threads, a live input's jitter buffer) shows
	// in the total's peak_rss_mb, from one run to a run with more streams.
	HostMemoryMB float64 `json:"host_memory_mb"`
	// Variant is the conversion variant (drawn into the tile, or computed into it).
	Variant string `json:"variant,omitempty"`
	// GPUMs is the stream's mean GPU time per picture: its command buffer from the conversion to
	// the tile placed (timestamps; the GPU copy of a padded decoder image, a batch of its own ahead
	// of it, is not included). 0 where the queue has no timestamps.
	GPUMs float64 `json:"gpu_ms_per_picture,omitempty"`
	// DecodeMs is the decoding goroutine's time in the decoder per picture (parsing and submitting
	// to Vulkan Video, or decoding in software); DecoderWaitMs its time waiting for Vulkan Video to
	// finish a picture. Their sum near 1000/fps says the decoding side sets the stream's pace.
	DecodeMs      float64 `json:"decode_ms_per_picture"`
	DecoderWaitMs float64 `json:"decoder_wait_ms_per_picture"`
	Error         string  `json:"error,omitempty"`
}

// Stats are the wall's figures: the aggregate and each stream's.
type Stats struct {
	Streams int     `json:"streams"`
	Frames  int     `json:"frames"`
	Seconds float64 `json:"seconds"`
	// FPS is every stream's pictures together per second of the wall's run.
	FPS    float64 `json:"fps"`
	Canvas [2]int  `json:"canvas"`
	// Queues is how many graphics queues the streams submitted on (Wall.Queues).
	Queues int `json:"queues"`
	// DecodeDevices is how many devices besides the wall's decoded streams (Options.DecodeDevices,
	// or opened by the wall: Options.OpenDecodeDevice).
	DecodeDevices int `json:"decode_devices,omitempty"`
	// DecodeQueueMoves is how many Vulkan Video decoders moved to a queue freed by a stream that
	// ended (decode.QueueMoves, for the process).
	DecodeQueueMoves int64   `json:"decode_queue_moves,omitempty"`
	PeakRSSMB        float64 `json:"peak_rss_mb"`
	// GPUMemoryMB is the most device memory the toolkit had allocated at once (every stream's
	// pictures, the shared conversions, the canvas: gpu.Device.MemoryStats) plus the most FFmpeg
	// had for Vulkan Video decoding (FFmpegGPUMemoryMB); PictureBuffersMB the most host memory the
	// software decoders' picture buffers held at once.
	GPUMemoryMB       float64 `json:"gpu_memory_mb"`
	FFmpegGPUMemoryMB float64 `json:"ffmpeg_gpu_memory_mb"`
	PictureBuffersMB  float64 `json:"picture_buffers_mb"`
	CPUSeconds        float64 `json:"cpu_seconds"`
	// GPUMs is the mean of the streams' GPUMs, weighted by their pictures; CPUMs is the process's
	// CPU time (every thread: decoders, FFmpeg's, the driver's) per picture.
	GPUMs float64 `json:"gpu_ms_per_picture"`
	CPUMs float64 `json:"cpu_ms_per_picture"`
	// DisplayIdle is the share of the run the display loop waited with nothing it could draw (no
	// stream with a decoded picture and a free slot): near 1, the decoders set the pace; near 0,
	// the display loop (recording and submitting) does.
	DisplayIdle float64 `json:"display_idle"`
	// UntimedLoopMs splits the untimed display loop's time (Step) by part, summed over the run:
	// collect (finished submissions given back), poll (pictures taken from the queues), hold (held
	// pictures' locks and points asked), draw (pictures loaded, converted, placed), flush (the
	// submissions), wait (nothing to draw: DisplayIdle), other.
	UntimedLoopMs map[string]float64 `json:"untimed_loop_ms,omitempty"`
	// UntimedThreadMs is the display loop's thread over the untimed steps (when the loop is
	// locked to one, as ycbcrwall's is): on_cpu and runqueue (ms, Linux's schedstat: the rest of
	// the busy parts it slept, in a lock or the driver), and the steps.
	UntimedThreadMs map[string]float64 `json:"untimed_thread_ms,omitempty"`
	// StepsAvoidCPUs are the CPUs that take the device's interrupts, which the steps' thread keeps
	// off (LockSteps).
	StepsAvoidCPUs []int         `json:"steps_avoid_cpus,omitempty"`
	PerStream      []StreamStats `json:"per_stream"`
	MinStreamFPS   float64       `json:"min_stream_fps"`
	// Dropped is every stream's dropped pictures, DroppedShare their share of the pictures that
	// fell due, MaxStreamDropShare the largest stream's share (timed).
	Dropped            int     `json:"dropped"`
	DroppedShare       float64 `json:"dropped_share"`
	MaxStreamDropShare float64 `json:"max_stream_dropped_share"`
	// StepMs is how long the timed steps took (Tick: taking, converting and submitting the due
	// pictures) and StepGapMs the time from one step to the next (the display's period when the
	// loop keeps up), as the median, the 99th percentile and the largest; LateSteps counts the
	// gaps over 1.5 periods (Options.Period), which drop a picture of every stream due in them.
	StepMs    *Spread `json:"step_ms,omitempty"`
	StepGapMs *Spread `json:"step_gap_ms,omitempty"`
	LateSteps int     `json:"late_steps,omitempty"`
	// LateStepsAtS is when each late step came, in seconds from the first step.
	LateStepsAtS []float64 `json:"late_steps_at_s,omitempty"`
	// StepPhaseMs splits StepMs by part of the step (collect: finished submissions given back;
	// poll: pictures taken from the queues; load: FFmpeg's frames locked and their copies
	// recorded; record: the rest of the tiles' recording; flush: the step's submission), and
	// SlowStepPhaseMs sums each part over the steps longer than a period: where late steps waited.
	StepPhaseMs     map[string]*Spread `json:"step_phase_ms,omitempty"`
	SlowStepPhaseMs map[string]float64 `json:"slow_step_phase_ms,omitempty"`
	// SlowStepThreadMs splits the same steps' time by what their thread did (Linux's schedstat,
	// read where the display loop keeps its thread: ycbcrwall's does): on_cpu, runqueue (ready,
	// waiting for a CPU) and asleep (blocked: a lock, a driver's wait).
	SlowStepThreadMs map[string]float64 `json:"slow_step_thread_ms,omitempty"`
	// AsleepMs is where the steps' thread slept, by phase and system call (Options.SampleWaits:
	// "load futex@ADDR" is a lock taken while loading a picture, "flush ioctl" the driver), the
	// twelve largest, in ms; and, as "others: ..." keys, what the process's other threads were
	// doing while it slept on a futex (the mean number of threads at a scan: running, the same
	// futex, an ioctl with its device file and request); the samples stop with the first Stats.
	AsleepMs map[string]float64 `json:"asleep_ms,omitempty"`
	// SchedLatencyMs is how long the process's goroutines waited, runnable, for Go's scheduler;
	// GCPauseMs its garbage collector's stop-the-world pauses (the whole run, runtime/metrics).
	SchedLatencyMs *Spread `json:"sched_latency_ms,omitempty"`
	GCPauseMs      *Spread `json:"gc_pause_ms,omitempty"`
}

// Spread is a distribution's median, 99th percentile and largest value.
type Spread struct {
	P50 float64 `json:"p50"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// spread is ds's Spread in milliseconds, nil for none.
func spread(ds []time.Duration) *Spread {
	if len(ds) == 0 {
		return nil
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	return &Spread{P50: ms(s[len(s)/2]), P99: ms(s[len(s)*99/100]), Max: ms(s[len(s)-1])}
}

// Stats reports the figures so far: the run is timed from the first display step to the last
// picture drawn.
func (w *Wall) Stats() Stats {
	s := Stats{Streams: len(w.tiles), Canvas: [2]int{w.canvas.Width, w.canvas.Height}, Queues: w.Queues(),
		DecodeDevices: len(w.opts.DecodeDevices), DecodeQueueMoves: decode.QueueMoves()}
	var end time.Time
	var gpuMs float64
	gpuN := 0
	for i, t := range w.tiles {
		ss := StreamStats{Input: t.in.Label, Frames: t.shown, Dropped: t.dropped, NoSignalAtStart: t.late, SignalLosses: t.losses,
			LateDecode: t.lateDecode, LateDisplay: t.lateDisplay, LateConversion: t.lateConversion,
			PlayRestarts: t.plays}
		ss.Replayed, ss.Recorded = t.st.ReplayCounts()
		if t.plays > 0 {
			ss.PlayGapMs = float64(t.playGaps) / 1e6 / float64(t.plays)
		}
		switch {
		case t.shown > 1 && t.shownAt.After(t.firstAt):
			ss.FPS = float64(t.shown-1) / t.shownAt.Sub(t.firstAt).Seconds()
		case t.shown > 1 && t.last.After(t.first):
			ss.FPS = float64(t.shown-1) / t.last.Sub(t.first).Seconds()
		}
		if t.shown+t.dropped > 0 {
			ss.DroppedShare = float64(t.dropped) / float64(t.shown+t.dropped)
		}
		s.Dropped += t.dropped
		s.MaxStreamDropShare = max(s.MaxStreamDropShare, ss.DroppedShare)
		h := t.dec.HW()
		ss.Decoder, ss.HWDec, ss.HWDecReason = h.Decoder, "no", h.Reason
		if h.Active {
			ss.HWDec, ss.HWDecReason = "vulkan", ""
		}
		hwNow, _ := t.dec.DeviceMemory()
		ss.GPUMemoryMB, ss.DecoderGPUMemoryMB = mb(t.st.MemoryBytes()+hwNow), mb(hwNow)
		ss.HostMemoryMB = mb(t.dec.HostMemory())
		if t.shown > 0 {
			plan := t.st.Plan()
			ss.Route, ss.Path, ss.Variant = plan.Route.String(), plan.Path.Path.String(), plan.Variant.Variant.String()
		}
		if ps := t.pump.Stats(); ps.Decoded > 0 {
			ss.DecodeMs = float64(ps.Next) / 1e6 / float64(ps.Decoded)
			ss.DecoderWaitMs = float64(ps.Wait) / 1e6 / float64(ps.Decoded)
		}
		if tm := t.st.Timer; tm != nil && tm.Count > 0 {
			ss.GPUMs = tm.MeanMs()
			gpuMs += tm.Total
			gpuN += tm.Count
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
	if s.Frames+s.Dropped > 0 {
		s.DroppedShare = float64(s.Dropped) / float64(s.Frames+s.Dropped)
	}
	s.StepMs, s.StepGapMs = spread(w.stepDur), spread(w.stepGap)
	s.StepPhaseMs, s.SlowStepPhaseMs = w.phases.stats(w.stepDur, w.opts.Period)
	s.SlowStepThreadMs = w.threads.slow(w.stepDur, w.opts.Period)
	w.stopSampling()
	s.AsleepMs = w.asleep
	s.SchedLatencyMs, s.GCPauseMs = runtimeSpreads()
	var at time.Duration
	for _, g := range w.stepGap {
		at += g
		if p := w.opts.Period; p > 0 && g > p*3/2 {
			s.LateSteps++
			s.LateStepsAtS = append(s.LateStepsAtS, math.Round(at.Seconds()*100)/100)
		}
	}
	if !w.start.IsZero() && end.After(w.start) {
		s.Seconds = end.Sub(w.start).Seconds()
		s.FPS = float64(s.Frames) / s.Seconds
		s.DisplayIdle = w.idle.Seconds() / s.Seconds
	}
	s.UntimedLoopMs, s.UntimedThreadMs, s.StepsAvoidCPUs = w.loop.ms(), w.loop.thread(), w.avoided
	_, ff := decode.FFmpegDeviceMemory()
	own := w.dev.MemoryStats().PeakBytes
	for _, d := range w.opts.DecodeDevices { // the relays' shared images (stream.Relay)
		own += d.MemoryStats().PeakBytes
	}
	s.GPUMemoryMB, s.FFmpegGPUMemoryMB = mb(own+ff), mb(ff)
	_, peak := decode.PictureMemory()
	s.PictureBuffersMB = mb(peak)
	if gpuN > 0 {
		s.GPUMs = gpuMs / float64(gpuN)
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		s.PeakRSSMB = float64(ru.Maxrss) / 1024
		s.CPUSeconds = time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
		if s.Frames > 0 {
			s.CPUMs = s.CPUSeconds * 1000 / float64(s.Frames)
		}
	}
	return s
}

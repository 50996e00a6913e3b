package player

import (
	"fmt"
	"strings"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/subtitle"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Startup is where the time before the first picture went, in milliseconds (-stats startup_ms).
// Decoding runs on its own goroutine meanwhile: first_decoded is when the first frame was ready,
// wait_decoded how long the main thread then waited for it.
type Startup struct {
	// BeforePlay is the program's time before Play (set by the program), and headless OpenInput of it:
	// opening the input and its decoder. In a window (PlayOpening) the input opens meanwhile, while
	// the device and window are made, and OpenInput is within FirstFrame instead.
	BeforePlay    float64 `json:"before_play,omitempty"`
	OpenInput     float64 `json:"open_input,omitempty"`
	Instance      float64 `json:"instance"`
	Device        float64 `json:"device"`
	PipelineCache float64 `json:"pipeline_cache"`
	Renderer      float64 `json:"renderer"` // the stream: conversion paths, slots, timer
	FirstDecoded  float64 `json:"first_decoded"`
	WaitDecoded   float64 `json:"wait_decoded"`
	Output        float64 `json:"output"`     // offscreen target, or window and swapchain
	FirstDraw     float64 `json:"first_draw"` // configuration, probe, pipelines, upload, recording, submission
	Probe         float64 `json:"probe"`      // of which the conversion-variant probe
	Pipelines     float64 `json:"pipelines"`  // pipeline creation before the first picture (in the probe or not)
	FirstFrame    float64 `json:"first_frame"`
}

// Shutdown is where the time after the last frame went, in milliseconds.
type Shutdown struct {
	StopDecoding float64 `json:"stop_decoding"` // ending the decode goroutine (not in shutdown_ms)
	Renderer     float64 `json:"renderer"`      // the last frame's release, the stream (waits for its fences)
	Output       float64 `json:"output"`        // offscreen target or swapchain and window, semaphores
	Source       float64 `json:"source"`        // closing the source (the decoder and FFmpeg's Vulkan objects)
	gpu.CloseTimes
}

func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Stats is what -stats prints.
type Stats struct {
	FramesDecoded          int     `json:"frames_decoded"`
	FramesPresented        int     `json:"frames_presented"`
	FramesDropped          int     `json:"frames_dropped"`
	FramesDamaged          int     `json:"frames_damaged"`
	Discontinuities        int     `json:"discontinuities"`
	WallS                  float64 `json:"wall_s"`
	FPS                    float64 `json:"fps"`
	Path                   string  `json:"path"`
	PathReason             string  `json:"path_reason"`
	Conversion             string  `json:"conversion"`
	ConversionReason       string  `json:"conversion_reason"`
	Upload                 string  `json:"upload"`
	UploadReason           string  `json:"upload_reason"`
	CPUBytesCopiedPerFrame int     `json:"cpu_bytes_copied_per_frame"`
	GPUMsPerFrame          float64 `json:"gpu_ms_per_frame"`
	DecodeMsPerFrame       float64 `json:"decode_ms_per_frame"`
	FirstFrameMs           float64 `json:"first_frame_ms"`
	PixelFormat            string  `json:"pixel_format"`
	VkFormat               string  `json:"vk_format"`
	Matrix                 string  `json:"matrix"`
	Range                  string  `json:"range"`
	ChromaLocation         string  `json:"chroma_location"`
	Transfer               string  `json:"transfer"`
	Primaries              string  `json:"primaries"`
	HDRMetadata            string  `json:"hdr_metadata"`
	// HDRDisplayMetadata: with a window, what became of the metadata for the display
	// (vkSetHdrMetadataEXT on an HDR10 swapchain: sent, or why not).
	HDRDisplayMetadata string   `json:"hdr_display_metadata,omitempty"`
	ToneMap            string   `json:"tonemap"`
	Dither             string   `json:"dither"`             // how the shown picture is rounded to the target's depth
	HDRPeak            string   `json:"hdr_peak,omitempty"` // the peak PQ tone mapping uses, and whence
	Deband             string   `json:"deband"`
	ColourStage        string   `json:"colour_stage"` // what the shader path applied beyond range and matrix
	Notices            []string `json:"notices,omitempty"`
	Device             string   `json:"device"`
	// The scale pass (filter and sizes, or none), the zoom and the display orientation and whence.
	Scale    string `json:"scale"`
	Zoom     string `json:"zoom"`
	Rotation string `json:"rotation"`
	// With a Clock: the sound, and how far the picture was from it (video − audio) when presented.
	Audio      *AudioStats  `json:"audio,omitempty"`
	AVOffsetMs *OffsetStats `json:"av_offset_ms,omitempty"`
	// DisplaySync is display-synced playback's figures (Config.Playback.VideoSync), nil without it.
	DisplaySync *DisplaySyncStats `json:"display_sync,omitempty"`
	// The decoder and hardware decoding: which, and why (software when it is not possible).
	Decoder     string `json:"decoder,omitempty"`
	HWDec       string `json:"hwdec,omitempty"`
	HWDecReason string `json:"hwdec_reason,omitempty"`
	HWDecRoute  string `json:"hwdec_route,omitempty"`
	// Startup is where the time to the first picture went; PipelineCache where the device's
	// pipeline cache came from and how many pipelines were made before the first picture.
	Startup Startup `json:"startup_ms"`
	// ShutdownMs is closing after the last frame: the source, the GPU objects, device and instance,
	// and writing the pipeline cache back (not in wall_s, which ends at the last frame).
	ShutdownMs float64 `json:"shutdown_ms"`
	// Shutdown is where the time after the last frame went: StopDecoding (ending the decode
	// goroutine, before and not in ShutdownMs) and ShutdownMs's parts.
	Shutdown Shutdown `json:"shutdown_phases_ms"`
	// DecodedAhead is how many decoded frames were waiting when the first picture was shown
	// (Config.Playback.DecodeAhead).
	DecodedAhead int `json:"decoded_ahead_frames"`
	// GPUMemoryMB is the most device memory the toolkit had allocated on the player's device at
	// once (gpu.Device.MemoryStats: the stream's images and staging buffers, targets, the
	// conversions' buffers; not host memory imported from the decoder's buffers, nor FFmpeg's own
	// images when Vulkan Video decodes, FFmpegGPUMemoryMB, added to it); GPUHostVisibleMB is the toolkit's host-visible part at the end (the
	// staging buffers: system memory on a discrete GPU). On a device that renders on the CPU
	// (lavapipe) all of it is host memory, in the resident set once written.
	GPUMemoryMB      float64 `json:"gpu_memory_mb"`
	GPUHostVisibleMB float64 `json:"gpu_host_visible_mb"`
	// FFmpegGPUMemoryMB is the most device memory FFmpeg had allocated at once for Vulkan Video
	// decoding (images, DPB, bitstream buffers, session memory: decode.FFmpegDeviceMemory); it is
	// added to GPUMemoryMB (a sum of the two peaks).
	FFmpegGPUMemoryMB float64 `json:"ffmpeg_gpu_memory_mb"`
	// PictureBuffersMB is the most host memory the decoder's picture buffers held at once (its
	// pool keeps them for reuse: frames in the decoder, the decode-ahead queue, and frames the GPU
	// still reads); the decoded pictures' share of the peak resident set.
	PictureBuffersMB float64            `json:"picture_buffers_mb"`
	PipelineCache    PipelineCacheStats `json:"pipeline_cache"`
	// The subtitle tracks (mpv's track-list entries), the one selected (0: none) and whether it is
	// shown (mpv's sid and sub-visibility).
	SubtitleTracks   []subtitle.Track `json:"sub_tracks,omitempty"`
	SID              int              `json:"sid"`
	SubtitlesVisible bool             `json:"sub_visibility"`
	// End is how playback ended (not printed): the input's end or Config.Playback.Frames, or what the user
	// asked for (quit, or the next or previous input of a list).
	End End `json:"-"`
	// Opened is false when PlayOpening ended before its input opened (q, Esc, closing the window,
	// Enter or <, or Config.Hooks.Stop while the input was opening): there are no figures to print.
	Opened bool `json:"-"`
	// Chapters are the input's chapters (title and start), as -stats lists them.
	Chapters []ChapterStat `json:"chapters,omitempty"`
	// Position is the picture on screen's PTS when playback ended; SavePosition: the user asked
	// for it to be kept (Q), for the program's watch_later.
	Position     float64 `json:"-"`
	SavePosition bool    `json:"-"`
}

// ChapterStat is one chapter in -stats.
type ChapterStat struct {
	Title string  `json:"title"`
	Start float64 `json:"start_s"`
}

// PipelineCacheStats is the device's pipeline cache at start and the pipelines made before the
// first picture.
type PipelineCacheStats struct {
	gpu.PipelineCacheState
	PipelinesBeforeFirstFrame int `json:"pipelines_before_first_frame"`
}

// End is how playback ended.
type End int

// The ends of playback.
const (
	EndOfInput End = iota // the input ended, or Config.Playback.Frames were presented
	EndQuit               // q, Esc, closing the window, or Config.Hooks.Stop
	EndNext               // Enter or >: the next input
	EndPrev               // <: the previous input
)

func (p *Player) finish() error {
	if err := p.rend.Drain(); err != nil { // the timer's last intervals and the frames' releases
		return err
	}
	s := &p.stats
	s.WallS = time.Since(p.start).Seconds()
	if p.cfg.Sound.Clock != nil && !p.cfg.Playback.Untimed {
		s.Audio, s.AVOffsetMs = p.audioStats(), p.pace.offs.stats()
	}
	s.Discontinuities = p.pace.discontinuities
	s.DisplaySync = p.displayStats()
	s.Position = p.position()
	for _, c := range p.src.Info().Chapters {
		s.Chapters = append(s.Chapters, ChapterStat{Title: c.Title, Start: c.Start})
	}
	if s.WallS > 0 {
		s.FPS = float64(s.FramesPresented) / s.WallS
	}
	if s.FramesDecoded > 0 {
		s.DecodeMsPerFrame = p.decodeTime.Seconds() * 1000 / float64(s.FramesDecoded)
	}
	p.rend.Timer.Finish()
	p.fill(s)
	p.fillMemory(s)
	p.applyDecoding()
	return nil
}

// fill sets the figures the renderer knows (path, conversion, upload, format, metadata, GPU time) in s.
func (p *Player) fill(s *Stats) {
	p.fillSubtitles(s)
	r := p.rend
	plan := r.Stream.Plan()
	s.GPUMsPerFrame = r.Timer.MeanMs()
	s.Path, s.PathReason = plan.Path.Path.String(), plan.Path.Reason
	s.Scale, s.Zoom = plan.Scale, zoomName(r.Zoom)
	if p.last != nil {
		s.Rotation = p.rotationName(p.last)
	}
	s.Conversion, s.ConversionReason = plan.Variant.Variant.String(), plan.Variant.Reason
	s.Dither = r.params.Dither.String()
	s.HDRPeak = r.peakName()
	s.Deband = r.Deband.String()
	switch {
	case r.Deband.Iterations > 0 && r.format != nil && r.format.Depth != 8:
		s.Deband = fmt.Sprintf("off (%d-bit source; debanding is for 8-bit sources)", r.format.Depth)
	case r.Deband.Iterations > 0 && len(r.Stream.Paths()) > 1:
		s.Deband = "off (comparing both paths)" // the stream's rule: stream.Config.Deband, one path
	}
	s.Upload, s.UploadReason = plan.Upload.Upload.String(), plan.Upload.Reason
	if r.format != nil {
		s.PixelFormat = r.format.Name
		if plan.Path.Path == formats.PathSampler {
			s.VkFormat = r.format.VkFormat.String()
		} else {
			var parts []string
			for _, t := range r.format.Textures {
				parts = append(parts, t.VkFormat.String())
			}
			s.VkFormat = strings.Join(parts, "+")
		}
		s.Matrix, s.Range, s.ChromaLocation = r.params.Matrix.String(), r.params.Range.String(), r.params.ChromaLocation.String()
		s.Transfer, s.Primaries, s.HDRMetadata = r.params.Transfer.String(), r.params.Primaries.String(), r.params.HDR.String()
		s.ToneMap = "none (SDR)"
		if k := r.params.Transfer.Kind(); k == formats.TransferPQ || k == formats.TransferHLG {
			s.ToneMap = r.params.Tone.String()
		}
		if r.params.Output == ycbcr.OutputHDR10 {
			s.ToneMap = "none (hdr10 output)"
		}
		if plan.Path.Path == formats.PathShader {
			s.ColourStage = r.params.Applied(r.format)
		}
		s.CPUBytesCopiedPerFrame = plan.Upload.CPUBytes
	}
}

func (p *Player) infoLine() string {
	r := p.rend
	if r.format == nil {
		return "info: nothing shown yet"
	}
	plan := r.Stream.Plan()
	vkf := "-"
	if plan.Path.Path == formats.PathSampler {
		vkf = r.format.VkFormat.String()
	}
	el := time.Since(p.start).Seconds()
	dec := ""
	if ds, ok := p.src.(DeviceSource); ok {
		d := ds.Decoding()
		dec = fmt.Sprintf(" | decoder %s, hwdec %s", d.Decoder, hwdecName(d.Decode))
		if d.Reason != "" {
			dec += " (" + d.Reason + ")"
		}
		if route := p.hwRoute(d.Decode); route != "" {
			dec += ", route " + route
		}
	}
	turn := ""
	if p.last != nil {
		turn = ", rotation " + p.rotationName(p.last)
	}
	peakInfo := ""
	if n := r.peakName(); n != "" {
		peakInfo = ", peak " + n
	}
	if r.Deband.Iterations > 0 && r.format.Depth == 8 && len(r.Stream.Paths()) == 1 {
		peakInfo += ", deband " + r.Deband.String()
	}
	return fmt.Sprintf("info: %s %dx%d (%s) | %s | matrix %s, range %s, chroma %s | path %s (%s)%s | scale %s, zoom %s%s | dither %s%s | %.1f fps, %d dropped",
		r.format.Name, r.width, r.height, r.format.Subsampling(), vkf, r.params.Matrix, r.params.Range,
		r.params.ChromaLocation, plan.Path.Path, plan.Path.Reason, dec, plan.Scale, zoomName(r.Zoom), turn, r.params.Dither, peakInfo,
		float64(p.stats.FramesPresented)/el, p.stats.FramesDropped)
}

// mb is bytes in MiB.
func mb(n int64) float64 { return float64(n) / (1 << 20) }

// fillMemory sets the memory figures: the device's allocations and the decoder's picture buffers.
func (p *Player) fillMemory(s *Stats) {
	if p.rend != nil && p.rend.Stream != nil && p.rend.Stream.Dev != nil {
		m := p.rend.Stream.Dev.MemoryStats()
		s.GPUMemoryMB, s.GPUHostVisibleMB = mb(m.PeakBytes), mb(m.HostVisibleBytes)
	}
	_, ff := decode.FFmpegDeviceMemory()
	s.FFmpegGPUMemoryMB = mb(ff)
	s.GPUMemoryMB += s.FFmpegGPUMemoryMB
	_, peak := decode.PictureMemory()
	s.PictureBuffersMB = mb(peak)
}

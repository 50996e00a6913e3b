package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Size is one frame size: a name for tables ("1080p") and its pixels.
type Size struct {
	Name          string
	Width, Height int
}

// NamedSizes are the sizes -sizes accepts by name, in order.
var NamedSizes = []Size{{"720p", 1280, 720}, {"1080p", 1920, 1080}, {"2160p", 3840, 2160}, {"4320p", 7680, 4320}}

// DefaultFormats are the layouts measured unless told otherwise: 8-bit 4:2:0 in three and two
// planes, 10-bit 4:2:0 (MSB-aligned, two planes) and 8-bit 4:4:4.
var DefaultFormats = []string{"yuv420p", "nv12", "p010le", "yuv444p"}

// ParseSizes reads a comma-separated list of names (720p, 1080p, 2160p, 4320p) or WxH.
func ParseSizes(s string) ([]Size, error) {
	var out []Size
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(strings.ToLower(f))
		if f == "" {
			continue
		}
		found := false
		for _, n := range NamedSizes {
			if n.Name == f {
				out, found = append(out, n), true
			}
		}
		if found {
			continue
		}
		ws, hs, ok := strings.Cut(f, "x")
		w, err1 := strconv.Atoi(ws)
		h, err2 := strconv.Atoi(hs)
		if !ok || err1 != nil || err2 != nil || w < 2 || h < 2 || w > 16384 || h > 16384 {
			return nil, fmt.Errorf("bad size %q: want 720p, 1080p, 2160p, 4320p or WxH (2..16384)", f)
		}
		out = append(out, Size{f, w, h})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no sizes in %q", s)
	}
	return out, nil
}

// ParseFormats reads a comma-separated list of FFmpeg pixel-format names.
func ParseFormats(s string) ([]*formats.PixelFormat, error) {
	var out []*formats.PixelFormat
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		pf, ok := formats.Lookup(n)
		if !ok {
			return nil, fmt.Errorf("unknown pixel format %q (supported: %s)", n, strings.Join(formats.Names(), ", "))
		}
		out = append(out, pf)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no formats in %q", s)
	}
	return out, nil
}

// Options choose what Run measures and how long. Zero fields take the defaults Run documents.
type Options struct {
	Sizes   []Size
	Formats []*formats.PixelFormat

	// Frames timed per measurement (conversion draws per path, uploads per path) after Warmup
	// untimed ones. Defaults: 100 and 10 on a GPU, 50 and 5 on a CPU device (lavapipe).
	Frames, Warmup int
	// InFlight is how many frames the end-to-end loop keeps in flight, each with its own staging
	// buffer, images, target, command buffer and fence (default 3).
	InFlight int
	// EndToEnd is how long the end-to-end loop runs (default 2 s); it runs at least 2×InFlight frames.
	EndToEnd time.Duration
	// DistinctFrames is how many different frames (synth.Moving at different t) are made per
	// format and size and cycled through (default 4).
	DistinctFrames int
	// RotationBytes: the timed draws and uploads rotate through enough sets of images and targets
	// that together they span at least this many bytes (default 128 MiB, over twice an H100's 50 MB
	// L2), between InFlight and 12 sets, so a draw reads planes that are not still in cache from the
	// draw before. Negative: InFlight sets only.
	RotationBytes int64
	// DeviceCopyBytes is the size of each buffer of the device-copy reference (default 1 GiB on a GPU,
	// 256 MiB on a CPU device); HostToDeviceBytes that of the host→device and memcpy references
	// (default 256 MiB, at most DeviceCopyBytes). RefReps timed repetitions after RefWarmup (10, 2).
	DeviceCopyBytes, HostToDeviceBytes int64
	RefReps, RefWarmup                 int

	// Progress receives one line per step (nil: none).
	Progress io.Writer
	// Command is how the report names the run.
	Command string
}

const (
	mib         = 1 << 20
	maxRotation = 12 // each set holds a descriptor set; ycbcr's pools hold 16 per conversion
)

func (o *Options) defaults(d *gpu.Device) {
	cpu := d.Info.Type == "CPU"
	def := func(v *int, gpuV, cpuV int) {
		if *v <= 0 {
			*v = gpuV
			if cpu {
				*v = cpuV
			}
		}
	}
	def(&o.Frames, 100, 50)
	if o.Warmup < 0 {
		o.Warmup = 0
	} else if o.Warmup == 0 {
		o.Warmup = max(o.Frames/10, 1)
	}
	def(&o.InFlight, 3, 3)
	def(&o.DistinctFrames, 4, 4)
	def(&o.RefReps, 10, 10)
	if o.RefWarmup <= 0 {
		o.RefWarmup = 2
	}
	if o.EndToEnd <= 0 {
		o.EndToEnd = 2 * time.Second
	}
	if o.RotationBytes == 0 {
		o.RotationBytes = 128 * mib
	}
	if o.DeviceCopyBytes <= 0 {
		o.DeviceCopyBytes = 1024 * mib
		if cpu {
			o.DeviceCopyBytes = 256 * mib
		}
	}
	if o.HostToDeviceBytes <= 0 {
		o.HostToDeviceBytes = 256 * mib
	}
	o.HostToDeviceBytes = min(o.HostToDeviceBytes, o.DeviceCopyBytes)
	if len(o.Formats) == 0 {
		o.Formats, _ = ParseFormats(strings.Join(DefaultFormats, ","))
	}
	if len(o.Sizes) == 0 {
		o.Sizes = NamedSizes
	}
}

// Settings records the options a report was made with.
type Settings struct {
	Frames            int     `json:"frames"`
	Warmup            int     `json:"warmup"`
	InFlight          int     `json:"in_flight"`
	EndToEndSeconds   float64 `json:"end_to_end_seconds"`
	DistinctFrames    int     `json:"distinct_frames"`
	RotationBytes     int64   `json:"rotation_bytes"`
	DeviceCopyBytes   int64   `json:"device_copy_bytes"`
	HostToDeviceBytes int64   `json:"host_to_device_bytes"`
	Matrix            string  `json:"matrix"`
	Range             string  `json:"range"`
	Validation        bool    `json:"validation"`
}

// Report is everything one run measured.
type Report struct {
	Tool      string     `json:"tool"`
	Command   string     `json:"command"`
	Date      string     `json:"date"`
	Device    DeviceInfo `json:"device"`
	Host      HostInfo   `json:"host"`
	Settings  Settings   `json:"settings"`
	Reference Reference  `json:"reference"`
	Results   []Result   `json:"results"`
	Seconds   float64    `json:"seconds"`
}

// Run measures the references, then every format × size of o. On an error it returns what it
// measured before it with the error (nil report only when nothing could be measured).
func Run(d *gpu.Device, o Options) (*Report, error) {
	start := time.Now()
	o.defaults(d)
	rep := &Report{Tool: "ycbcrbench", Command: o.Command, Date: start.UTC().Format(time.RFC3339),
		Device: deviceInfo(d), Host: hostInfo(),
		Settings: Settings{Frames: o.Frames, Warmup: o.Warmup, InFlight: o.InFlight,
			EndToEndSeconds: o.EndToEnd.Seconds(), DistinctFrames: o.DistinctFrames, RotationBytes: o.RotationBytes,
			DeviceCopyBytes: o.DeviceCopyBytes, HostToDeviceBytes: o.HostToDeviceBytes,
			Matrix: benchMatrix.String(), Range: benchRange.String(), Validation: d.Validation}}
	progress(&o, "reference copies: device %d MiB ×2, host→device %d MiB", o.DeviceCopyBytes/mib, o.HostToDeviceBytes/mib)
	var err error
	if rep.Reference, err = measureReference(d, &o); err != nil {
		return nil, err
	}
	progress(&o, "device copy %.1f GB/s (read+write), host→device %.1f GB/s, memcpy to staging %.1f GB/s",
		rep.Reference.DeviceCopy.GBps, rep.Reference.HostToDevice.GBps, rep.Reference.MemcpyToStaging.GBps)

	r := &runner{dev: d, o: &o, ref: &rep.Reference}
	if r.rp, err = newDrawPass(d); err != nil {
		return nil, err
	}
	defer r.destroy()
	for _, pf := range o.Formats {
		for _, sz := range o.Sizes {
			res, err := r.measure(pf, sz)
			rep.Results = append(rep.Results, res)
			rep.Seconds = time.Since(start).Seconds()
			if err != nil {
				return rep, fmt.Errorf("bench: %s %s: %w", pf.Name, sz.Name, err)
			}
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// IsDeviceLost reports whether err (from Run) is VK_ERROR_DEVICE_LOST.
func IsDeviceLost(err error) bool { return vkx.IsDeviceLost(err) }

func progress(o *Options, format string, a ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "ycbcrbench: "+format+"\n", a...)
	}
}

// Command ycbcrbench measures what putting YUV video on a Vulkan device costs through ycbcrkit's two
// conversion paths: GPU time of the conversion draw alone (sampler path and shader path), the
// upload (CPU staging copy and GPU buffer→image copies), end-to-end offscreen frames per second, and
// the device's memory and host→device bandwidths as the ceilings to read them against. Frames are
// made in-process (testvectors/synth), so it links neither FFmpeg nor GLFW and loads libvulkan.so.1
// at run time: one binary runs on any Linux GPU machine.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ycbcrkit/ycbcrkit/bench"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/app/cli"
)

const help = `ycbcrbench: GPU conversion and upload benchmark.

Usage: ycbcrbench [flags]

For every format × size it measures, on the device:
  conversion   GPU time of the conversion draw alone (timestamps around the render pass, planes
               already uploaded, a full barrier before each draw) into an RGBA8 target of the
               frame's size, through the sampler path (VkSamplerYcbcrConversion, BT.709 limited
               range, the first of topleft/center sitings the device offers; n/a with the reason
               otherwise) and the shader path; median and p10/p90
  upload       CPU time of planes.Image.Stage and GPU time of the buffer→image copies
               (RecordUpload), bytes per frame and GB/s
  end to end   offscreen frames per second: stage + upload + convert with frames in flight
and, once, the references: device-local buffer copy (read+write bytes) and host→device copy,
both GPU-timed, and memcpy into mapped staging memory on the CPU. The conversion floor is the
bytes it must move (planes read + target written) at the device-copy bandwidth.

Progress goes to stderr; a table (or, with -json, one JSON document) to stdout. The table fits
120 columns: per format × size, each path's draw, the fastest conversion variant and its ratio to
the floor, the upload and the three loops' frame rates; -wide prints every column (about 250).
Exit status: 0 done, 2 error (no device, bad flags, device lost, validation messages).

Flags:
`

type options struct {
	device   int
	list     bool
	validate bool
	jsonOut  bool
	wide     bool
	quick    bool
	sizes    string
	formats  string
	frames   int
	warmup   int
	inFlight int
	e2e      time.Duration
	refMiB   int
	render   string
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the whole command, returning the exit status, so that tests can call it.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ycbcrbench", flag.ContinueOnError)
	var o options
	cli.DeviceFlags(fs, &o.device, &o.list)
	fs.BoolVar(&o.validate, "validate", false, "turn on the Khronos validation layer; any message is an error (CPU-side figures get slower)")
	fs.BoolVar(&o.jsonOut, "json", false, "write one JSON document on stdout instead of the table")
	fs.BoolVar(&o.wide, "wide", false, "print the full table, every column (about 250 wide); the default fits 120 columns")
	fs.BoolVar(&o.quick, "quick", false, "a small CI-sized run: 720p unless -sizes says otherwise, 5 frames, short end-to-end loop, 32 MiB references")
	fs.StringVar(&o.sizes, "sizes", "720p,1080p,2160p,4320p", "comma-separated `LIST` of sizes: 720p, 1080p, 2160p, 4320p or WxH")
	fs.StringVar(&o.formats, "formats", strings.Join(bench.DefaultFormats, ","), "comma-separated `LIST` of pixel formats (FFmpeg names)")
	fs.IntVar(&o.frames, "frames", 0, "timed frames per measurement, after a tenth as many warm-up ones (default 100 on a GPU, 50 on a CPU device, 5 with -quick)")
	fs.IntVar(&o.warmup, "warmup", 0, "warm-up frames per measurement (default a tenth of -frames, at least 1)")
	fs.IntVar(&o.inFlight, "in-flight", 3, "frames in flight in the end-to-end loop (2..4)")
	fs.DurationVar(&o.e2e, "e2e", 2*time.Second, "how long the end-to-end loop runs per format × size (0.25s with -quick)")
	fs.IntVar(&o.refMiB, "ref-mib", 0, "size of the device-copy reference buffers in MiB (default 1024 on a GPU, 256 on a CPU device, 32 with -quick); the host→device reference uses at most 256")
	fs.StringVar(&o.render, "render", "", "print the table of a saved -json `FILE` and exit (no device needed)")
	if status, done := cli.Parse(fs, args, help, stdout, stderr); done {
		return status
	}
	if fs.NArg() > 0 {
		return fail(stderr, "unexpected argument %q (ycbcrbench -h lists the flags)", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	if o.render != "" {
		return render(o.render, o.wide, stdout, stderr)
	}
	if o.list {
		return cli.ListDevices(stdout, stderr, 2)
	}

	bo := bench.Options{Frames: o.frames, Warmup: o.warmup, InFlight: o.inFlight, EndToEnd: o.e2e,
		DeviceCopyBytes: int64(o.refMiB) << 20, Progress: stderr, Command: cli.Command("ycbcrbench", args)}
	if o.quick {
		if !set["sizes"] {
			o.sizes = "720p"
		}
		if !set["frames"] {
			bo.Frames = 5
		}
		if !set["warmup"] {
			bo.Warmup = 1
		}
		if !set["e2e"] {
			bo.EndToEnd = 250 * time.Millisecond
		}
		if !set["ref-mib"] {
			bo.DeviceCopyBytes = 32 << 20
		}
		bo.DistinctFrames, bo.RefReps, bo.RotationBytes = 2, 3, -1
	}
	var err error
	if bo.Sizes, err = bench.ParseSizes(o.sizes); err != nil {
		return fail(stderr, "-sizes: %v", err)
	}
	if bo.Formats, err = bench.ParseFormats(o.formats); err != nil {
		return fail(stderr, "-formats: %v", err)
	}
	switch {
	case o.frames < 0:
		return fail(stderr, "-frames %d: want a positive count", o.frames)
	case o.warmup < 0:
		return fail(stderr, "-warmup %d: want a positive count", o.warmup)
	case o.inFlight < 2 || o.inFlight > 4:
		return fail(stderr, "-in-flight %d: want 2, 3 or 4", o.inFlight)
	case o.e2e <= 0:
		return fail(stderr, "-e2e %s: want a positive duration", o.e2e)
	case o.refMiB < 0 || o.refMiB > 8192:
		return fail(stderr, "-ref-mib %d: want 1..8192", o.refMiB)
	}

	dev, err := gpu.Open(gpu.Options{Index: o.device, Validation: o.validate})
	if err != nil {
		return fail(stderr, "%v", err)
	}
	defer dev.Close()
	if dev.Validation {
		fmt.Fprintln(stderr, "ycbcrbench: validation layer on: CPU-side figures (stage, end to end) are not representative")
	}
	rep, runErr := bench.Run(dev, bo)
	if rep != nil {
		// A stopped run still reports what it measured before the fault.
		if code := write(rep, o.jsonOut, o.wide, stdout, stderr); code != 0 {
			return code
		}
	}
	if runErr != nil {
		if bench.IsDeviceLost(runErr) {
			return fail(stderr, "device lost: %v", runErr)
		}
		return fail(stderr, "%v", runErr)
	}
	if err := dev.ValidationError(stderr); err != nil {
		return fail(stderr, "%v: the benchmark misused Vulkan, its figures are not trustworthy", err)
	}
	fmt.Fprintf(stderr, "ycbcrbench: done: %d format × size combinations in %.0f s\n", len(rep.Results), rep.Seconds)
	return 0
}

func write(rep *bench.Report, jsonOut, wide bool, stdout, stderr io.Writer) int {
	if jsonOut {
		out, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return fail(stderr, "json: %v", err)
		}
		if _, err := fmt.Fprintf(stdout, "%s\n", out); err != nil {
			return fail(stderr, "write: %v", err)
		}
		return 0
	}
	table := rep.WriteTable
	if wide {
		table = rep.WriteWideTable
	}
	if err := table(stdout); err != nil {
		return fail(stderr, "write: %v", err)
	}
	return 0
}

// render prints the table of a report saved with -json: the device run can keep only the JSON and
// the table still be made afterwards, anywhere.
func render(path string, wide bool, stdout, stderr io.Writer) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return fail(stderr, "-render: %v", err)
	}
	var rep bench.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return fail(stderr, "-render %s: %v", path, err)
	}
	return write(&rep, false, wide, stdout, stderr)
}

// fail prints one "error: ..." line and returns exit status 2.
func fail(stderr io.Writer, format string, a ...any) int { return cli.Fail(stderr, 2, format, a...) }

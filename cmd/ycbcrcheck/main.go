// Command ycbcrcheck checks a Vulkan device's sampler Y′CbCr conversion against the CPU oracle,
// for every format, model, range, chroma siting, chroma filter and reconstruction mode the device
// offers, and the project's shader path alongside. It links neither FFmpeg nor GLFW and loads
// libvulkan.so.1 at run time, so one binary runs on any Linux GPU machine.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/app/cli"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/check"
)

const help = `ycbcrcheck: conformance check of a Vulkan device's sampler Y′CbCr conversion.

Usage: ycbcrcheck [flags]

For every format of formats.MultiPlanarFormats that the device can sample with a conversion
(SAMPLED_IMAGE and COSITED or MIDPOINT chroma samples, optimal tiling) and that the pixel-format
table can make frames for, it runs every combination the format's feature bits allow of

  model           RGB_IDENTITY, YCBCR_IDENTITY, YCBCR_709, YCBCR_601, YCBCR_2020
  range           ITU_FULL, ITU_NARROW (RGB_IDENTITY ignores it: ITU_FULL only)
  chroma offsets  COSITED_EVEN / MIDPOINT on each subsampled axis
  chroma filter   NEAREST, LINEAR (LINEAR_FILTER bit)
  reconstruction  implicit, forced explicit (EXPLICIT_FORCEABLE bit; always explicit with
                  the EXPLICIT bit)

Each combination converts a noise frame and a chroma-siting probe frame through the sampler
path (VkSamplerYcbcrConversion, immutable sampler) into RGBA8 targets of the frame's size
(samples at luma texel centres) and of twice its size (off-centre samples), and compares every
pixel with the oracle's per-pixel bounds (HardwareTolerance for the device's bit depth and
subTexelPrecisionBits). LINEAR implicit combinations also run through the shader path. What
the device does not offer is listed with the feature bit and VUID that rule it out. It also
checks the features the spec makes mandatory (G8_B8_R8_3PLANE_420 and G8_B8R8_2PLANE_420:
SAMPLED_IMAGE, TRANSFER_SRC/DST, COSITED_CHROMA_SAMPLES).

Then the colour systems no sampler model expresses, which only the shader path implements
(-systems=false leaves them out), one report row each: YCgCo (limited, full), YCgCo-Re,
YCgCo-Ro, BT.2020 constant luminance (limited, full), PQ to SDR (BT.2390 with no metadata and
with mastering metadata, clip) and HLG to SDR, on yuv420p, yuv422p10le and yuv444p16le
(-quick: yuv420p). YCgCo is judged by the oracle's bounds, the non-linear systems by the
distance from the oracle's exact value (1 LSB; YCgCo-R on subsampled layouts two more codes of
its R′G′B′ depth).

A failing combination is compared again with the oracle under each fault hypothesis (siting
shifted by half a chroma texel, offsets swapped, range stretched, matrix swapped, Cb/Cr swapped
or collapsed, chroma filter or reconstruction ignored, bits shifted, no conversion); the ones
that explain it are printed as its likely causes. -report DIR writes one page (report.md and
report.html) with the device, every combination's result, pictures of the first failures and
the command that runs one combination alone (-combo).

Progress goes to stderr; a table (or, with -json, one JSON document) to stdout.
Exit status: 0 all combinations within bounds, 1 failures (or a mandatory feature missing),
2 error (no device, bad flags, nothing to check, device lost, validation messages).

Flags:
`

type options struct {
	device    int
	list      bool
	jsonOut   bool
	reportDir string
	formats   string
	quick     bool
	verbose   bool
	size      string
	validate  bool
	systems   bool
	combos    string
	strict    bool
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the whole command, returning the exit status, so that tests can call it.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ycbcrcheck", flag.ContinueOnError)
	var o options
	cli.DeviceFlags(fs, &o.device, &o.list)
	fs.BoolVar(&o.jsonOut, "json", false, "write one JSON document (the full report) on stdout instead of the table")
	fs.StringVar(&o.reportDir, "report", "", "write the report page `DIR`/report.md and DIR/report.html, with heat maps and pictures (expected, got, difference) of failing combinations")
	fs.StringVar(&o.formats, "formats", "", "comma-separated `LIST` of formats to check: VkFormat names (G8_B8R8_2PLANE_420_UNORM) or pixel formats (nv12, nv21)")
	fs.BoolVar(&o.quick, "quick", false, "check the RGB_IDENTITY and YCBCR_709 models only")
	fs.StringVar(&o.combos, "combo", "", "run only the combinations named in the comma-separated `LIST` of patterns, e.g. 709-narrow-left-linear-implicit or '601-*' (the report's names; path.Match syntax)")
	fs.BoolVar(&o.strict, "strict", false, "fail pixels that are within bounds only because implicit NEAREST may treat COSITED_EVEN as MIDPOINT (the spec allows it)")
	fs.BoolVar(&o.verbose, "v", false, "print a line per combination and per skipped format on stderr")
	fs.StringVar(&o.size, "size", "16x8", "frame size `WxH` (even numbers)")
	fs.BoolVar(&o.systems, "systems", true, "also check the colour systems only the shader path implements (YCgCo, YCgCo-R, BT.2020-CL, PQ/HLG tone mapping)")
	fs.BoolVar(&o.validate, "validate", false, "turn on the Khronos validation layer; any message is an error")
	if status, done := cli.Parse(fs, args, help, stdout, stderr); done {
		return status
	}
	if fs.NArg() > 0 {
		return fail(stderr, "unexpected argument %q (ycbcrcheck -h lists the flags)", fs.Arg(0))
	}
	if o.list {
		return cli.ListDevices(stdout, stderr, 2)
	}
	w, h, err := parseSize(o.size)
	if err != nil {
		return fail(stderr, "-size: %v", err)
	}
	opts := check.Options{Quick: o.quick, Width: w, Height: h, Progress: stderr, Verbose: o.verbose, SkipSystems: !o.systems, Strict: o.strict}
	if o.formats != "" {
		opts.Formats = strings.Split(o.formats, ",")
	}
	if o.combos != "" {
		opts.Combos = strings.Split(o.combos, ",")
	}

	dev, err := gpu.Open(gpu.Options{Index: o.device, Validation: o.validate})
	if err != nil {
		return fail(stderr, "%v", err)
	}
	defer dev.Close()
	rep, runErr := check.Run(dev, opts)
	if rep == nil {
		return fail(stderr, "%v", runErr)
	}
	rep.Command = cli.Command("ycbcrcheck", args)
	rep.PlantedFault = os.Getenv("YCBCRKIT_FAULT") // the fault layer's (layers/faults), if it is on
	// A stopped run still reports what it did before the fault.
	if o.jsonOut {
		out, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return fail(stderr, "json: %v", err)
		}
		fmt.Fprintf(stdout, "%s\n", out)
	} else if err := rep.WriteTable(stdout); err != nil {
		return fail(stderr, "%v", err)
	}
	if o.reportDir != "" {
		if err := rep.WriteMarkdown(o.reportDir); err != nil {
			return fail(stderr, "%v", err)
		}
		fmt.Fprintf(stderr, "report: %s/report.md and report.html\n", strings.TrimRight(o.reportDir, "/"))
	}
	if runErr != nil {
		if check.IsDeviceLost(runErr) {
			return fail(stderr, "device fault: %v", runErr)
		}
		return fail(stderr, "%v", runErr)
	}
	if err := dev.ValidationError(stderr); err != nil {
		return fail(stderr, "%v: the checker misused Vulkan, results are not trustworthy", err)
	}
	if o.jsonOut { // the table has them on stdout otherwise
		for _, f := range rep.Findings {
			label := "likely cause"
			if f.Symptom == check.SymptomPermitted {
				label = "note"
			}
			fmt.Fprintf(stderr, "%s: %s (%d combinations, e.g. %s)\n", label, f.Symptom, f.Combinations, f.Example)
		}
	}
	if !rep.OK() {
		fmt.Fprintf(stderr, "FAIL: %d of %d combinations outside the oracle's bounds, %d of %d colour systems failing, %d mandatory features missing\n",
			rep.Totals.Failed, rep.Totals.Combinations, rep.Totals.SystemsFailed, len(rep.Systems), len(rep.MandatoryMissing))
		return 1
	}
	if rep.Totals.Combinations == 0 {
		return fail(stderr, "nothing checked: the device offers no combination of the selected formats (-v says why)")
	}
	fmt.Fprintf(stderr, "PASS: %d combinations on %d format(s) within the oracle's bounds, %d colour systems (%.1f s)\n",
		rep.Totals.Combinations, rep.Totals.Formats, len(rep.Systems), rep.Seconds)
	return 0
}

// fail prints one "error: ..." line and returns exit status 2.
func fail(stderr io.Writer, format string, a ...any) int { return cli.Fail(stderr, 2, format, a...) }

func parseSize(s string) (int, int, error) {
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	if !ok {
		return 0, 0, fmt.Errorf("%q: want WxH, e.g. 16x8", s)
	}
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%q: want WxH, e.g. 16x8", s)
	}
	return w, h, nil
}

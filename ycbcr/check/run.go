package check

import (
	"fmt"
	"image"
	"io"
	"math"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// Fault is a deliberate error in a path's set-up, mostly the shader path's constants. It exists for the checker's own
// tests: each fault must make a run report failures, which proves the comparison can fail.
type Fault int

const (
	NoFault       Fault = iota
	FaultSiting         // chroma coordinate shifted by half a chroma texel along x
	FaultSwapCbCr       // Cb read where Cr is and vice versa (SrcTex/SrcComp swapped)
	FaultRange          // constants computed for the other range (narrow ↔ full)
	// FaultSamplerSwap gives the sampler path's conversion the Cb/Cr swizzle the layout does not
	// need (or drops the one it needs): the one fault on the sampler side.
	FaultSamplerSwap
)

func (f Fault) String() string {
	switch f {
	case NoFault:
		return ""
	case FaultSiting:
		return "half-chroma-texel siting error"
	case FaultSwapCbCr:
		return "swapped Cb/Cr"
	case FaultRange:
		return "narrow/full range mix-up"
	case FaultSamplerSwap:
		return "wrong Cb/Cr swizzle on the sampler path"
	}
	return fmt.Sprintf("Fault(%d)", int(f))
}

// Options choose what a run covers.
type Options struct {
	// Formats filters the formats: VkFormat names (with or without VK_FORMAT_, any case) or
	// pixel-format names, which also pick that table row ("nv21" runs the Cb/Cr swizzle). Empty
	// means every format in formats.MultiPlanarFormats.
	Formats []string
	// Quick runs the RGB_IDENTITY and YCBCR_709 models only.
	Quick bool
	// Width, Height is the frame size; 0 means 16×8. Both must be even (4:2:0 needs it) and at
	// most MaxFrameSize.
	Width, Height int
	// Progress, when set, receives a line per format ("[3/17] VK_FORMAT_... 18 combinations ...").
	Progress io.Writer
	// Verbose adds a line per combination to Progress.
	Verbose bool
	// Fault injects a fault into one path (tests of the checker only).
	Fault Fault
	// Combos, when set, runs only the combinations whose Combination.Name matches one of these
	// path.Match patterns ("709-narrow-left-linear-implicit", "601-*").
	Combos []string
	// Strict counts pixels that are within the bounds only through the implicit NEAREST + COSITED
	// allowance to behave as MIDPOINT (Permitted) as failures: the spec allows it, a driver
	// developer may want to see it.
	Strict bool
	// Pictures is how many failing combinations get pictures in the report (expected, got,
	// difference); 0 means 4.
	Pictures int
	// SkipSystems leaves out the colour systems only the shader path implements (YCgCo, YCgCo-R,
	// BT.2020 constant luminance, PQ and HLG tone mapping; systems.go), which run by default.
	SkipSystems bool
}

// MaxFrameSize bounds the frame's width and height. The oracle validates the whole picture on every
// sample it bounds, so the CPU time grows with the square of the pixel count: 16×8 takes about a
// second for all of lavapipe's combinations, 64×32 about forty.
const MaxFrameSize = 64

// Frames and samplings, in the order results and heat-map panels use.
var (
	frameNames    = [2]string{"noise", "probe"}
	samplingNames = [2]string{"centre", "off-centre"}
)

const (
	pathSampler = 0
	pathShader  = 1
)

var pathNames = [2]string{"sampler", "shader"}

// noiseSeed fixes the noise frame so that runs are reproducible.
const noiseSeed = 1

// runner holds what a run shares across formats.
type runner struct {
	dev  *gpu.Device
	opts Options
	w, h int
	sp   *ycbcr.ShaderPath
	// targets[path][frame][sampling]: centre targets are the frame's size (samples at luma texel
	// centres), off-centre ones twice that (samples a quarter texel off centre).
	targets [2][2][2]*gpu.Offscreen
	sub     int // subTexelPrecisionBits
	// pictured counts the failing combinations given pictures so far (Options.Pictures).
	pictured int
}

// Run checks every combination the device offers (within opts) and returns the report. The
// error is non-nil only when the run could not start or had to stop: bad options, or a device
// fault (IsDeviceLost), in which case the report holds what was done before it.
func Run(dev *gpu.Device, opts Options) (*Report, error) {
	start := time.Now()
	w, h := opts.Width, opts.Height
	if w == 0 && h == 0 {
		w, h = 16, 8
	}
	if w < 2 || h < 2 || w%2 != 0 || h%2 != 0 || w > MaxFrameSize || h > MaxFrameSize {
		return nil, fmt.Errorf("check: frame size %dx%d: want even sizes from 2 to %d", w, h, MaxFrameSize)
	}
	sels, err := selectFormats(opts.Formats)
	if err != nil {
		return nil, err
	}
	r := &runner{dev: dev, opts: opts, w: w, h: h, sub: int(dev.Limits.SubTexelPrecisionBits)}
	rep := &Report{Device: deviceReport(dev), Date: start.UTC().Format(time.RFC3339), Width: w, Height: h,
		Quick: opts.Quick, Fault: opts.Fault.String(), Strict: opts.Strict, Combos: opts.Combos}
	defer r.destroy() // also after a failed init, which may have made some targets
	if err := r.init(); err != nil {
		return nil, err
	}
	for _, f := range mandatoryFormats {
		feats := vkx.FormatProperties(dev.Physical, uint32(f)).Optimal
		rep.MandatoryMissing = append(rep.MandatoryMissing, mandatoryMissing(f, feats)...)
	}

	var plans []plan
	for _, s := range sels {
		feats := vkx.FormatProperties(dev.Physical, uint32(s.format)).Optimal
		p := makePlan(s.format, feats, s.layout, opts.Quick)
		if p.combos, err = selectCombos(p.combos, opts.Combos); err != nil {
			return nil, err
		}
		rep.NotOffered = append(rep.NotOffered, p.notOffered...)
		if p.skip == "" && len(p.combos) > 0 {
			plans = append(plans, p)
		} else if opts.Verbose && opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "skip %s: %s\n", s.format, p.skip)
		}
	}
	for i, p := range plans {
		fr, err := r.format(p, i+1, len(plans))
		if fr != nil {
			rep.Formats = append(rep.Formats, *fr)
		}
		if err != nil {
			rep.Error = err.Error()
			rep.total()
			rep.Seconds = time.Since(start).Seconds()
			return rep, err
		}
	}
	if !opts.SkipSystems {
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "colour systems (shader path): %d systems ...", len(colourSystems))
		}
		rep.Systems, err = r.systems()
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, " %s\n", systemsStatus(rep.Systems))
		}
		if err != nil {
			rep.Error = err.Error()
			rep.total()
			rep.Seconds = time.Since(start).Seconds()
			return rep, err
		}
	}
	rep.total()
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// systemsStatus is the progress line's verdict on the colour systems.
func systemsStatus(s []SystemReport) string {
	failed := 0
	for _, r := range s {
		if !r.Pass {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Sprintf("%d FAILING", failed)
	}
	return "all within the oracle's criteria"
}

// mandatoryFormats must have mandatoryFeatures in optimal tiling on every device with
// samplerYcbcrConversion (formats.adoc §formats-requiring-sampler-ycbcr-conversion;
// docs/ycbcr-math.md §6.2): the checker reports a device without them as failing.
var mandatoryFormats = []formats.VkFormat{formats.VkG8_B8_R8_3Plane420Unorm, formats.VkG8_B8R8_2Plane420Unorm}

var mandatoryFeatures = []struct {
	bit  vk.FormatFeatureFlagBits
	name string
}{
	{vk.FormatFeatureSampledImageBit, "SAMPLED_IMAGE"},
	{vk.FormatFeatureTransferSrcBit, "TRANSFER_SRC"},
	{vk.FormatFeatureTransferDstBit, "TRANSFER_DST"},
	{vk.FormatFeatureCositedChromaSamplesBit, "COSITED_CHROMA_SAMPLES"},
}

// mandatoryMissing names the required features f lacks, one line each.
func mandatoryMissing(f formats.VkFormat, feats vk.FormatFeatureFlags) []string {
	var out []string
	for _, m := range mandatoryFeatures {
		if !has(feats, m.bit) {
			out = append(out, fmt.Sprintf("%s lacks %s_BIT, which samplerYcbcrConversion makes mandatory", f, m.name))
		}
	}
	return out
}

// IsDeviceLost reports whether err (from Run) is a device fault: VK_ERROR_DEVICE_LOST.
func IsDeviceLost(err error) bool { return vkx.IsDeviceLost(err) }

func deviceReport(dev *gpu.Device) DeviceReport {
	var p vk.PhysicalDeviceProperties
	vk.GetPhysicalDeviceProperties(dev.Physical, &p)
	p.Deref()
	d := DeviceReport{Index: dev.Info.Index, Name: dev.Info.Name, Type: dev.Info.Type, APIVersion: dev.Info.APIVersion,
		DriverVersion: driverVersion(p.VendorID, p.DriverVersion), DriverRaw: p.DriverVersion,
		VendorID: p.VendorID, DeviceID: p.DeviceID, SubTexelBits: int(dev.Limits.SubTexelPrecisionBits),
		Validation: dev.Validation}
	// driverInfo names what driverVersion cannot (lavapipe's is 0.0.1). The instance asks for Vulkan
	// 1.1, so the struct is used only where the device advertises VK_KHR_driver_properties.
	if gpu.DeviceExtensions(dev.Physical)["VK_KHR_driver_properties"] {
		d.DriverName, d.DriverInfo = vkx.DriverProperties(dev.Physical)
	}
	return d
}

// driverVersion decodes driverVersion, whose encoding is the vendor's: NVIDIA packs 10.8.8.6 bits,
// Mesa and most others use VK_MAKE_API_VERSION's 10.10.12.
func driverVersion(vendor, v uint32) string {
	if vendor == 0x10de {
		return fmt.Sprintf("%d.%d.%d.%d", v>>22, (v>>14)&0xff, (v>>6)&0xff, v&0x3f)
	}
	return fmt.Sprintf("%d.%d.%d", v>>22&0x3ff, (v>>12)&0x3ff, v&0xfff)
}

func (r *runner) init() error {
	var err error
	if r.sp, err = ycbcr.NewShaderPath(r.dev); err != nil {
		return fmt.Errorf("check: %w", err)
	}
	for p := range r.targets {
		for f := range r.targets[p] {
			for s := range r.targets[p][f] {
				w, h := r.w<<s, r.h<<s
				if r.targets[p][f][s], err = r.dev.NewOffscreen(w, h); err != nil {
					return fmt.Errorf("check: %w", err)
				}
			}
		}
	}
	return nil
}

func (r *runner) destroy() {
	vkx.DeviceWaitIdle(r.dev.Device)
	for p := range r.targets {
		for f := range r.targets[p] {
			for _, t := range r.targets[p][f] {
				if t != nil {
					t.Destroy()
				}
			}
		}
	}
	if r.sp != nil {
		r.sp.Destroy()
	}
}

// stop turns a Vulkan error into the error that ends the run when it is a device fault; any other
// error only fails the combination it happened in.
func stop(what string, err error) error {
	if vkx.IsDeviceLost(err) {
		return fmt.Errorf("check: %s: device lost (VK_ERROR_DEVICE_LOST), run stopped: %w", what, err)
	}
	return nil
}

// format runs every combination of one format. The frames are uploaded once; each combination
// binds them through both paths and draws all eight targets in one submission.
func (r *runner) format(p plan, i, n int) (*FormatReport, error) {
	start := time.Now()
	pf := p.layout
	fr := &FormatReport{Format: p.format.String(), Layout: pf.Name, Bits: p.facts.Bits, Subsampling: pf.Subsampling(),
		Features: featureNames(p.features)}
	progress := r.opts.Progress
	if progress == nil {
		progress = io.Discard
	}
	fmt.Fprintf(progress, "[%d/%d] %s (%s): %d combinations ...", i, n, p.format, pf.Name, len(p.combos))
	if r.opts.Verbose {
		fmt.Fprintln(progress)
	}

	var frames [2]*formats.Frame
	var pics [2]*oracle.Picture
	var err error
	if frames[0], err = synth.Noise(pf, r.w, r.h, noiseSeed); err != nil {
		return nil, fmt.Errorf("check: %s: %w", pf.Name, err)
	}
	if frames[1], err = synth.SitingProbe(pf, r.w, r.h); err != nil {
		return nil, fmt.Errorf("check: %s: %w", pf.Name, err)
	}
	var images [2]*planes.Image
	defer func() {
		for _, im := range images {
			if im != nil {
				im.Destroy()
			}
		}
	}()
	setupFail := func(err error) (*FormatReport, error) {
		if s := stop(p.format.String(), err); s != nil {
			return fr, s
		}
		// The device claims the format but the set-up failed: every combination fails with it.
		for _, c := range p.combos {
			fr.add(ComboResult{Name: c.Name(), Error: fmt.Sprintf("check: set-up of %s: %v", pf.Name, err)})
		}
		fmt.Fprintf(progress, " set-up failed: %v\n", err)
		return fr, nil
	}
	for k, f := range frames {
		pics[k] = OraclePicture(f)
		if images[k], err = planes.New(r.dev, pf, r.w, r.h, formats.PathSampler, formats.PathShader); err != nil {
			return setupFail(err)
		}
		if err = images[k].Stage(f); err != nil {
			return setupFail(err)
		}
	}
	if err = r.dev.Submit(func(cb vk.CommandBuffer) {
		for _, im := range images {
			im.RecordUpload(cb)
		}
	}); err != nil {
		return setupFail(err)
	}

	cache := ycbcr.NewCache(r.dev)
	defer cache.Destroy() // after the last submission, which Submit waited for
	for _, c := range p.combos {
		res, err := r.combo(c, cache, images, pics)
		if err != nil {
			fr.Seconds = time.Since(start).Seconds()
			fmt.Fprintln(progress, " stopped")
			return fr, err
		}
		fr.add(res)
		if r.opts.Verbose {
			fmt.Fprintf(progress, "  %s\n", comboLine(res))
		}
	}
	fr.Seconds = time.Since(start).Seconds()
	if r.opts.Verbose {
		fmt.Fprint(progress, "  =")
	}
	status := "all within bounds"
	if fr.Failed > 0 {
		status = fmt.Sprintf("%d FAILING", fr.Failed)
	}
	fmt.Fprintf(progress, " %s; LSB outside bounds: sampler %s, shader %s; max diff: sampler %s, shader %s (%.1f s)\n", status,
		lsb(fr.WorstSampler, true), lsb(fr.WorstShader, fr.ShaderRuns > 0),
		lsb(fr.DiffSampler, fr.LinearRuns > 0), lsb(fr.DiffShader, fr.ShaderRuns > 0), fr.Seconds)
	return fr, nil
}

func comboLine(res ComboResult) string {
	s := res.Name + ": "
	if res.Error != "" {
		return s + "ERROR " + res.Error
	}
	if res.Pass {
		s += "pass"
	} else {
		s += "FAIL"
	}
	for k, pr := range []*PathResult{res.Sampler, res.Shader} {
		if pr == nil {
			continue
		}
		s += fmt.Sprintf(", %s %d/%d px, worst %.2f LSB outside", pathNames[k], pr.Passed, pr.Pixels, pr.WorstLSB)
		if pr.MaxDiffLSB != nil {
			s += fmt.Sprintf(", max diff %.2f LSB", *pr.MaxDiffLSB)
		}
		if pr.Permitted > 0 {
			s += fmt.Sprintf(" (%d permitted)", pr.Permitted)
		}
		if pr.Worst != "" {
			s += " at " + pr.Worst
		}
	}
	return s
}

// submitDraws records every draw into its target in one command buffer, submits it and waits: the
// first draw's error, or the submission's.
func (r *runner) submitDraws(draws []draw) error {
	var drawErr error
	err := r.dev.Submit(func(cb vk.CommandBuffer) {
		for _, d := range draws {
			d.t.Begin(cb)
			if err := d.b.Draw(cb, d.t); err != nil && drawErr == nil {
				drawErr = err
			}
			d.t.End(cb)
		}
	})
	if err == nil {
		err = drawErr
	}
	return err
}

// draw is one render pass: a binding into a target.
type draw struct {
	b *ycbcr.Binding
	t *gpu.Offscreen
}

// combo runs one combination through the sampler path and, where it implements it, the shader
// path, and compares the results with the oracle.
func (r *runner) combo(c Combination, cache *ycbcr.Cache, images [2]*planes.Image, pics [2]*oracle.Picture) (ComboResult, error) {
	res := ComboResult{Name: c.Name(), Model: shortModel(c.Model), Range: shortRange(c.Range),
		XOffset: offsetName(c.XOffset), YOffset: offsetName(c.YOffset), Location: c.Siting(),
		Filter: filterName(c.Filter), Reconstruction: "implicit", SwapCbCr: c.Layout.SwapCbCr}
	if c.Explicit {
		res.Reconstruction = "explicit"
		if c.Force {
			res.Reconstruction = "forced explicit"
		}
	}
	fail := func(err error) (ComboResult, error) {
		if s := stop(c.String(), err); s != nil {
			return res, s
		}
		res.Error = err.Error()
		res.Pass = false
		return res, nil
	}
	var bindings []*ycbcr.Binding
	defer func() {
		for _, b := range bindings {
			b.Destroy()
		}
	}()
	var draws []draw
	key := c.Key()
	if r.opts.Fault == FaultSamplerSwap {
		key.SwapCbCr = !key.SwapCbCr
	}
	cv, err := cache.Get(key)
	if err != nil {
		return fail(err)
	}
	for k, im := range images {
		b, err := cv.Bind(im)
		if err != nil {
			return fail(err)
		}
		bindings = append(bindings, b)
		for s := range samplingNames {
			draws = append(draws, draw{b, r.targets[pathSampler][k][s]})
		}
	}
	shader := c.ShaderComparable()
	if shader {
		for k, im := range images {
			consts, err := r.shaderConstants(c, im)
			if err != nil {
				return fail(err)
			}
			b, err := r.sp.Bind(im, consts)
			if err != nil {
				return fail(err)
			}
			bindings = append(bindings, b)
			for s := range samplingNames {
				draws = append(draws, draw{b, r.targets[pathShader][k][s]})
			}
		}
	}
	err = r.submitDraws(draws)
	if err != nil {
		return fail(err)
	}

	prm := c.Oracle()
	tol := oracle.HardwareTolerance(c.Layout.Depth, r.sub)
	tol.UnormBits = 8
	if r.opts.Strict && c.cositedNearest() {
		prm = strictParams(c, prm)
	}
	res.Sampler = r.compare(c, pathSampler, prm, tol, pics)
	res.Pass = res.Sampler.Failed == 0
	if !res.Pass {
		res.Sampler.Symptoms = r.diagnose(c, pathSampler, prm, tol, pics)
		r.picture(&res, pathSampler, prm, pics)
	}
	if shader {
		sprm := c.Oracle()
		sprm.X6 = false // the shader path reads exact 16-bit containers
		stol := oracle.ShaderTolerance(0)
		stol.UnormBits = 8
		res.Shader = r.compare(c, pathShader, sprm, stol, pics)
		if res.Shader.Failed > 0 {
			res.Shader.Symptoms = r.diagnose(c, pathShader, sprm, stol, pics)
			r.picture(&res, pathShader, sprm, pics)
		}
		res.Pass = res.Pass && res.Shader.Failed == 0
	}
	return res, nil
}

// shaderConstants are the shader path's constants for c and im's textures, with the injected fault
// if any.
func (r *runner) shaderConstants(c Combination, im *planes.Image) (*ycbcr.ShaderConstants, error) {
	p := c.Params()
	if r.opts.Fault == FaultRange {
		p.Range = map[formats.Range]formats.Range{formats.RangeLimited: formats.RangeFull, formats.RangeFull: formats.RangeLimited}[p.Range]
	}
	consts, err := p.ShaderFor(im)
	if err != nil {
		return nil, fmt.Errorf("check: shader constants for %s: %w", c, err)
	}
	r.fault(consts, c.Layout)
	return consts, nil
}

// strictParams are prm without the implicit NEAREST + COSITED allowance to behave as MIDPOINT. The
// oracle offers that alternative only when every subsampled axis sits at a Vulkan position (0 or
// 0.5); moving a COSITED axis by 2^−30 of a luma texel leaves the geometry as it is (coordinate ties
// are still within the oracle's tie tolerance) and drops the alternative.
func strictParams(c Combination, prm oracle.Params) oracle.Params {
	const nudge = 0x1p-30
	if c.Layout.Log2ChromaW > 0 && c.XOffset == formats.CositedEven {
		prm.XChromaPos = nudge
	} else {
		prm.YChromaPos = nudge
	}
	return prm
}

// compare checks one path's eight read-backs (both frames, both samplings) against the oracle.
func (r *runner) compare(c Combination, path int, prm oracle.Params, tol oracle.Tolerance, pics [2]*oracle.Picture) *PathResult {
	pr := &PathResult{}
	diff := c.Filter == vk.FilterLinear
	if diff {
		pr.MaxDiffLSB = new(float64)
	}
	permitted := path == pathSampler && c.cositedNearest() && !r.opts.Strict
	var strict oracle.Params
	if permitted {
		strict = strictParams(c, prm)
	}
	worst := -1.0
	for k, pic := range pics {
		for s := range samplingNames {
			t := r.targets[path][k][s]
			img := t.RGBA()
			for y := 0; y < t.Height; y++ {
				for x := 0; x < t.Width; x++ {
					u, v := (float64(x)+0.5)/float64(t.Width), (float64(y)+0.5)/float64(t.Height)
					b := oracle.SampleBounds(pic, prm, u, v, tol)
					got := pixel(img, x, y)
					pr.Pixels++
					if diff {
						exact := oracle.Sample(pic, prm, u, v)
						for ch := 0; ch < 3; ch++ {
							d := math.Abs(float64(got[ch]) - math.Max(0, math.Min(1, exact[ch]))*255)
							*pr.MaxDiffLSB = math.Max(*pr.MaxDiffLSB, d)
						}
					}
					ex := excess(b, got)
					if ex <= 0 {
						pr.Passed++
						if permitted && excess(oracle.SampleBounds(pic, strict, u, v, tol), got) > 0 {
							pr.Permitted++
						}
						continue
					}
					pr.Failed++
					f := Failure{Frame: frameNames[k], Sampling: samplingNames[s], X: x, Y: y, ExcessLSB: ex * 255, Got: got}
					for ch := 0; ch < 3; ch++ {
						f.Lo[ch], f.Hi[ch] = code(b.Lo[ch]), code(b.Hi[ch])
					}
					pr.Failures = append(pr.Failures, f)
					if ex*255 > worst {
						worst = ex * 255
						pr.WorstLSB = worst
						pr.Worst = fmt.Sprintf("%s %s (%d,%d) = %v, bounds %v..%v", f.Frame, f.Sampling, x, y, got, f.Lo, f.Hi)
					}
				}
			}
		}
	}
	return pr
}

func pixel(img *image.RGBA, x, y int) [3]uint8 {
	o := img.PixOffset(x, y)
	return [3]uint8{img.Pix[o], img.Pix[o+1], img.Pix[o+2]}
}

// excess is how far the read-back codes lie outside the bounds (already on the 8-bit grid), in
// units of 1.0 = full scale; ≤ 0 when inside.
func excess(b oracle.Bounds, got [3]uint8) float64 {
	ex := 0.0
	for ch := 0; ch < 3; ch++ {
		v := float64(got[ch]) / 255
		ex = math.Max(ex, math.Max(b.Lo[ch]-v, v-b.Hi[ch]))
	}
	if ex < 1e-9 { // the bounds are k/255 too: only rounding noise lies below this
		return 0
	}
	return ex
}

func code(v float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(1, v)) * 255)) }

package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteTable prints the report for people: header lines, the references, one row per format ×
// size, and the reasons behind every n/a.
func (rep *Report) WriteTable(w io.Writer) error {
	ew := &errWriter{w: w}
	d, h, ref := rep.Device, rep.Host, rep.Reference
	ew.printf("device:  %s (%s), driver %s, Vulkan %s\n", d.Name, d.Type, d.Driver, d.API)
	ew.printf("cpu:     %s (%d logical cores), %s\n", h.CPU, h.Cores, h.Go)
	ew.printf("date:    %s\n", rep.Date)
	if rep.Command != "" {
		ew.printf("command: %s\n", rep.Command)
	}
	s := rep.Settings
	ew.printf("run:     %s %s; %d timed frames after %d warm-up per measurement; %d frames in flight end to end for %.3g s; %.0f s in all",
		s.Matrix, s.Range, s.Frames, s.Warmup, s.InFlight, s.EndToEndSeconds, rep.Seconds)
	if s.Validation {
		ew.printf(" (validation layer on: CPU-side figures are slower than they should be)")
	}
	ew.printf("\n")
	ew.printf("reference: device copy %s GB/s (%d MiB, read+write counted), host→device %s GB/s (%d MiB), "+
		"memcpy to staging %s GB/s, heap memcpy %s GB/s; staging memory %s\n",
		sig(ref.DeviceCopy.GBps), ref.DeviceCopy.Bytes/2/mib, sig(ref.HostToDevice.GBps), ref.HostToDevice.Bytes/mib,
		sig(ref.MemcpyToStaging.GBps), sig(ref.MemcpyHeap.GBps), ref.HostMemory)
	ew.printf("\n")

	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "format\tsize\tMB/frame\tsampler ms [p10–p90]\tshader ms [p10–p90]\tsmp/shd\tfloor ms\tsmp/floor\tshd/floor\tsmp cs ms\tshd cs ms\tsmp cs/floor\tstage ms\tstage GB/s\tupload ms\tupload GB/s\t/H2D\te2e fps\te2e import+cs fps\tbuf ms\tbuf imp ms\te2e buf fps\t")
	var notes []string
	for _, r := range rep.Results {
		up := r.Sampler.Upload
		if !r.Sampler.Available {
			up = r.Shader.Upload
		}
		row := []string{r.Format, r.Size, sig(float64(r.FrameBytes) / 1e6),
			drawCell(r.Sampler, &notes, r, "sampler"), drawCell(r.Shader, &notes, r, "shader"),
			num(r.SamplerOverShader, 2), sig(r.FloorMs), num(r.Sampler.OverFloor, 1), num(r.Shader.OverFloor, 1),
			sig(r.Sampler.Compute.Median), sig(r.Shader.Compute.Median), num(r.Sampler.ComputeOverFloor, 1),
			sig(up.StageCPU.Median), sig(up.StageGBps), sig(up.CopyGPU.Median), sig(up.CopyGBps),
			num(up.CopyOverHostToDevice, 2), sig(r.EndToEnd.FPS), sig(r.EndToEndFast.FPS),
			stat(r.Buffer.Device, r.Buffer.Available), stat(r.Buffer.Imported, r.Buffer.Available), sig(r.Buffer.EndToEnd.FPS)}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	ew.printf("\n")
	ew.printf("sampler/shader: median GPU time of the conversion draw alone (RGBA8 target of the frame's size); floor: (plane bytes read + target bytes written) at the device-copy bandwidth; smp/floor, shd/floor: median over floor; cs: the same conversion as a compute dispatch writing a storage image.\n")
	ew.printf("stage: CPU copy into the staging buffer (planes.Image.Stage); upload: GPU buffer→image copies (RecordUpload) of the end-to-end path (sampler where available), /H2D: over the host→device reference; e2e: stage+upload+convert with frames in flight; e2e import+cs: the planes imported (no CPU copy) and the compute variant.\n")
	ew.printf("buf: the buffer variant of the shader path (no image: the planes' bytes in storage buffers into packed RGBA8), from device memory and, imp, from the frame's own host memory; e2e buf: import and convert with frames in flight, nothing copied.\n")
	for _, n := range notes {
		ew.printf("%s\n", n)
	}
	return ew.err
}

func drawCell(p PathResult, notes *[]string, r Result, name string) string {
	if !p.Available {
		*notes = append(*notes, fmt.Sprintf("n/a: %s %s %s path: %s", r.Format, r.Size, name, p.Reason))
		return "n/a"
	}
	return fmt.Sprintf("%s [%s–%s]", sig(p.Draw.Median), sig(p.Draw.P10), sig(p.Draw.P90))
}

// sig formats v with three significant digits and no exponent ("–" for 0: not measured).
func sig(v float64) string {
	if v == 0 {
		return "–"
	}
	digits := 2
	for a := v; a >= 10 && digits > 0; a /= 10 {
		digits--
	}
	for a := v; a < 1 && a > 0 && digits < 6; a *= 10 {
		digits++
	}
	return strconv.FormatFloat(v, 'f', digits, 64)
}

func num(v float64, decimals int) string {
	if v == 0 {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// errWriter keeps the first write error, so the table code can print without checking each line.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, a ...any) { fmt.Fprintf(e, format, a...) }

// stat is a median in milliseconds, or "n/a".
func stat(s Stats, ok bool) string {
	if !ok {
		return "n/a"
	}
	return sig(s.Median)
}

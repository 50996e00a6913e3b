package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// TableWidth is the widest line WriteTable prints for the standard sizes and formats: it fits a
// 120-column terminal. WriteWideTable prints every column and does not wrap.
const TableWidth = 120

// WriteTable prints the report for people in at most TableWidth columns: header lines, the
// references, one row per format × size with the most useful figures (each path's draw, the fastest
// conversion variant against the bandwidth floor, the upload, the three loops' frame rates), and
// the reasons behind every n/a. Long header and note lines are wrapped.
func (rep *Report) WriteTable(w io.Writer) error {
	ww := &wrapWriter{w: w, width: TableWidth, indent: "         "}
	ew := &errWriter{w: ww}
	rep.writeHeader(ew)

	ww.raw = true // a row wider than the terminal (a long WxH size) stays one row
	notes, err := rep.writeRows(ew, "format\tsize\tMB\tsmp ms\tshd ms\tfastest\tms\t×floor\tstage ms\tcopy ms\t/H2D\te2e fps\timp fps\tbuf fps",
		func(r Result, up Upload, notes *[]string) []string {
			drawCell(r.Sampler, notes, r, "sampler")
			drawCell(r.Shader, notes, r, "shader")
			name, ms := fastest(r)
			ratio := 0.0
			if r.FloorMs > 0 {
				ratio = ms / r.FloorMs
			}
			return []string{r.Format, r.Size, sig(float64(r.FrameBytes) / 1e6),
				stat(r.Sampler.Draw, r.Sampler.Available), stat(r.Shader.Draw, r.Shader.Available),
				name, sig(ms), num(ratio, 1),
				sig(up.StageCPU.Median), sig(up.CopyGPU.Median), num(up.CopyOverHostToDevice, 2),
				sig(r.EndToEnd.FPS), sig(r.EndToEndFast.FPS), sig(r.Buffer.EndToEnd.FPS)}
		})
	if err != nil {
		return err
	}
	ww.raw = false
	ew.printf("\n")
	ew.printf("MB: plane bytes per frame. smp, shd: median GPU time of the conversion draw alone, sampler and shader path (RGBA8 target of the frame's size). " +
		"fastest: the quickest of the draws (smp, shd), their compute variants (smp cs, shd cs) and the buffer variant (buf, planes in device memory); " +
		"×floor: its time over the floor, (plane bytes read + target bytes written) at the device-copy bandwidth.\n")
	ew.printf("stage: CPU copy into the staging buffer; copy: GPU buffer→image copies (the upload), for the path e2e uses (sampler where available); " +
		"/H2D: their rate over the host→device reference. e2e fps: stage+copy+draw with frames in flight; imp fps: planes imported (no CPU copy), " +
		"then the compute variant; buf fps: the buffer variant, nothing copied. " +
		"ycbcrbench -wide prints every column, -json every figure.\n")
	for _, n := range notes {
		ew.printf("%s\n", n)
	}
	if ew.err != nil {
		return ew.err
	}
	return ww.flush()
}

// fastest is the quickest conversion variant measured for r and its median GPU time in ms.
func fastest(r Result) (name string, ms float64) {
	try := func(n string, v float64, ok bool) {
		if ok && v > 0 && (ms == 0 || v < ms) {
			name, ms = n, v
		}
	}
	try("smp", r.Sampler.Draw.Median, r.Sampler.Available)
	try("shd", r.Shader.Draw.Median, r.Shader.Available)
	try("smp cs", r.Sampler.Compute.Median, r.Sampler.Available)
	try("shd cs", r.Shader.Compute.Median, r.Shader.Available)
	try("buf", r.Buffer.Device.Median, r.Buffer.Available)
	return name, ms
}

// writeHeader prints the lines above the table: device, host, date, command, settings, references,
// then an empty line.
func (rep *Report) writeHeader(ew *errWriter) {
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
}

// WriteWideTable prints the report for people with every column (about 250 wide): header lines,
// the references, one row per format × size, and the reasons behind every n/a.
func (rep *Report) WriteWideTable(w io.Writer) error {
	ew := &errWriter{w: w}
	rep.writeHeader(ew)

	notes, err := rep.writeRows(ew, "format\tsize\tMB/frame\tsampler ms [p10–p90]\tshader ms [p10–p90]\tsmp/shd\tfloor ms\tsmp/floor\tshd/floor\tsmp cs ms\tshd cs ms\tsmp cs/floor\tstage ms\tstage GB/s\tupload ms\tupload GB/s\t/H2D\te2e fps\te2e import+cs fps\tbuf ms\tbuf imp ms\te2e buf fps",
		func(r Result, up Upload, notes *[]string) []string {
			return []string{r.Format, r.Size, sig(float64(r.FrameBytes) / 1e6),
				drawCell(r.Sampler, notes, r, "sampler"), drawCell(r.Shader, notes, r, "shader"),
				num(r.SamplerOverShader, 2), sig(r.FloorMs), num(r.Sampler.OverFloor, 1), num(r.Shader.OverFloor, 1),
				sig(r.Sampler.Compute.Median), sig(r.Shader.Compute.Median), num(r.Sampler.ComputeOverFloor, 1),
				sig(up.StageCPU.Median), sig(up.StageGBps), sig(up.CopyGPU.Median), sig(up.CopyGBps),
				num(up.CopyOverHostToDevice, 2), sig(r.EndToEnd.FPS), sig(r.EndToEndFast.FPS),
				stat(r.Buffer.Device, r.Buffer.Available), stat(r.Buffer.Imported, r.Buffer.Available), sig(r.Buffer.EndToEnd.FPS)}
		})
	if err != nil {
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

// writeRows writes the header line (tab-separated column names) and one row per result, right
// aligned in columns, and returns the notes its cells left (the reasons behind each n/a). row makes
// a result's cells; up is the upload of the path the end-to-end loop uses (the sampler path where
// available).
func (rep *Report) writeRows(w io.Writer, header string, row func(r Result, up Upload, notes *[]string) []string) ([]string, error) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, header+"\t")
	var notes []string
	for _, r := range rep.Results {
		up := r.Sampler.Upload
		if !r.Sampler.Available {
			up = r.Shader.Upload
		}
		fmt.Fprintln(tw, strings.Join(row(r, up, &notes), "\t")+"\t")
	}
	return notes, tw.Flush()
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

// wrapWriter breaks the lines written through it at spaces so that none is wider than width
// columns (runes: the table's text has no wide characters), indenting the continuation lines.
// Lines that have no space to break at stay whole.
type wrapWriter struct {
	w      io.Writer
	width  int
	indent string
	raw    bool // pass lines through unwrapped (the table's rows)
	line   []byte
}

func (ww *wrapWriter) Write(p []byte) (int, error) {
	for _, c := range p {
		if c != '\n' {
			ww.line = append(ww.line, c)
			continue
		}
		if err := ww.emit(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func (ww *wrapWriter) emit() error {
	line := string(ww.line)
	ww.line = ww.line[:0]
	if ww.raw {
		_, err := io.WriteString(ww.w, line+"\n")
		return err
	}
	var out strings.Builder
	for prefix := ""; ; prefix = ww.indent {
		line = prefix + line
		if utf8.RuneCountInString(line) <= ww.width {
			out.WriteString(line + "\n")
			break
		}
		cut := -1 // the last space that leaves at most width runes before it
		n := 0
		for i, r := range line {
			if n > ww.width {
				break
			}
			if r == ' ' && i > len(prefix) {
				cut = i
			}
			n++
		}
		if cut < 0 {
			out.WriteString(line + "\n")
			break
		}
		out.WriteString(strings.TrimRight(line[:cut], " ") + "\n")
		line = strings.TrimLeft(line[cut:], " ")
	}
	_, err := io.WriteString(ww.w, out.String())
	return err
}

// flush writes a last line that has no newline.
func (ww *wrapWriter) flush() error {
	if len(ww.line) == 0 {
		return nil
	}
	return ww.emit()
}

package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
)

// TestTinyRun measures 64×36 frames on the test device (lavapipe, validation on) and checks that
// every figure is there and sane. It asserts nothing about speed: the benchmark measures that.
func TestTinyRun(t *testing.T) {
	dev := vktest.Open(t)
	sizes, err := ParseSizes("64x36")
	if err != nil {
		t.Fatal(err)
	}
	fmts, err := ParseFormats("nv12,yuv420p,p010le")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(dev, Options{Sizes: sizes, Formats: fmts, Frames: 4, Warmup: 1, InFlight: 2,
		EndToEnd: 20 * time.Millisecond, DistinctFrames: 2, RotationBytes: -1,
		DeviceCopyBytes: 4 << 20, RefReps: 2})
	if err != nil {
		t.Fatal(err)
	}
	vktest.Check(t, dev)

	for name, bw := range map[string]Bandwidth{"device copy": rep.Reference.DeviceCopy,
		"host→device": rep.Reference.HostToDevice, "memcpy to staging": rep.Reference.MemcpyToStaging,
		"heap memcpy": rep.Reference.MemcpyHeap} {
		if bw.GBps <= 0 || bw.Time.N != 2 || bw.Time.Median <= 0 || bw.Bytes <= 0 {
			t.Errorf("%s reference: %+v", name, bw)
		}
	}
	if rep.Reference.DeviceCopy.Bytes != 2*(4<<20) { // read + write
		t.Errorf("device copy counts %d bytes, want %d", rep.Reference.DeviceCopy.Bytes, 2*(4<<20))
	}
	if rep.Device.Name == "" || rep.Device.Driver == "" || rep.Device.API == "" || rep.Host.CPU == "" || rep.Date == "" {
		t.Errorf("header incomplete: %+v %+v %q", rep.Device, rep.Host, rep.Date)
	}
	if len(rep.Results) != 3 {
		t.Fatalf("%d results, want 3", len(rep.Results))
	}
	// Plane bytes from the layout, independently of the package: 4:2:0 is 1.5 samples per pixel.
	want := map[string]int64{"nv12": 64 * 36 * 3 / 2, "yuv420p": 64 * 36 * 3 / 2, "p010le": 64 * 36 * 3 / 2 * 2}
	for _, r := range rep.Results {
		if r.FrameBytes != want[r.Format] || r.StagedBytes != want[r.Format] || r.TargetBytes != 64*36*4 {
			t.Errorf("%s: frame %d, staged %d, target %d bytes; want %d, %d, %d", r.Format, r.FrameBytes,
				r.StagedBytes, r.TargetBytes, want[r.Format], want[r.Format], 64*36*4)
		}
		if r.FloorMs <= 0 || r.Skipped != "" || r.Siting == "" {
			t.Errorf("%s: floor %g ms, skipped %q, siting %q", r.Format, r.FloorMs, r.Skipped, r.Siting)
		}
		if !r.Shader.Available {
			t.Errorf("%s: shader path not measured: %s", r.Format, r.Shader.Reason)
		}
		for _, p := range []struct {
			name string
			pr   PathResult
		}{{"sampler", r.Sampler}, {"shader", r.Shader}} {
			if !p.pr.Available {
				if p.pr.Reason == "" {
					t.Errorf("%s %s: n/a without a reason", r.Format, p.name)
				}
				continue
			}
			checkStats(t, r.Format+" "+p.name+" draw", p.pr.Draw, 4)
			checkStats(t, r.Format+" "+p.name+" stage", p.pr.Upload.StageCPU, 4)
			checkStats(t, r.Format+" "+p.name+" copy", p.pr.Upload.CopyGPU, 4)
			u := p.pr.Upload
			if u.Bytes != want[r.Format] || u.StageGBps <= 0 || u.CopyGBps <= 0 || u.CopyOverHostToDevice <= 0 ||
				u.StageOverMemcpy <= 0 || p.pr.OverFloor <= 0 || p.pr.DrawGBps <= 0 || p.pr.Rotation < 2 {
				t.Errorf("%s %s: %+v", r.Format, p.name, p.pr)
			}
		}
		wantPath := "shader"
		if r.Sampler.Available {
			wantPath = "sampler"
			// Both paths drew the same frame with the same parameters: they agree closely.
			if r.PathsMaxDiff < 0 || r.PathsMaxDiff > 4 || r.SamplerOverShader <= 0 {
				t.Errorf("%s: paths differ by %d, ratio %g", r.Format, r.PathsMaxDiff, r.SamplerOverShader)
			}
		}
		e := r.EndToEnd
		if e.Path != wantPath || e.InFlight != 2 || e.Frames < 4 || e.FPS <= 0 || e.Seconds <= 0 || e.StageMs <= 0 {
			t.Errorf("%s end to end: %+v", r.Format, e)
		}
	}

	var table strings.Builder
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"device:  llvmpipe", "driver", "cpu:", "date:", "nv12", "yuv420p", "p010le", "64x36", "e2e fps"} {
		if !strings.Contains(table.String(), s) {
			t.Errorf("table lacks %q:\n%s", s, table.String())
		}
	}
}

func checkStats(t *testing.T, what string, s Stats, n int) {
	t.Helper()
	if s.N != n || s.Min <= 0 || s.P10 < s.Min || s.Median < s.P10 || s.P90 < s.Median || s.Max < s.P90 || s.Mean <= 0 {
		t.Errorf("%s: %+v", what, s)
	}
}

func TestParseSizes(t *testing.T) {
	s, err := ParseSizes("720p, 4320p,64x36")
	if err != nil || len(s) != 3 || s[0].Width != 1280 || s[1].Height != 4320 || s[2] != (Size{"64x36", 64, 36}) {
		t.Errorf("got %v, %v", s, err)
	}
	for _, bad := range []string{"", "big", "1x5", "64x", "99999x2"} {
		if _, err := ParseSizes(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := ParseFormats("nv12,nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown format: %v", err)
	}
}

func TestStats(t *testing.T) {
	s := summarize([]float64{5, 1, 4, 2, 3})
	if s.Median != 3 || s.Min != 1 || s.Max != 5 || s.Mean != 3 || s.P10 != 1.4 || s.P90 != 4.6 {
		t.Errorf("%+v", s)
	}
	if sig(0.05213) != "0.0521" || sig(123.4) != "123" || sig(5.2) != "5.20" || sig(0) != "–" {
		t.Errorf("sig: %s %s %s %s", sig(0.05213), sig(123.4), sig(5.2), sig(0))
	}
	if driverVersion(vendorNVIDIA, 580<<22|159<<14|4<<6) != "580.159.04" || driverVersion(0x10005, 25<<22|0<<12|7) != "25.0.7" {
		t.Errorf("driver versions: %s %s", driverVersion(vendorNVIDIA, 580<<22|159<<14|4<<6), driverVersion(0x10005, 25<<22|7))
	}
}

package stream

import (
	"encoding/json"
	"fmt"
	"time"
)

// variantsFile is where the conversion variants measured on a device are kept between runs, in the
// device's cache folder (gpu.Options.CacheDir). A measurement holds for one device and driver (the
// identity the pipeline cache is keyed by, and the driver version) and one format, size and path:
// the same work on the same driver measures the same, so later runs skip the probe.
const variantsFile = "variants.json"

type rememberedFile struct {
	Version int                 `json:"version"`
	Entries []rememberedVariant `json:"entries"`
}

type rememberedVariant struct {
	Device    string    `json:"device"`
	Format    string    `json:"format"`
	Width     int       `json:"width"`
	Height    int       `json:"height"`
	Path      string    `json:"path"`
	DrawMs    float64   `json:"draw_ms"`
	ComputeMs float64   `json:"compute_ms"`
	Measured  time.Time `json:"measured"`
}

func (r rememberedVariant) matches(dev string, k ProbeKey) bool {
	return r.Device == dev && r.Format == k.Format && r.Width == k.Width && r.Height == k.Height && r.Path == k.Path.String()
}

// readRemembered reads the device's file; a missing or unreadable one is empty (nothing remembered
// is only a probe more).
func (s *Stream) readRemembered() rememberedFile {
	var f rememberedFile
	b, err := s.Dev.ReadCacheFile(variantsFile)
	if err != nil || json.Unmarshal(b, &f) != nil || f.Version != 1 {
		return rememberedFile{Version: 1}
	}
	return f
}

// remembered is the measurement an earlier run made of k on this device, if any.
func (s *Stream) remembered(k ProbeKey) (measured, time.Time, bool) {
	dev := s.Dev.Identity.String()
	for _, r := range s.readRemembered().Entries {
		if r.matches(dev, k) && r.DrawMs > 0 && r.ComputeMs > 0 {
			var m measured
			m.ms[VariantDraw], m.ms[VariantCompute] = r.DrawMs, r.ComputeMs
			return m, r.Measured, true
		}
	}
	return measured{}, time.Time{}, false
}

// remember adds a complete measurement of k to the device's file (replacing an older one of k).
// Failing to write costs the next run a probe, so it is not reported.
func (s *Stream) remember(k ProbeKey, m measured) {
	if s.Dev.CacheDir == "" || m.err[VariantDraw] != nil || m.err[VariantCompute] != nil {
		return
	}
	dev := s.Dev.Identity.String()
	f := s.readRemembered()
	out := f.Entries[:0]
	for _, r := range f.Entries {
		if !r.matches(dev, k) {
			out = append(out, r)
		}
	}
	f.Entries = append(out, rememberedVariant{Device: dev, Format: k.Format, Width: k.Width, Height: k.Height,
		Path: k.Path.String(), DrawMs: m.ms[VariantDraw], ComputeMs: m.ms[VariantCompute], Measured: time.Now().UTC()})
	if b, err := json.MarshalIndent(f, "", "  "); err == nil {
		s.Dev.WriteCacheFile(variantsFile, b)
	}
}

// rememberedReason says where a remembered verdict came from.
func rememberedReason(v Variant, m measured, at time.Time) string {
	other := VariantDraw
	if v == VariantDraw {
		other = VariantCompute
	}
	return fmt.Sprintf("%s: %.3f ms vs %s %.3f ms on the GPU, remembered from a run at %s", v, m.ms[v], other, m.ms[other],
		at.UTC().Format("2006-01-02 15:04:05 UTC"))
}

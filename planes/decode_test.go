//go:build !noffmpeg

package planes_test

import (
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// TestDecodedFramesImport takes frames straight from the decoder (page-aligned pool buffers, rows
// padded to 64 bytes) through the import path: nothing copied on the CPU, and the same picture as
// the copy path, for every path the stream can take. The imports are dropped before the decoder
// frees its pool (Close), as the Importer's contract requires.
func TestDecodedFramesImport(t *testing.T) {
	dev, conv := newConverter(t)
	directs := map[string]int{}
	defer func() {
		if t.Failed() {
			return
		}
		t.Logf("decoded frames sampled in place: %v", directs)
		if directs["nv12.nut"] == 0 { // rawvideo: copied into the pool, whose buffers come straight back
			t.Errorf("no decoded frame was sampled in place: %v", directs)
		}
	}()
	for _, name := range []string{"bt709.mkv", "odd_63x47.mkv", "nv12.nut", "yuv422p.mkv", "yuv444p.mkv", "yuv420p10le.mkv"} {
		t.Run(name, func(t *testing.T) {
			dec, err := decode.Open(filepath.Join("..", "testvectors", "media", name), decode.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer dec.Close()
			images := map[string]*planes.Image{} // by path, and "direct"
			direct := map[planes.Upload]int{}
			defer func() {
				for _, im := range images { // before dec.Close: its pool's memory is imported
					im.Destroy()
				}
			}()
			frames := 0
			for {
				fr, err := dec.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				f := fr.Picture
				if !fr.PageAligned() {
					t.Fatalf("frame %d is not page-aligned", frames)
				}
				p := ycbcr.FromColor(fr.Color)
				for _, path := range []formats.Path{formats.PathSampler, formats.PathShader} {
					if path == formats.PathSampler {
						if _, err := ycbcr.SamplerKey(dev, f.Format, p); err != nil {
							continue
						}
					}
					im := images[path.String()]
					if im == nil {
						if im, err = planes.New(dev, f.Format, f.Width, f.Height, path); err != nil {
							t.Fatal(err)
						}
						images[path.String()] = im
					}
					want, _, err := render(t, conv, im, f, p, path, planes.UploadCopy)
					if err != nil {
						t.Fatal(err)
					}
					got, l, err := render(t, conv, im, f, p, path, planes.UploadAuto)
					if err != nil {
						t.Fatal(err)
					}
					if l.Upload != planes.UploadImport || l.CPUBytes != 0 {
						t.Fatalf("%s frame %d %v: auto loaded %+v, want import with no CPU copy", f.Format.Name, frames, path, l)
					}
					if d := pictest.FirstDiff(want, got); d != "" {
						t.Fatalf("%s frame %d %v: import differs from copy at %s", f.Format.Name, frames, path, d)
					}
					if frames == 0 {
						t.Logf("%s %dx%d strides %v, %v: %s", f.Format.Name, f.Width, f.Height, f.Strides, path, l.Reason)
					}
				}
				// The decoder's pool reuses its buffers: from the second frame in one of them on, the
				// sampler path samples the frame where the decoder wrote it. Top-left siting, which
				// lavapipe's sampler expresses, whatever the stream says: the routes are compared.
				if pd := (ycbcr.Params{Matrix: p.Matrix, Range: p.Range, ChromaLocation: formats.ChromaTopLeft}); true {
					if _, err := ycbcr.SamplerKey(dev, f.Format, pd); err == nil {
						im := images["direct"]
						if im == nil {
							if im, err = planes.New(dev, f.Format, f.Width, f.Height, formats.PathSampler); err != nil {
								t.Fatal(err)
							}
							images["direct"] = im
						}
						if im.Can(f, planes.UploadDirect) == nil {
							want, _, err := render(t, conv, im, f, pd, formats.PathSampler, planes.UploadCopy)
							if err != nil {
								t.Fatal(err)
							}
							got, l, err := render(t, conv, im, f, pd, formats.PathSampler, planes.UploadDirect)
							if err != nil {
								t.Fatal(err)
							}
							if d := pictest.FirstDiff(want, got); d != "" {
								t.Fatalf("%s frame %d: direct (%v) differs from copy at %s", f.Format.Name, frames, l.Upload, d)
							}
							if l.CPUBytes != 0 {
								t.Fatalf("%s frame %d: direct copied %d bytes on the CPU", f.Format.Name, frames, l.CPUBytes)
							}
							direct[l.Upload]++
						}
					}
				}
				fr.Release() // render waited for the GPU
				frames++
			}
			if frames == 0 {
				t.Fatal("no frames decoded")
			}
			for path, im := range images {
				t.Logf("%v: %+v", path, im.Importer().Stats())
			}
			if len(direct) > 0 {
				t.Logf("direct loads: %v", direct)
			}
			directs[name] = direct[planes.UploadDirect]
		})
	}
}

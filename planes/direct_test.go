package planes_test

import (
	"errors"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// TestDirect: frames whose planes lie in buffers as large as the device wants for a LINEAR plane
// (whole-image-sized mappings here) are sampled in place from the second frame in that memory on:
// three frames written one after the other into the same memory, as a decoder reuses its buffers,
// each converted through the sampler path, give the copy path's pictures bit for bit — the first
// uploaded by import while its direct image is prepared, the next ones with nothing copied. Where
// the device offers no such image (lavapipe wants the whole image's size as each plane's memory and
// more), Can and Load say why.
func TestDirect(t *testing.T) {
	dev, conv := newConverter(t)
	pf, _ := formats.Lookup("nv12")
	const w, h = 320, 176
	f, unmap := mappedPlanes(t, pf, w, h, 4*pf.FrameBytes(w, h))
	defer unmap()
	im, err := planes.New(dev, pf, w, h, formats.PathSampler)
	if err != nil {
		t.Fatal(err)
	}
	defer im.Destroy()
	ref, err := planes.New(dev, pf, w, h, formats.PathSampler)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Destroy()
	write := func(k int) *formats.Frame {
		src, err := synth.Moving(pf, w, h, k)
		if err != nil {
			t.Fatal(err)
		}
		for i := range pf.Planes {
			_, ph := pf.PlaneSize(i, w, h)
			for y := 0; y < ph; y++ {
				copy(f.Planes[i][y*f.Strides[i]:(y+1)*f.Strides[i]], src.Planes[i][y*src.Strides[i]:])
			}
		}
		return src
	}
	write(0)
	if err := im.Can(f, planes.UploadDirect); err != nil {
		if !errors.Is(err, planes.ErrUnavailable) {
			t.Fatalf("direct: %v, want a reason", err)
		}
		t.Logf("direct not possible here: %v", err)
		if _, _, err := render(t, conv, im, f, params, formats.PathSampler, planes.UploadDirect); !errors.Is(err, planes.ErrUnavailable) {
			t.Errorf("Load(direct): %v, want the reason", err)
		}
		return
	}
	for k := 0; k < 3; k++ {
		src := write(5 * k)
		want, _, err := render(t, conv, ref, src, params, formats.PathSampler, planes.UploadCopy)
		if err != nil {
			t.Fatal(err)
		}
		got, l, err := render(t, conv, im, f, params, formats.PathSampler, planes.UploadDirect)
		if err != nil {
			t.Fatal(err)
		}
		wantUpload := planes.UploadDirect
		if k == 0 {
			wantUpload = planes.UploadImport
		}
		if l.Upload != wantUpload || l.CPUBytes != 0 {
			t.Errorf("frame %d: %v with %d CPU bytes (%s), want %v", k, l.Upload, l.CPUBytes, l.Reason, wantUpload)
		}
		if img, _ := im.SamplerImage(); (img != im.Multi) != (k > 0) {
			t.Errorf("frame %d: sampling the multi-planar image: %v", k, img == im.Multi)
		}
		if d := pictest.FirstDiff(want, got); d != "" {
			t.Errorf("frame %d (%v): differs from the copy path at %s", k, l.Upload, d)
		}
	}
	im.DropDirect()
	if err := im.Importer().ForgetFrame(f); err != nil {
		t.Fatalf("forget after DropDirect: %v", err)
	}
}

// TestDirectPoolLayout: 1080p frames laid out as the decoder's pool lays them out (planes on 64 KiB
// boundaries, each owning the bytes to the next) are sampled in place where the device rounds
// LINEAR plane memory to 64 KiB or less (the H200), again equal to the copy path; lavapipe, which
// wants the whole image's size for every plane, says why not.
func TestDirectPoolLayout(t *testing.T) {
	dev, conv := newConverter(t)
	pf, _ := formats.Lookup("yuv420p")
	const w, h = 1920, 1080
	im, err := planes.New(dev, pf, w, h, formats.PathSampler)
	if err != nil {
		t.Fatal(err)
	}
	defer im.Destroy()
	p := params
	p.ChromaLocation = formats.ChromaTopLeft // the sitings lavapipe's sampler expresses, for the copy path
	if _, err := ycbcr.SamplerKey(dev, pf, p); err != nil {
		t.Fatal(err)
	}
	src, err := synth.Moving(pf, w, h, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := poolFrame(t, src)
	defer m.unmap(t)
	if err := im.Can(m.Frame, planes.UploadDirect); err != nil {
		if !errors.Is(err, planes.ErrUnavailable) {
			t.Fatalf("direct: %v, want a reason", err)
		}
		t.Logf("1080p in the decoder's pool layout: direct not possible here: %v", err)
		return
	}
	want, _, err := render(t, conv, im, src, p, formats.PathSampler, planes.UploadCopy)
	if err != nil {
		t.Fatal(err)
	}
	for k, wantUpload := range []planes.Upload{planes.UploadImport, planes.UploadDirect} {
		got, l, err := render(t, conv, im, m.Frame, p, formats.PathSampler, planes.UploadDirect)
		if err != nil {
			t.Fatal(err)
		}
		if l.Upload != wantUpload {
			t.Errorf("load %d: %v, want %v", k, l.Upload, wantUpload)
		}
		if d := pictest.FirstDiff(want, got); d != "" {
			t.Errorf("load %d (%v): differs from the copy path at %s", k, l.Upload, d)
		}
	}
	t.Logf("1080p in the decoder's pool layout: sampled in place")
	im.DropDirect()
	if err := im.Importer().ForgetFrame(m.Frame); err != nil {
		t.Fatal(err)
	}
}

package stream_test

import (
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// TestPictureHolds: a picture is taken again only once nobody holds it and the fence of the frame
// that used it has signalled; a picture taken or held across a new configuration keeps the one it
// was taken under, while those taken afterwards get the new one; each path's texture is what an
// engine samples (the sampler path's image through the conversion, with its immutable sampler; the
// shader path's own RGBA8 image with a plain one).
func TestPictureHolds(t *testing.T) {
	dev := vktest.Open(t)
	pf, _ := formats.Lookup("nv12")
	pic, err := synth.Noise(pf, 40, 24, 3)
	if err != nil {
		t.Fatal(err)
	}
	kit, err := stream.NewTextureKit(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Destroy()
	s, err := stream.New(dev, stream.Options{Slots: 2, Pictures: 3, Textures: kit})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	cfg := stream.Config{Format: pf, Width: pic.Width, Height: pic.Height, Params: p, Choice: formats.ChooseShader, Variant: stream.VariantDraw}
	if _, err := s.Configure(cfg); err != nil {
		t.Fatal(err)
	}
	show := func() *stream.Picture {
		t.Helper()
		if err := s.Ring.WaitPeek(); err != nil { // the next slot's last frame done: its picture free
			t.Fatal(err)
		}
		sp, err := s.Take()
		if err != nil || sp == nil {
			t.Fatalf("take: %v, %v", sp, err)
		}
		if err := sp.Stage(pic); err != nil {
			t.Fatal(err)
		}
		fr, err := s.BeginPicture(sp)
		if err != nil {
			t.Fatal(err)
		}
		fr.Upload()
		if err := fr.DrawTexture(); err != nil {
			t.Fatal(err)
		}
		if err := fr.Submit(vk.NullSemaphore, vk.NullSemaphore); err != nil {
			t.Fatal(err)
		}
		return sp
	}
	held := show()
	held.Hold()
	tex := held.Texture()
	if tex.Path != formats.PathShader || tex.Image == vk.NullImage || tex.View == vk.NullImageView || tex.DescriptorCount != 1 || tex.UVScale != [2]float32{1, 1} {
		t.Errorf("shader path texture: %+v", tex)
	}
	for i := 0; i < 6; i++ { // the other two pictures take turns; the held one is never taken
		if sp := show(); sp == held {
			t.Fatalf("frame %d took the held picture", i)
		}
	}
	if err := s.Ring.Drain(); err != nil {
		t.Fatal(err)
	}
	// A new configuration: the held picture keeps its shader-path texture; the others are remade.
	cfg.Choice = formats.ChooseAuto
	if _, err := s.Configure(cfg); err != nil {
		t.Fatal(err)
	}
	want, err := ycbcr.Choose(dev, pf, p, formats.ChooseAuto)
	if err != nil {
		t.Fatal(err)
	}
	next := show()
	if next == held || held.Texture() != tex || next.Texture().Path != want.Path || next.Plan().Path.Path != want.Path {
		t.Errorf("after the new configuration: held %+v (was %+v), next %+v, want path %s", held.Texture(), tex, next.Texture(), want.Path)
	}
	if nt := next.Texture(); want.Path == formats.PathSampler && (nt.Image == vk.NullImage || nt.View == vk.NullImageView || nt.DescriptorCount == 0 || nt.Sampler == vk.NullSampler) {
		t.Errorf("sampler path texture: %+v", nt)
	}
	held.Release()
	if err := s.Ring.Drain(); err != nil {
		t.Fatal(err)
	}
	seen := false
	for i := 0; i < 6; i++ {
		sp := show()
		seen = seen || sp == held
		if sp.Plan().Path.Path != want.Path {
			t.Errorf("frame %d: picture of path %s", i, sp.Plan().Path.Path)
		}
	}
	if !seen {
		t.Errorf("the released picture was not taken again")
	}
	vktest.Check(t, dev)
}

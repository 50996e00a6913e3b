package gpu

import (
	"image"
	"testing"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// TestCopiedOffscreen: a Copied target (the wall's canvas) cleared by its pass, a part copied into
// it twice from another Copied target (CopyOut, BeforeCopyIn), then a part's loading pass (BeginArea)
// over another area, reads back (twice, through the read-back's way to TRANSFER_SRC and back) the
// copied part's colour where it was copied and black elsewhere: the loading pass keeps what the
// image held, and every layout and hazard passes the validation layer, synchronization included.
func TestCopiedOffscreen(t *testing.T) {
	d := openValidated(t)
	canvas, err := d.NewCopiedOffscreen(16, 8)
	if err != nil {
		t.Fatal(err)
	}
	defer canvas.Destroy()
	part, err := d.NewCopiedOffscreen(6, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer part.Destroy()
	if err := canvas.PrepareReadback(); err != nil {
		t.Fatal(err)
	}
	red := vk.NewClearValue([]float32{1, 0, 0, 1})
	at := image.Rect(0, 0, 6, 4) // CopyOut copies to the destination's origin
	err = d.Submit(func(cb vk.CommandBuffer) {
		for _, o := range []*Offscreen{canvas, part} {
			o.Begin(cb) // cleared to black, left in CopiedLayout
			vk.CmdEndRenderPass(cb)
		}
		// Clear the part to red, a transfer write as a copy into it is (in CopiedLayout:
		// TRANSFER_DST_OPTIMAL).
		part.BeforeCopyIn(cb)
		vkx.NoGC(func() {
			vk.CmdClearColorImage(cb, part.Image, CopiedLayout, (*vk.ClearColorValue)(unsafe.Pointer(&red)), 1,
				[]vk.ImageSubresourceRange{{AspectMask: vk.ImageAspectFlags(vk.ImageAspectColorBit), LevelCount: 1, LayerCount: 1}})
		})
		for range 2 { // the same part placed twice, as a tile's next picture is
			canvas.BeforeCopyIn(cb)
			part.CopyOut(cb, image.Rect(0, 0, 6, 4), canvas.Image)
		}
		canvas.BeginArea(cb, image.Rect(8, 2, 16, 8)) // loads and stores: the area stays as it was
		vk.CmdEndRenderPass(cb)
		canvas.RecordReadback(cb)
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func(round string) {
		img := canvas.RGBA()
		for y := 0; y < 8; y++ {
			for x := 0; x < 16; x++ {
				want := [4]uint8{0, 0, 0, 255}
				if image.Pt(x, y).In(at) {
					want = [4]uint8{255, 0, 0, 255}
				}
				i := img.PixOffset(x, y)
				if got := [4]uint8(img.Pix[i : i+4]); got != want {
					t.Fatalf("%s: pixel (%d, %d) = %v, want %v", round, x, y, got, want)
				}
			}
		}
	}
	check("first read-back")
	clear(canvas.readback.Bytes())
	if err := d.Submit(func(cb vk.CommandBuffer) { canvas.RecordReadback(cb) }); err != nil {
		t.Fatal(err)
	}
	check("second read-back")
}

// TestDrawOver: DrawOver copies the picture in (its rectangle need not start at the origin), lets
// the caller draw into the loading pass (here a clear of a 3×2 rectangle to green, as a draw over it
// would write) and reads back the picture with what was drawn over it, byte for byte elsewhere; every
// layout and hazard passes the validation layer, synchronization included.
func TestDrawOver(t *testing.T) {
	d := openValidated(t)
	pic := image.NewRGBA(image.Rect(3, 2, 15, 8))
	for i := range pic.Pix {
		pic.Pix[i] = uint8(i * 7)
	}
	green := image.Rect(2, 1, 5, 3) // in target pixels
	out, err := d.DrawOver(pic, func(cb vk.CommandBuffer, o *Offscreen) error {
		if o.Width != 12 || o.Height != 6 {
			t.Errorf("target %d×%d, want 12×6", o.Width, o.Height)
		}
		vkx.NoGC(func() {
			vk.CmdClearAttachments(cb, 1, []vk.ClearAttachment{{AspectMask: vk.ImageAspectFlags(vk.ImageAspectColorBit),
				ClearValue: vk.NewClearValue([]float32{0, 1, 0, 1})}},
				1, []vk.ClearRect{{Rect: vk.Rect2D{Offset: vk.Offset2D{X: 2, Y: 1}, Extent: vk.Extent2D{Width: 3, Height: 2}}, LayerCount: 1}})
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Rect != pic.Rect {
		t.Fatalf("rectangle %v, want %v", out.Rect, pic.Rect)
	}
	for y := pic.Rect.Min.Y; y < pic.Rect.Max.Y; y++ {
		for x := pic.Rect.Min.X; x < pic.Rect.Max.X; x++ {
			want := pic.RGBAAt(x, y)
			if image.Pt(x, y).Sub(pic.Rect.Min).In(green) {
				want.R, want.G, want.B, want.A = 0, 255, 0, 255
			}
			if got := out.RGBAAt(x, y); got != want {
				t.Fatalf("(%d, %d): %v, want %v", x, y, got, want)
			}
		}
	}
}

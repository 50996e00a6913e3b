package decode

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/asticode/go-astiav"
	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Uploader puts software-decoded frames into FFmpeg's Vulkan frames (av_hwframe_transfer_data into
// an AV_PIX_FMT_VULKAN frames context on the toolkit's device): frames with HW set, as Vulkan Video
// decoding outputs them — FFmpeg's multi-planar images, timeline semaphores and layouts — on devices
// that decode nothing (lavapipe, or a GPU whose decoder lacks the codec). It exercises the routes of
// hardware frames — FFmpeg's image sampled in place, or copied on the GPU — on any Vulkan device
// (ycbcrplay -hwdec upload), at the price of one more CPU→GPU copy per picture than an upload into
// the player's own images.
type Uploader struct {
	dev    *avx.HWDevice
	frames *avx.HWFrames
	key    [3]int // sw format, coded width, coded height of frames
	// Pad, if set, gives the frames context's (coded) size for a picture: a decoder's frames are
	// larger than the picture (1920×1088 for 1080p). Nil: the picture's size.
	Pad func(width, height int) (int, int)
}

// NewUploader hands dev to FFmpeg (an AVVulkanDeviceContext, as for decoding). dev must have been
// opened with gpu.Options.Frames or Video (timeline semaphores, synchronization2).
func NewUploader(dev *gpu.Device) (*Uploader, error) {
	f := dev.Video.Features
	if !f.Timeline || !f.Sync2 || !f.Ycbcr {
		return nil, fmt.Errorf("decode: Vulkan frames: the device was opened without timelineSemaphore, synchronization2 and samplerYcbcrConversion (gpu.Options.Frames)")
	}
	hw, err := avx.NewVulkanDevice(vulkanDevice(dev))
	if err != nil {
		return nil, fmt.Errorf("decode: Vulkan frames: %w", err)
	}
	return &Uploader{dev: hw}, nil
}

// Upload returns a copy of pic in a Vulkan frame: HW set, Picture pic's format and size without
// planes; the caller sets the metadata and releases it. In a padded frame (Pad) the rows and
// columns beyond the picture repeat its last row and column, as encoders pad a picture to whole
// coding blocks by repeating the edge.
func (u *Uploader) Upload(pic *formats.Frame) (*Frame, error) {
	pf := pic.Format
	// FFmpeg's Vulkan frames take no full-range alias (yuvj420p: yuv420p's layout, whose range is
	// the frame's metadata): the layout's own name.
	sw := astiav.FindPixelFormatByName(strings.Replace(pf.Name, "yuvj", "yuv", 1))
	w, h := pic.Width, pic.Height
	cw, ch := w, h
	if u.Pad != nil {
		cw, ch = u.Pad(w, h)
	}
	// A subsampled multi-planar image is a whole number of chroma samples wide and high
	// (VUID-VkImageCreateInfo-format-04712, -04713): an odd picture is padded, as a decoder's is.
	cw, ch = roundUp(cw, pf.Log2ChromaW), roundUp(ch, pf.Log2ChromaH)
	if k := [3]int{int(sw), cw, ch}; u.frames == nil || k != u.key {
		u.frames.Free()
		u.frames = nil
		fr, err := avx.NewHWFrames(u.dev, sw, cw, ch)
		if err != nil {
			return nil, fmt.Errorf("decode: %w", err)
		}
		u.frames, u.key = fr, k
	}
	src, err := padFrame(pic, sw, cw, ch)
	if err != nil {
		return nil, err
	}
	defer src.Free()
	av := astiav.AllocFrame()
	if av == nil {
		return nil, fmt.Errorf("decode: upload: cannot allocate a frame")
	}
	if err := u.frames.Get(av); err != nil {
		av.Free()
		return nil, fmt.Errorf("decode: %w", err)
	}
	v, err := avx.VkFrameInfo(av)
	if err != nil {
		av.Free()
		return nil, fmt.Errorf("decode: upload: %w", err)
	}
	vkx.ForeignImage(handle[vk.Image](v.Image)) // before FFmpeg first uses it (vkx/messages.c)
	if err := u.frames.Upload(av, src); err != nil {
		av.Free()
		return nil, fmt.Errorf("decode: %w", err)
	}
	return &Frame{av: av, SourceFormat: pf.Name, Picture: &formats.Frame{Format: pf, Width: w, Height: h},
		HW: &HWFrame{SWFormat: pf, CodedWidth: v.Width, CodedHeight: v.Height, av: av}}, nil
}

// UploadFrame is Upload of f's picture with f's metadata (times, colour, aspect, orientation,
// flags). f stays the caller's to release.
func (u *Uploader) UploadFrame(f *Frame) (*Frame, error) {
	out, err := u.Upload(f.Picture)
	if err != nil {
		return nil, err
	}
	pic, hw := out.Picture, out.HW
	*out = *f
	out.Picture, out.HW, out.av = pic, hw, hw.av
	return out, nil
}

// roundUp is n rounded up to a multiple of 1<<log2.
func roundUp(n, log2 int) int { return (n + 1<<log2 - 1) &^ (1<<log2 - 1) }

// padFrame copies pic into a new frame of cw×ch whose extra rows and columns repeat the picture's
// last row and column.
func padFrame(pic *formats.Frame, sw astiav.PixelFormat, cw, ch int) (*astiav.Frame, error) {
	pf := pic.Format
	p := astiav.AllocFrame()
	if p == nil {
		return nil, fmt.Errorf("decode: upload: cannot allocate a frame")
	}
	p.SetPixelFormat(sw)
	p.SetWidth(cw)
	p.SetHeight(ch)
	if err := p.AllocBuffer(0); err != nil {
		p.Free()
		return nil, fmt.Errorf("decode: upload: %w", err)
	}
	dst := avx.ReadFields(p)
	for i := range pf.Planes {
		sw, sh := pf.PlaneSize(i, pic.Width, pic.Height)
		dw, dh := pf.PlaneSize(i, cw, ch)
		bpt := pf.Planes[i].BytesPerTexel
		src, ss := pic.Planes[i], pic.Strides[i]
		out := unsafe.Slice((*byte)(dst.Data[i]), dst.Linesize[i]*dh)
		for y := 0; y < dh; y++ {
			row := src[min(y, sh-1)*ss:]
			o := out[y*dst.Linesize[i]:]
			copy(o[:sw*bpt], row[:sw*bpt])
			for x := sw; x < dw; x++ {
				copy(o[x*bpt:(x+1)*bpt], row[(sw-1)*bpt:sw*bpt])
			}
		}
	}
	// The picture's size: the frame's data is the coded size, av_hwframe_transfer_data copies the
	// frame's width×height.
	return p, nil
}

// Close frees the frames context and the device context; frames uploaded hold their own references.
func (u *Uploader) Close() {
	u.frames.Free()
	u.frames = nil
	u.dev.Free()
	u.dev = nil
}

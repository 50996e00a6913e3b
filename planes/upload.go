package planes

import (
	"encoding/binary"
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// Stage copies a frame into the staging buffer: each plane row by row (the frame's stride need not
// match), the last column and row repeated into the padding, and for LSB-aligned layouts a second
// copy shifted into the X6/X4 container the sampler path's format expects.
func (im *Image) Stage(f *formats.Frame) error {
	if f.Format != im.Format || f.Width != im.Width || f.Height != im.Height {
		return fmt.Errorf("planes: stage %s %dx%d into %s %dx%d image", f.Format.Name, f.Width, f.Height,
			im.Format.Name, im.Width, im.Height)
	}
	buf := im.staging.Bytes()
	for i, p := range im.Format.Planes {
		srcW, srcH := im.Format.PlaneSize(i, f.Width, f.Height)
		if len(p.Channels) == 4 {
			srcW = (f.Width + 1) / 2
		}
		srcRow := srcW * p.BytesPerTexel
		if len(f.Planes[i]) < (srcH-1)*f.Strides[i]+srcRow {
			return fmt.Errorf("planes: plane %d holds %d bytes, %dx%d texels need more", i, len(f.Planes[i]), srcW, srcH)
		}
		dst := im.layout[i]
		for y := 0; y < dst.height; y++ {
			sy := min(y, srcH-1)
			row := buf[dst.offset+y*dst.rowBytes : dst.offset+(y+1)*dst.rowBytes]
			n := copy(row, f.Planes[i][sy*f.Strides[i]:sy*f.Strides[i]+srcRow])
			for x := n; x < len(row); x += p.BytesPerTexel { // repeat the edge texel
				copy(row[x:x+p.BytesPerTexel], row[n-p.BytesPerTexel:n])
			}
		}
		if im.shifted != nil {
			sh := im.shifted[i]
			src := buf[dst.offset : dst.offset+dst.rowBytes*dst.height]
			out := buf[sh.offset : sh.offset+sh.rowBytes*sh.height]
			for k := 0; k+1 < len(src); k += 2 {
				binary.LittleEndian.PutUint16(out[k:], binary.LittleEndian.Uint16(src[k:])<<uint(im.Format.SamplerShift))
			}
		}
	}
	return nil
}

func colorRange() vk.ImageSubresourceRange {
	return vk.ImageSubresourceRange{AspectMask: vk.ImageAspectFlags(vk.ImageAspectColorBit), LevelCount: 1, LayerCount: 1}
}

func layoutBarrier(img vk.Image, from, to vk.ImageLayout, src, dst vk.AccessFlagBits) vk.ImageMemoryBarrier {
	return vk.ImageMemoryBarrier{SType: vk.StructureTypeImageMemoryBarrier,
		SrcAccessMask: vk.AccessFlags(src), DstAccessMask: vk.AccessFlags(dst), OldLayout: from, NewLayout: to,
		SrcQueueFamilyIndex: vk.QueueFamilyIgnored, DstQueueFamilyIndex: vk.QueueFamilyIgnored,
		Image: img, SubresourceRange: colorRange()}
}

// RecordUpload records the copies from the staging buffer into every image, leaving them in
// SHADER_READ_ONLY_OPTIMAL for the fragment shader. Each upload overwrites the whole image, so the
// old contents are discarded (old layout UNDEFINED).
func (im *Image) RecordUpload(cb vk.CommandBuffer) {
	var images []vk.Image
	if im.Multi != vk.NullImage {
		images = append(images, im.Multi)
	}
	for _, t := range im.Textures {
		images = append(images, t.Image)
	}
	var pre, post []vk.ImageMemoryBarrier
	for _, img := range images {
		pre = append(pre, layoutBarrier(img, vk.ImageLayoutUndefined, vk.ImageLayoutTransferDstOptimal, 0, vk.AccessTransferWriteBit))
		post = append(post, layoutBarrier(img, vk.ImageLayoutTransferDstOptimal, vk.ImageLayoutShaderReadOnlyOptimal,
			vk.AccessTransferWriteBit, vk.AccessShaderReadBit))
	}
	vk.CmdPipelineBarrier(cb, vk.PipelineStageFlags(vk.PipelineStageTopOfPipeBit), vk.PipelineStageFlags(vk.PipelineStageTransferBit),
		0, 0, nil, 0, nil, uint32(len(pre)), pre)

	pf := im.Format
	if im.Multi != vk.NullImage {
		src := im.layout
		if im.shifted != nil {
			src = im.shifted
		}
		var regions []vk.BufferImageCopy
		for i, p := range pf.Planes {
			aspect := vk.ImageAspectColorBit
			w, h := src[i].width, src[i].height
			if len(pf.Planes) > 1 {
				aspect = planeAspect(i)
			} else if len(p.Channels) == 4 {
				w = im.PaddedWidth // a packed 4:2:2 image is addressed in texels, two per block
			}
			regions = append(regions, vk.BufferImageCopy{
				BufferOffset:     vk.DeviceSize(src[i].offset),
				ImageSubresource: vk.ImageSubresourceLayers{AspectMask: vk.ImageAspectFlags(aspect), LayerCount: 1},
				ImageExtent:      vk.Extent3D{Width: uint32(w), Height: uint32(h), Depth: 1},
			})
		}
		vk.CmdCopyBufferToImage(cb, im.staging.Handle, im.Multi, vk.ImageLayoutTransferDstOptimal, uint32(len(regions)), regions)
	}
	for i, t := range im.Textures {
		ft := pf.Textures[i]
		sp := im.layout[ft.Plane]
		region := vk.BufferImageCopy{
			BufferOffset:     vk.DeviceSize(sp.offset),
			BufferRowLength:  uint32(sp.rowBytes / texelBytes(pf, ft)),
			ImageSubresource: vk.ImageSubresourceLayers{AspectMask: vk.ImageAspectFlags(vk.ImageAspectColorBit), LayerCount: 1},
			ImageExtent:      vk.Extent3D{Width: uint32(t.Width), Height: uint32(t.Height), Depth: 1},
		}
		vk.CmdCopyBufferToImage(cb, im.staging.Handle, t.Image, vk.ImageLayoutTransferDstOptimal, 1, []vk.BufferImageCopy{region})
	}
	vk.CmdPipelineBarrier(cb, vk.PipelineStageFlags(vk.PipelineStageTransferBit), vk.PipelineStageFlags(vk.PipelineStageFragmentShaderBit),
		0, 0, nil, 0, nil, uint32(len(post)), post)
}

// StagedBytes is how many bytes Stage copies on the CPU per frame (the shifted copy included).
func (im *Image) StagedBytes() int {
	n := 0
	for i, p := range im.Format.Planes {
		w, h := im.Format.PlaneSize(i, im.Width, im.Height)
		if len(p.Channels) == 4 {
			w = (im.Width + 1) / 2
		}
		n += w * h * p.BytesPerTexel
	}
	if im.shifted != nil {
		n *= 2
	}
	return n
}

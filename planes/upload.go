package planes

import (
	"encoding/binary"
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Stage copies a frame into the staging buffer: each plane row by row (the frame's stride need not
// match), the last column and row repeated into the padding. LSB-aligned layouts go to the sampler
// path's multi-planar image shifted into its X6/X4 container: by the GPU shift pass that
// RecordUpload records (shift.go), or, where it could not be made, here while copying, with the
// shader path's own textures taking a second, unshifted copy (plane aliases need none).
func (im *Image) Stage(f *formats.Frame) error {
	if f.Format != im.Format || f.Width != im.Width || f.Height != im.Height {
		return fmt.Errorf("planes: stage %s %dx%d into %s %dx%d image", f.Format.Name, f.Width, f.Height,
			im.Format.Name, im.Width, im.Height)
	}
	if err := im.ensureStaging(); err != nil {
		return err
	}
	buf := im.staged.staging.Bytes()
	par := im.stagers()
	for i, p := range im.Format.Planes {
		srcW, srcH := im.Format.PlaneSize(i, f.Width, f.Height)
		srcRow := srcW * p.BytesPerTexel
		if len(f.Planes[i]) < (srcH-1)*f.Strides[i]+srcRow {
			return fmt.Errorf("planes: plane %d holds %d bytes, %dx%d texels need more", i, len(f.Planes[i]), srcW, srcH)
		}
		stage := stagePlane
		if par != nil {
			stage = par.plane
		}
		if im.stagesPlain() {
			stage(buf, im.staged.layout[i], f.Planes[i], f.Strides[i], srcRow, srcH, p.BytesPerTexel, 0)
		}
		if im.staged.shifted != nil && im.lsb.pass == nil {
			stage(buf, im.staged.shifted[i], f.Planes[i], f.Strides[i], srcRow, srcH, p.BytesPerTexel, im.Format.SamplerShift)
		}
	}
	if par != nil {
		par.wait()
	}
	return nil
}

// stagers is the image's parallel copier for frames of parallelStageBytes and more (started on
// first use), or nil.
func (im *Image) stagers() *stager {
	if im.StagedBytes() < parallelStageBytes {
		return nil
	}
	if im.parallel.stager == nil && !im.parallel.tried {
		im.parallel.stager, im.parallel.tried = newStager(), true
	}
	return im.parallel.stager
}

// stagesPlain says whether Stage writes the unshifted copy: always, unless the only copy needed is
// the sampler path's shifted one and the CPU makes it.
func (im *Image) stagesPlain() bool {
	return im.staged.shifted == nil || im.lsb.pass != nil || (len(im.Textures) > 0 && !im.Aliased)
}

// stagePlane copies srcH rows of rowBytes from src (stride apart) into d's place in buf, each 16-bit
// sample shifted left by shift, and repeats the last texel and row into d's padding.
func stagePlane(buf []byte, d stagedPlane, src []byte, stride, rowBytes, srcH, bpt, shift int) {
	stageRows(buf, d, src, stride, rowBytes, srcH, bpt, shift, 0, d.height)
}

// stageRows is stagePlane for rows y0..y1−1 of d.
func stageRows(buf []byte, d stagedPlane, src []byte, stride, rowBytes, srcH, bpt, shift, y0, y1 int) {
	for y := y0; y < y1; y++ {
		sy := min(y, srcH-1)
		row := buf[d.offset+y*d.rowBytes : d.offset+(y+1)*d.rowBytes]
		in := src[sy*stride : sy*stride+rowBytes]
		n := len(in)
		if shift == 0 {
			copy(row, in)
		} else {
			for k := 0; k+1 < n; k += 2 {
				binary.LittleEndian.PutUint16(row[k:], binary.LittleEndian.Uint16(in[k:])<<uint(shift))
			}
		}
		for x := n; x < len(row); x += bpt { // repeat the edge texel
			copy(row[x:x+bpt], row[n-bpt:n])
		}
	}
}

// RecordUpload records the copies from the staging buffer into every image, leaving them in
// SHADER_READ_ONLY_OPTIMAL for the fragment shader. Each upload overwrites the whole image, so the
// old contents are discarded (old layout UNDEFINED). The regions are computed once (New) and recorded
// through one C call: no allocation per frame.
func (im *Image) RecordUpload(cb vk.CommandBuffer) {
	if im.ensureStaging() != nil {
		return // Stage, which comes first, reported it
	}
	if im.staged.shifted != nil && im.lsb.pass != nil {
		im.recordStageShift(cb)
		return
	}
	vkx.CmdUpload(cb, im.targets, im.readers, vk.ImageLayoutUndefined, im.staged.copies, im.staged.regions)
}

// buildStageRegions computes the copy path's regions from the staging layout, and the list of images
// every upload writes.
func (im *Image) buildStageRegions() {
	im.listTargets()
	var staging uint64 // ensureStaging sets the copies' buffer
	pf := im.Format
	if im.Multi != vk.NullImage {
		src := im.staged.layout
		if im.staged.shifted != nil {
			src = im.staged.shifted
		}
		first := len(im.staged.regions)
		for i, p := range pf.Planes {
			aspect := vk.ImageAspectColorBit
			w, h := src[i].width, src[i].height
			if len(pf.Planes) > 1 {
				aspect = planeAspect(i)
			} else if len(p.Channels) == 4 {
				w = im.PaddedWidth // a packed 4:2:2 image is addressed in texels, two per block
			}
			im.staged.regions = append(im.staged.regions, region(uint64(src[i].offset), 0, aspect, 0, 0, w, h))
		}
		im.staged.copies = append(im.staged.copies, vkx.Copy{Buffer: staging, Image: vkx.ImageHandle(im.Multi),
			First: uint32(first), Count: uint32(len(pf.Planes))})
		im.staged.multiRegions = [2]int{first, len(im.staged.regions)}
	}
	for i, t := range im.Textures {
		if t.Alias {
			continue
		}
		ft := pf.Textures[i]
		sp := im.staged.layout[ft.Plane]
		im.staged.copies = append(im.staged.copies, vkx.Copy{Buffer: staging, Image: vkx.ImageHandle(t.Image),
			First: uint32(len(im.staged.regions)), Count: 1})
		im.staged.regions = append(im.staged.regions, region(uint64(sp.offset), sp.rowBytes/texelBytes(pf, ft),
			vk.ImageAspectColorBit, 0, 0, t.Width, t.Height))
	}
}

// region is one buffer-to-image copy of a w×h rectangle at (x, y) of an aspect, reading rows of
// rowLength texels (0: tightly packed) from offset.
func region(offset uint64, rowLength int, aspect vk.ImageAspectFlagBits, x, y, w, h int) vkx.BufferImageCopy {
	return vkx.BufferImageCopy{BufferOffset: offset, BufferRowLength: uint32(rowLength), AspectMask: uint32(aspect),
		LayerCount: 1, OffsetX: int32(x), OffsetY: int32(y), Width: uint32(w), Height: uint32(h), Depth: 1}
}

// StagedBytes is how many bytes Stage copies on the CPU per frame (both copies of an LSB layout when
// the CPU shifts and the shader path has its own textures).
func (im *Image) StagedBytes() int {
	n := im.Format.FrameBytes(im.Width, im.Height)
	if im.staged.shifted != nil && im.lsb.pass == nil && im.stagesPlain() {
		n *= 2
	}
	return n
}

// listTargets lists the images every upload writes (CmdUpload's images): the multi-planar image and
// the shader textures, the plane aliases last (CmdUpload makes the copies into their planes visible
// to them).
func (im *Image) listTargets() {
	im.targets = im.targets[:0]
	if im.Multi != vk.NullImage {
		im.targets = append(im.targets, vkx.ImageHandle(im.Multi))
	}
	for _, t := range im.Textures {
		if !t.Alias {
			im.targets = append(im.targets, vkx.ImageHandle(t.Image))
		}
	}
	im.readers = 0
	for _, t := range im.Textures {
		if t.Alias {
			im.targets = append(im.targets, vkx.ImageHandle(t.Image))
			im.readers++
		}
	}
}

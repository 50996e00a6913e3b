package formats

import "fmt"

// Frame is a picture in memory, laid out as its PixelFormat says: one byte slice per plane with its
// row stride, like FFmpeg's AVFrame data/linesize or Go's image.YCbCr.
type Frame struct {
	Format        *PixelFormat
	Width, Height int
	Planes        [][]byte
	Strides       []int // bytes per row of each plane
}

// NewFrame allocates a zeroed frame with tightly packed rows.
func NewFrame(pf *PixelFormat, width, height int) (*Frame, error) {
	if width <= 0 || height <= 0 {
		return nil, fmt.Errorf("formats: frame size %dx%d: must be positive", width, height)
	}
	f := &Frame{Format: pf, Width: width, Height: height}
	for i, p := range pf.Planes {
		w, h := pf.PlaneSize(i, width, height)
		stride := w * p.BytesPerTexel
		f.Planes = append(f.Planes, make([]byte, stride*h))
		f.Strides = append(f.Strides, stride)
	}
	return f, nil
}

// ChannelSize is the number of samples of channel c per row and column (the chroma size for Cb/Cr).
func (f *Frame) ChannelSize(c Channel) (int, int) {
	if c == Y {
		return f.Width, f.Height
	}
	return f.Format.ChromaSize(f.Width, f.Height)
}

// locate finds the byte offset of channel c's sample at (x, y), in sample units of that channel.
func (f *Frame) locate(c Channel, x, y int) (plane, offset int) {
	pf := f.Format
	for pi, p := range pf.Planes {
		// Packed 4:2:2 blocks hold two luma samples: the n-th Y in Channels is luma x%2 == n.
		packed := len(p.Channels) == 4
		want := 0
		tx := x
		if packed && c == Y {
			want, tx = x%2, x/2
		}
		seen := 0
		for ci, pc := range p.Channels {
			if pc != c {
				continue
			}
			if seen == want {
				bytesPer := pf.ContainerBits / 8
				return pi, y*f.Strides[pi] + tx*p.BytesPerTexel + ci*bytesPer
			}
			seen++
		}
	}
	return -1, 0
}

// SetCode stores an integer code (0..2^Depth−1) of channel c at (x, y), aligned as the layout says.
func (f *Frame) SetCode(c Channel, x, y int, code uint16) {
	pi, off := f.locate(c, x, y)
	if pi < 0 {
		return
	}
	if f.Format.ContainerBits == 8 {
		f.Planes[pi][off] = byte(code)
		return
	}
	if f.Format.Align == AlignMSB {
		code <<= uint(16 - f.Format.Depth)
	}
	f.Planes[pi][off] = byte(code)
	f.Planes[pi][off+1] = byte(code >> 8)
}

// Code reads the integer code of channel c at (x, y).
func (f *Frame) Code(c Channel, x, y int) uint16 {
	pi, off := f.locate(c, x, y)
	if pi < 0 {
		return 0
	}
	if f.Format.ContainerBits == 8 {
		return uint16(f.Planes[pi][off])
	}
	v := uint16(f.Planes[pi][off]) | uint16(f.Planes[pi][off+1])<<8
	if f.Format.Align == AlignMSB {
		v >>= uint(16 - f.Format.Depth)
	}
	return v
}

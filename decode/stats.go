package decode

import "github.com/ycbcrkit/ycbcrkit/internal/avx"

// Stats counts what the decoder has done since Open.
type Stats struct {
	// Packets is the number of video packets read and given to the decoder.
	Packets int64
	// Decoded is the number of frames the decoder produced, including those Seek decoded and dropped.
	Decoded int64
	// Damaged is the number of frames returned with Damaged set (corrupt, or decoded with errors and
	// concealed).
	Damaged int64
	// Skipped is the number of decode errors recovered from: a packet the decoder rejected or a frame
	// it failed to produce. Decoding goes on with the next decodable frame.
	Skipped int64
	// ReadErrors is the number of demuxer errors recovered from (the demuxer resynchronises).
	ReadErrors int64
	// Copied is the number of frames copied into page-aligned buffers because their decoder does not
	// use the custom allocator (rawvideo, for example).
	Copied int64
	// Converted is the number of frames converted with swscale (pixel formats outside the table).
	Converted int64
	// Hardware is the number of frames decoded by Vulkan Video (Frame.HW set).
	Hardware int64
	// HWFallbacks counts mid-stream failures of Vulkan Video decoding after which the stream went
	// on in software (HW().Reason says why).
	HWFallbacks int64
}

// Stats returns the counters.
func (d *Decoder) Stats() Stats { return d.stats }

// PictureMemory is how much host memory the decoders of the process hold in picture buffers now,
// and the most they held at once (every decoder's page-aligned pool; a buffer back in its pool
// counts until the pool goes). Hardware-decoded pictures are on the GPU and not counted.
func PictureMemory() (live, peak int64) { return avx.PictureBytes() }

// FFmpegDeviceMemory is the device memory FFmpeg has allocated for Vulkan Video decoding in the
// process (decode and DPB images, bitstream buffers, session memory), now and at most.
func FFmpegDeviceMemory() (now, peak int64) { return avx.FFmpegDeviceBytes() }

// HostMemory is the host memory this decoder's picture buffers hold (its page-aligned pools:
// decoded pictures, their references, and copies or conversions), whether in frames handed out or
// kept for the next ones; 0 in Vulkan Video decoding (DeviceMemory) and after Close. Safe from any
// goroutine while the decoder is open and not reopening its stream.
func (d *Decoder) HostMemory() int64 {
	var n int64
	for _, p := range []*avx.Pool{d.pool, d.copies} {
		if p != nil {
			n += p.Bytes()
		}
	}
	return n
}

// DeviceMemory is the part of FFmpegDeviceMemory that is this decoder's hardware frames (its frames
// pool's images), now and at most; 0 in software, and after Close.
func (d *Decoder) DeviceMemory() (now, peak int64) {
	if d.pool == nil {
		return 0, 0
	}
	return d.pool.DeviceBytes()
}

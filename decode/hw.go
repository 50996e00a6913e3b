package decode

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// HWDec chooses hardware decoding: FFmpeg's Vulkan hwaccel on the toolkit's own device.
type HWDec int

const (
	// HWDecAuto decodes with Vulkan Video where the device and the codec allow it, else in
	// software; HW().Reason says why.
	HWDecAuto HWDec = iota
	// HWDecVulkan requires Vulkan Video decoding: Open fails, naming what is missing, where the
	// device or codec cannot, and so does a stream FFmpeg's hwaccel refuses.
	HWDecVulkan
	// HWDecNo decodes in software.
	HWDecNo
)

// ErrNoHWDec: hardware decoding was required (HWDecVulkan) and is not possible.
var ErrNoHWDec = errors.New("no Vulkan hardware decoding")

func (h HWDec) String() string {
	switch h {
	case HWDecVulkan:
		return "vulkan"
	case HWDecNo:
		return "no"
	}
	return "auto"
}

// ParseHWDec reads -hwdec's values: auto, vulkan, no.
func ParseHWDec(s string) (HWDec, error) {
	switch s {
	case "auto", "":
		return HWDecAuto, nil
	case "vulkan":
		return HWDecVulkan, nil
	case "no":
		return HWDecNo, nil
	}
	return 0, fmt.Errorf("-hwdec %q: want auto, vulkan or no", s)
}

// HW says how the stream is decoded.
type HW struct {
	// Decoder is FFmpeg's decoder, with " (vulkan)" when FFmpeg's Vulkan hwaccel decodes.
	Decoder string
	// Active is true while frames come from Vulkan Video decoding (Frame.HW set).
	Active bool
	// Reason says why decoding is in software (empty when Active).
	Reason string
}

// HW reports how the stream is decoded. Before the first frame Active means that the hwaccel was
// set up; FFmpeg may still refuse the stream when its first packet arrives (Reason then says so).
func (d *Decoder) HW() HW {
	// A player asks from its own goroutine while a mid-stream fallback reopens the stream on the
	// decoding goroutine (fillInfo, setupHW): both fields are read under infoMu.
	d.infoMu.Lock()
	h := HW{Decoder: d.info.Codec, Reason: d.hwReason}
	s := d.pool.HWState() // the pool too: a fallback or Reopen frees and replaces it
	d.infoMu.Unlock()
	if s.Installed {
		switch {
		case s.Refused:
			h.Reason = s.Reason
		case s.Failed:
			h.Reason = fmt.Sprintf("FFmpeg's Vulkan hwaccel could not initialise for this %s stream (profile or pixel format the device does not decode; -v shows FFmpeg's message)", d.info.Codec)
		case s.Calls > 0 && !s.Offered:
			h.Reason = fmt.Sprintf("FFmpeg offers no Vulkan hwaccel for this %s stream's profile or pixel format", d.info.Codec)
		default:
			h.Active, h.Reason = true, ""
		}
	}
	if h.Active {
		h.Decoder += " (vulkan)"
	}
	return h
}

// setHWReason sets why decoding is in software, under infoMu (HW reads it from other goroutines).
func (d *Decoder) setHWReason(r string) {
	d.infoMu.Lock()
	d.hwReason = r
	d.infoMu.Unlock()
}

// setupHW decides hardware decoding for the codec context being opened (d.cc, after the pool's
// Install, before avcodec_open2): the one place it is decided, for every client (a device that
// cannot, an engine's included, says why in its gpu.Video.Reason). It returns an error only for
// HWDecVulkan.
func (d *Decoder) setupHW(codec *astiav.Codec) error {
	d.setHWReason("")
	mode, dev := d.opts.HWDec, d.opts.Vulkan
	if d.hwOff != "" {
		d.setHWReason(d.hwOff)
		return nil
	}
	if mode == HWDecNo {
		if d.opts.HWDecName != "" {
			d.setHWReason(d.opts.HWDecName + " is no")
		} else {
			d.setHWReason("-hwdec no")
		}
		return nil
	}
	reason := ""
	switch {
	case dev == nil:
		reason = "no Vulkan device was given to the decoder"
	default:
		if ok, why := dev.Video.Codec(codec.Name()); !ok {
			reason = why
		}
	}
	if reason == "" {
		if d.hwDev == nil {
			hw, err := avx.NewVulkanDevice(vulkanDevice(dev))
			if err != nil {
				reason = err.Error()
			} else {
				d.hwDev = hw
			}
		}
	}
	if reason == "" {
		if err := d.pool.InstallHW(d.cc, d.hwDev, mode == HWDecVulkan, d.opts.hwSkipCheck); err != nil {
			reason = err.Error()
		}
	}
	if reason == "" {
		return nil
	}
	d.setHWReason(reason)
	if mode == HWDecVulkan {
		return fmt.Errorf("%w: %s", ErrNoHWDec, reason)
	}
	return nil
}

// hwFallback handles err from avcodec_send_packet or avcodec_receive_frame when it is the hardware
// decoder failing: AVERROR_EXTERNAL, which FFmpeg's Vulkan hwaccel returns for any failed Vulkan call
// (libavcodec/vulkan_decode.c), while Vulkan decoding is active; hardware: err is known to be the
// hardware's (a Vulkan frame that cannot be read, a test's avx.InjectHWFailure). It reopens the
// stream's decoder in software, seeks back to the key frame at or before the last frame returned
// (the demuxer's backward seek, as Seek does) and drops the frames
// up to that one, so that the caller sees every frame once and playback goes on; HW().Reason and a
// notice say why. An input that cannot seek, or seeks by reading (seeksByReading), goes on from
// where it is (the software decoder starts at the next key frame). With HWDecVulkan the failure is
// final instead. It reports whether it handled err, and the final error if any.
func (d *Decoder) hwFallback(err error, hardware bool) (bool, error) {
	if !hardware && !(errors.Is(err, astiav.ErrExternal) && d.HW().Active) {
		return false, nil
	}
	if d.opts.HWDec == HWDecVulkan {
		d.fatal = fmt.Errorf("decode: decode %s: %w: Vulkan Video decoding failed mid-stream: %v", d.url, ErrNoHWDec, err)
		return true, d.fatal
	}
	resume, seekTo := 0.0, d.start
	if d.hasPTS {
		resume = d.lastPTS
		seekTo = d.start + int64(math.Floor(resume/d.tb))
	}
	d.hwOff = fmt.Sprintf("Vulkan Video decoding failed mid-stream (%v); decoding in software from the last key frame on", err)
	d.closeStream()
	d.tried = d.tried[:len(d.tried)-1] // the same stream, reopened
	if err := d.openStream(d.stIdx); err != nil {
		d.fatal = err
		return true, err
	}
	d.resetDeinterlacer()
	d.intr.Arm(d.opts.Timeout)
	if !d.seeksByReading() && d.fc.SeekFrame(d.stIdx, seekTo, astiav.NewSeekFlags(astiav.SeekFlagBackward)) == nil {
		d.pkt.Unref()
		d.pktHeld = false
		d.dropping, d.dropUntil = d.hasPTS, resume
	}
	d.inputDone, d.drained, d.endErr, d.errRun = false, false, nil, 0
	d.stats.HWFallbacks++
	d.notice("notice: " + d.hwOff)
	return true, nil
}

// seeksByReading says the input is a raw elementary stream (FFmpeg's generic index), whose seek
// reads for a frame: a failed one left the reader at the end (changes.h264: a refusal with two
// threads gave 1 of its 9 pictures, a hardware failure before the first picture none), so
// restoreThreads and hwFallback do not seek it.
func (d *Decoder) seeksByReading() bool {
	f := d.fc.InputFormat()
	return f != nil && f.Flags().Has(astiav.IOFormatFlagGenericIndex)
}

// checkHW turns a hwaccel FFmpeg refused into a final error when hardware decoding was required.
func (d *Decoder) checkHW() error {
	if d.opts.HWDec != HWDecVulkan || d.hwDev == nil || d.pool == nil {
		return nil
	}
	if h := d.HW(); !h.Active {
		d.fatal = fmt.Errorf("decode: decode %s: %w: %s", d.url, ErrNoHWDec, h.Reason)
		return d.fatal
	}
	return nil
}

// QueueMoves counts the Vulkan Video decoders of this process moved to another decode queue of
// their device while decoding, when other streams ended (internal/avx/hw.c, rebalance).
func QueueMoves() int64 { return avx.DecodeQueueMoves() }

// vulkanDevice describes dev for FFmpeg's AVVulkanDeviceContext.
func vulkanDevice(dev *gpu.Device) avx.VulkanDevice {
	lock, unlock := vkx.QueueLockFuncs()
	v := dev.Video
	var exts []string
	for e := range dev.Extensions {
		// Not the fd export: with it FFmpeg makes every frame's memory exportable
		// (hwcontext_vulkan.c, try_export_flags), which the toolkit's sharing (stream.Relay) needs
		// only of its own images.
		if e != vkx.ExtExternalMemoryFd {
			exts = append(exts, e)
		}
	}
	d := avx.VulkanDevice{
		GetProcAddr:  vkx.GetInstanceProcAddr(),
		Instance:     *(*unsafe.Pointer)(unsafe.Pointer(&dev.Instance)),
		Physical:     *(*unsafe.Pointer)(unsafe.Pointer(&dev.Physical)),
		Device:       *(*unsafe.Pointer)(unsafe.Pointer(&dev.Device)),
		InstanceExts: dev.InstanceExtensions, DeviceExts: exts,
		Family: dev.QueueFamily, Queues: 1,
		DecodeFamily: v.DecodeFamily, DecodeQueues: v.DecodeQueues, CodecOps: v.CodecOps,
		Timeline: v.Features.Timeline, Sync2: v.Features.Sync2, Ycbcr: v.Features.Ycbcr,
		VideoMaintenance1: v.Features.VideoMaintenance1, QueryRst: v.Features.HostQueryReset,
		Lock: lock, Unlock: unlock, EngineLock: dev.QueueLock,
	}
	if dev.InternallySynchronized {
		d.InternallySynchronized, d.QueueCreateFlags = true, vkx.DeviceQueueCreateInternallySynchronizedBit
	}
	return d
}

// HWFrame is a picture decoded by Vulkan Video: FFmpeg's AVVkFrame, an image of the frames
// context's coded size (1920×1088 for 1080p) in SWFormat's multi-planar layout, on the device the
// decoder was given. It stays valid, and FFmpeg does not reuse the image for output, until the
// Frame's Release; it may be read as a reference by later decoding meanwhile.
type HWFrame struct {
	// SWFormat is the layout of the image's planes (nv12, p010le, ...).
	SWFormat *formats.PixelFormat
	// CodedWidth and CodedHeight are the image's size; Frame.Picture's Width and Height are the
	// picture's (cropped) size.
	CodedWidth, CodedHeight int
	av                      *astiav.Frame
	// relayed, set instead of av, is a copy of the picture on another device (Relayed).
	relayed Foreign
}

// Lock locks the frame (AVVulkanFramesContext.lock_frame) and reads its image, layout and
// semaphore. Record the barrier from its layout, submit waiting on Semaphore at SemValue and
// signalling SemValue+1, then call Submitted and Unlock at once (hwcontext_vulkan.h).
func (h *HWFrame) Lock() (avx.VkFrame, error) { return avx.LockVkFrame(h.av) }

// Submitted records the submission made under the lock: the image is in layout with access now.
func (h *HWFrame) Submitted(layout, access uint32) { avx.VkFrameSubmitted(h.av, layout, access) }

// Unlock releases Lock's lock.
func (h *HWFrame) Unlock() { avx.UnlockVkFrame(h.av) }

// hwOutput makes a Frame of the Vulkan frame in d.recv.
func (d *Decoder) hwOutput(fl avx.Fields, out *Frame) error {
	// Without lock_frame: on the H100, HEVC frames just output were found still locked (decoding
	// stalled in lock_frame here); the formats and sizes need no lock.
	v, err := avx.VkFrameInfo(d.recv)
	if err != nil {
		d.recv.Unref()
		return fmt.Errorf("decode: decode %s: %w", d.url, err)
	}
	pf, ok := formats.Lookup(v.SWFormat.Name())
	if !ok {
		d.recv.Unref()
		return fmt.Errorf("decode: decode %s: %w: Vulkan frames of %s", d.url, ErrUnsupportedPixelFormat, v.SWFormat.Name())
	}
	av := astiav.AllocFrame()
	if av == nil {
		d.recv.Unref()
		return fmt.Errorf("decode: decode %s: cannot allocate a frame", d.url)
	}
	av.MoveRef(d.recv)
	out.av = av
	// The stream's own layout (yuv420p, say), for messages: the picture is in pf (nv12).
	out.SourceFormat = pf.Name
	if src := d.Info().PixelFormat; src != "" {
		out.SourceFormat = src
	}
	out.HW = &HWFrame{SWFormat: pf, CodedWidth: v.Width, CodedHeight: v.Height, av: av}
	out.Picture = &formats.Frame{Format: pf, Width: fl.Width, Height: fl.Height}
	out.Color, out.Notes = d.resolved.resolve(out.Tagged, pf, fl.Width, fl.Height)
	d.stats.Hardware++
	return nil
}

// Download copies the frame into system memory (one CPU copy through FFmpeg's transfer): for
// checks against software decoding and for screenshots, never on the playing path. It waits for
// the decodings that read the picture as a reference first (FFmpeg's transfer does not: hw.c,
// wait_reads), so call it on the decoding goroutine or while the decoder is idle. Release the
// returned frame.
func (h *HWFrame) Download() (*Frame, error) {
	if h.av == nil {
		return nil, errors.New("decode: download: the picture was copied from another device (a relay): FFmpeg has no frame of it")
	}
	av := astiav.AllocFrame()
	if av == nil {
		return nil, errors.New("decode: download: cannot allocate a frame")
	}
	if err := avx.DownloadHW(av, h.av); err != nil {
		av.Free()
		return nil, fmt.Errorf("decode: %w", err)
	}
	fl := avx.ReadFields(av)
	pf, ok := formats.Lookup(astiav.PixelFormat(fl.Format).Name())
	if !ok {
		av.Free()
		return nil, fmt.Errorf("decode: download: %w: %s", ErrUnsupportedPixelFormat, astiav.PixelFormat(fl.Format).Name())
	}
	return &Frame{Picture: picture(fl, pf), SourceFormat: pf.Name, av: av}, nil
}

// UseVulkan reopens the stream's decoder on dev with mode (before the first Next): a player that
// creates its Vulkan device after opening the input hands the device over this way. It fails, in
// one line, where mode is HWDecVulkan and dev cannot decode the stream.
func (d *Decoder) UseVulkan(dev *gpu.Device, mode HWDec) error {
	if d.stats.Decoded > 0 || d.pending != nil || d.stats.Packets > 0 {
		return fmt.Errorf("decode: %s: UseVulkan after decoding began", d.url)
	}
	moved := dev != d.opts.Vulkan
	d.opts.Vulkan, d.opts.HWDec = dev, mode
	d.closeStream()
	if moved && d.hwDev != nil { // FFmpeg's device context was made on the other device
		d.hwDev.Free()
		d.hwDev = nil
	}
	d.tried = d.tried[:len(d.tried)-1]
	if err := d.openStream(d.stIdx); err != nil {
		d.fatal = err
		return err
	}
	return nil
}

// Threads is the open decoder's thread count: 1 while Vulkan Video decodes (or may, before
// get_format has chosen), Options.Threads (or what FFmpeg kept of it) in software.
func (d *Decoder) Threads() int { return d.threads }

// CodedSize is the size Vulkan Video decoding would give the frames of a width×height picture: the
// decoder's coded size (avx.CodedSize: 1920×1088 for H.264's 1080p), never smaller than the
// picture. An Uploader's Pad, so that uploaded pictures are padded as decoded ones are and the
// routes choose as they would for them (stream.autoRoute). Call it where Next is called.
func (d *Decoder) CodedSize(width, height int) (int, int) {
	cw, ch := avx.CodedSize(d.cc)
	return max(cw, width), max(ch, height)
}

// restoreThreads undoes the hardware decoder's single thread when get_format decoded in software
// after all (the capability check or FFmpeg's hwaccel refused the stream): with HWDecAuto it reopens
// the stream's decoder in software with Options.Threads, seeks back to the key frame at or before the
// last frame returned and drops the frames up to it, as hwFallback does. An input that cannot seek
// (a pipe) or seeks by reading (a raw elementary stream) keeps its single-threaded decoder, rather
// than lose the frames up to the next key frame.
//
// Why decoders that may decode in hardware are opened without threads (issue 19): with FFmpeg
// 7.1.5's Vulkan hwaccel, HEVC frame threads were seen to hang forever on the NVIDIA H100, every
// frame thread waiting for a frame's lock_frame in ff_vk_exec_add_dep_frame (docs/hwdec.md), while
// frame threads bring nothing there: FFmpeg's CLI decodes HEVC 1080p in hardware as fast with one
// thread as with eight. The Vulkan hwaccel decodes whole pictures (HWACCEL_CAP_THREAD_SAFE, the
// slices go to the hwaccel's decode_slice, not to slice threads), so one thread loses nothing.
func (d *Decoder) restoreThreads() error {
	s := d.pool.HWState()
	if s.Calls == 0 { // get_format not called yet
		return nil
	}
	h := d.HW()
	if h.Active {
		return nil // a later get_format (a size change) may still refuse: checked again
	}
	d.hwSingle = false
	if d.opts.HWDec == HWDecVulkan {
		return d.checkHW() // required: the refusal is final
	}
	if d.seeksByReading() {
		return nil // as a pipe does
	}
	resume, seekTo := 0.0, d.start
	if d.hasPTS {
		resume = d.lastPTS
		seekTo = d.start + int64(math.Floor(resume/d.tb))
	}
	d.intr.Arm(d.opts.Timeout)
	if err := d.fc.SeekFrame(d.stIdx, seekTo, astiav.NewSeekFlags(astiav.SeekFlagBackward)); err != nil {
		return nil // not seekable: software on one thread, Threads says so
	}
	d.hwOff = h.Reason // the same reason from now on, and no second try
	d.closeStream()
	d.tried = d.tried[:len(d.tried)-1] // the same stream, reopened
	if err := d.openStream(d.stIdx); err != nil {
		d.fatal = err
		return err
	}
	d.resetDeinterlacer()
	d.pkt.Unref()
	d.pktHeld = false
	d.dropping, d.dropUntil = d.hasPTS, resume
	d.inputDone, d.drained, d.endErr, d.errRun = false, false, nil, 0
	return nil
}

package avx

/*
#cgo pkg-config: ycbcrkit-vulkan-headers
#include <stdlib.h>
#include "hw.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/asticode/go-astiav"
)

// VulkanDevice describes a VkDevice the toolkit created, for FFmpeg's AVVulkanDeviceContext. Handles
// are the raw Vulkan handles (pointers on amd64).
type VulkanDevice struct {
	GetProcAddr                 unsafe.Pointer // vkGetInstanceProcAddr
	Instance, Physical, Device  unsafe.Pointer
	InstanceExts, DeviceExts    []string
	Family, Queues              uint32 // the toolkit's graphics+compute+transfer family and its queues
	DecodeFamily, DecodeQueues  uint32
	CodecOps                    uint32 // the decode family's video_caps
	Timeline, Sync2, Ycbcr      bool
	VideoMaintenance1, QueryRst bool
	Lock, Unlock                unsafe.Pointer // void (*)(uint32_t family, uint32_t index)
	// EngineLock, if set, is an engine's lock on queue 0 of Family (the queue FFmpeg is given
	// there): FFmpeg's lock_queue takes it for Family instead of Lock (the decode family keeps
	// Lock). It is called from FFmpeg's threads.
	EngineLock sync.Locker
	// QueueCreateFlags are the VkDeviceQueueCreateFlags the queues of Family and DecodeFamily were
	// created with (an engine's): not 0, FFmpeg's queues are fetched with vkGetDeviceQueue2 and them.
	QueueCreateFlags uint32
	// InternallySynchronized: those queues were created internally synchronized
	// (VK_KHR_internally_synchronized_queues): FFmpeg's lock_queue takes no lock, EngineLock nor Lock.
	InternallySynchronized bool
}

// Which lock FFmpeg's lock_queue takes for a queue (lockChoice).
const (
	lockNone    = C.AVX_LOCK_NONE
	lockEngine  = C.AVX_LOCK_ENGINE
	lockToolkit = C.AVX_LOCK_TOOLKIT
)

// lockChoice is hw.c's decision for lock_queue(family, index) on a device context made of d
// (wrapped: its entry points go through the toolkit's lookup): the lock kind and the index of the
// toolkit's lock.
func lockChoice(d VulkanDevice, wrapped bool, family, index uint32) (kind int, lockIndex uint32) {
	decode := C.int32_t(-1)
	if d.DecodeQueues > 0 {
		decode = C.int32_t(d.DecodeFamily)
	}
	var k C.uint32_t
	c := C.avx_lock_choice(C.int(cb(d.InternallySynchronized)), C.int(cb(d.EngineLock != nil)), C.uint32_t(d.Family),
		C.int(cb(wrapped)), decode, C.uint32_t(family), C.uint32_t(index), &k)
	return int(c), uint32(k)
}

// pickDecodeQueue is hw.c's choice of a new decoder's decode queue (avx_pick_decode_queue) from
// the decoders on each queue of its device and on each index over the GPU's devices (tests).
func pickDecodeQueue(dev, gpu []uint32) int {
	if len(dev) == 0 || len(gpu) < len(dev) {
		return -1
	}
	return int(C.avx_pick_decode_queue((*C.uint32_t)(unsafe.Pointer(&dev[0])), (*C.uint32_t)(unsafe.Pointer(&gpu[0])),
		C.uint32_t(len(dev))))
}

// rebalancePick is hw.c's next move of decoders between queues (avx_rebalance_pick) with users[d][q]
// decoders on queue q of device d: a decoder of dev from queue from to to, and with partner >= 0 one
// of partner from to to from; ok false when balanced (tests).
func rebalancePick(users [][]uint32) (dev int, from, to uint32, partner int, ok bool) {
	if len(users) == 0 || len(users[0]) == 0 {
		return 0, 0, 0, -1, false
	}
	n := len(users[0])
	flat := make([]uint32, 0, len(users)*n)
	for _, u := range users {
		flat = append(flat, u[:n]...)
	}
	var d, e C.int
	var f, t C.uint32_t
	if C.avx_rebalance_pick((*C.uint32_t)(unsafe.Pointer(&flat[0])), C.int(len(users)), C.uint32_t(n), &d, &f, &t, &e) == 0 {
		return 0, 0, 0, -1, false
	}
	return int(d), uint32(f), uint32(t), int(e), true
}

// fairPick is hw.c's swap of two decoders' queues among those of one device (avx_fair_pick):
// decoder k on queue queueOf[k] of len(users), users[q] decoders on queue q, done[k] decodings
// submitted; ok false: no swap (tests).
func fairPick(queueOf []uint32, done []uint64, users []uint32, lead uint64) (lo, hi int, ok bool) {
	if len(queueOf) == 0 || len(done) < len(queueOf) || len(users) == 0 {
		return 0, 0, false
	}
	var l, h C.int
	if C.avx_fair_pick((*C.uint32_t)(unsafe.Pointer(&queueOf[0])), (*C.uint64_t)(unsafe.Pointer(&done[0])), C.int(len(queueOf)),
		(*C.uint32_t)(unsafe.Pointer(&users[0])), C.uint32_t(len(users)), C.uint64_t(lead), &l, &h) == 0 {
		return 0, 0, false
	}
	return int(l), int(h), true
}

// moveStays is hw.c's choice for a moved decoder's next batch (avx_move_stays): true, its old queue.
func moveStays(moved, done bool, deferred uint32) bool {
	b := func(v bool) C.int {
		if v {
			return 1
		}
		return 0
	}
	return C.avx_move_stays(b(moved), b(done), C.uint32_t(deferred)) != 0
}

// simBatch is where avx_move_sim's batch went and whether it waited on the decoder's timeline.
type simBatch struct {
	Queue  int
	Waited bool
	Value  uint64
}

// moveSim runs avx_move_sim: ops[k] "submit" with the decoder's timeline at args[k], or "move" to
// queue args[k]; one simBatch per op (a move's: queue -1). ok false: the simulation failed.
func moveSim(ops []string, args []uint64) (batches []simBatch, ok bool) {
	n := len(ops)
	op := make([]C.int, n+1)
	arg := make([]C.uint64_t, n+1)
	for k := range ops {
		if ops[k] == "move" {
			op[k] = 1
		}
		arg[k] = C.uint64_t(args[k])
	}
	queue, waited := make([]C.int, n+1), make([]C.int, n+1)
	value := make([]C.uint64_t, n+1)
	if C.avx_move_sim(C.int(n), &op[0], &arg[0], &queue[0], &waited[0], &value[0]) == 0 {
		return nil, false
	}
	for k := range ops {
		batches = append(batches, simBatch{int(queue[k]), waited[k] != 0, uint64(value[k])})
	}
	return batches, true
}

// waitsOp is one step of waitsSim: "decode barrier", "other barrier" or "submit" in command buffer
// CB (waiting on Waits, signalling Signals: semaphores by number at a value), or "move" to queue CB.
type waitsOp struct {
	Op             string
	CB             int
	Waits, Signals [][2]uint64
}

// waitsResult is what the driver got for a waitsOp: a barrier's memory barriers (-2: one that orders
// no decodings), a submission's waits kept (bit j: Waits[j]) and whether it waited on the decoder's
// own timeline.
type waitsResult struct {
	Mem  int
	Kept int
	Own  bool
}

// waitsSim runs avx_waits_sim. ok false: the simulation failed.
func waitsSim(ops []waitsOp) (res []waitsResult, ok bool) {
	n := len(ops)
	cops := make([]C.AvxWaitsOp, n+1)
	for k, o := range ops {
		c := &cops[k]
		c.op = map[string]C.int{"decode barrier": 0, "other barrier": 1, "submit": 2, "move": 3}[o.Op]
		c.cb, c.arg = C.int(o.CB), C.uint32_t(o.CB)
		c.nwait, c.nsig = C.int(len(o.Waits)), C.int(len(o.Signals))
		for j, w := range o.Waits {
			c.wsem[j], c.wval[j] = C.int(w[0]), C.uint64_t(w[1])
		}
		for j, s := range o.Signals {
			c.ssem[j], c.sval[j] = C.int(s[0]), C.uint64_t(s[1])
		}
	}
	kept, mem, own := make([]C.int, n+1), make([]C.int, n+1), make([]C.int, n+1)
	if C.avx_waits_sim(C.int(n), &cops[0], &kept[0], &mem[0], &own[0]) == 0 {
		return nil, false
	}
	for k := range ops {
		res = append(res, waitsResult{int(mem[k]), int(kept[k]), own[k] != 0})
	}
	return res, true
}

// querySim is avx_query_sim: what FFmpeg reads of two decode families' result status query support
// through the toolkit's vkGetInstanceProcAddr, the driver offering it on both.
func querySim() (supported [2]bool, ok bool) {
	var s [2]C.int
	if C.avx_query_sim(&s[0]) == 0 {
		return supported, false
	}
	return [2]bool{s[0] != 0, s[1] != 0}, true
}

// readsSim is avx_reads_sim: the hwaccel_flags get_format leaves a decoder with, from flags, queued
// on a vqueue or not; and the flag that says its decodings leave their references' semaphores alone.
func readsSim(queued bool, flags int) (got, unsignalled int) {
	q := 0
	if queued {
		q = 1
	}
	return int(C.avx_reads_sim(C.int(q), C.int(flags))), C.AV_HWACCEL_FLAG_VK_READS_UNSIGNALLED
}

// liveEntrySim is avx_live_entry_sim: hw.c takes a device's entry for a new registration only
// from the same instance and vkCreateImage.
func liveEntrySim() bool { return C.avx_live_entry_sim() == 1 }

// vqueueSim runs hw.c's queue choice and moves on made-up devices (avx_vqueue_sim): decoder i starts
// on device devOf[i] of devices with n decode queues each, then the decoders ends name end in turn;
// the result is each decoder's queue afterwards (-1: ended). ok false: hw.c's tables had no room.
func vqueueSim(devices, n int, devOf, ends []int) (queues []int, ok bool) {
	dev := make([]C.int, len(devOf)+1)
	for i, d := range devOf {
		dev[i] = C.int(d)
	}
	end := make([]C.int, len(ends)+1)
	for i, e := range ends {
		end[i] = C.int(e)
	}
	idx := make([]C.uint32_t, len(devOf)+1)
	if C.avx_vqueue_sim(C.int(devices), C.uint32_t(n), &dev[0], C.int(len(devOf)), &end[0], C.int(len(ends)), &idx[0]) == 0 {
		return nil, false
	}
	for i := range devOf {
		q := -1
		if idx[i] != C.UINT32_MAX {
			q = int(idx[i])
		}
		queues = append(queues, q)
	}
	return queues, true
}

// DecodeQueueMoves counts the decoders moved to another queue of their device while decoding, when
// others ended (hw.c, rebalance).
func DecodeQueueMoves() int64 { return int64(C.avx_decode_queue_moves()) }

// IdleHW says the pool's decoder has ended its input: its decode queue counts as free until it
// decodes again, and other decoders may move to it (hw.c, avx_hw_idle).
func (p *Pool) IdleHW() {
	if p != nil {
		C.avx_hw_idle(p.p)
	}
}

// QueueLocksTaken counts the locks FFmpeg's lock_queue has taken in this process (the engine's and
// the toolkit's): none on a device whose queues are internally synchronized.
func QueueLocksTaken() int64 { return int64(C.avx_queue_locks_taken()) }

// HWDevice is an initialised AV_HWDEVICE_TYPE_VULKAN device context (an AVBufferRef).
type HWDevice struct {
	ref *C.AVBufferRef
}

func cb(b bool) C.VkBool32 {
	if b {
		return 1
	}
	return 0
}

func cList(l []string) (**C.char, func()) {
	arr := (**C.char)(C.calloc(C.size_t(len(l)+1), C.size_t(unsafe.Sizeof(uintptr(0)))))
	s := unsafe.Slice(arr, len(l)+1)
	for i, e := range l {
		s[i] = C.CString(e)
	}
	return arr, func() {
		for _, c := range s {
			if c != nil {
				C.free(unsafe.Pointer(c))
			}
		}
		C.free(unsafe.Pointer(arr))
	}
}

// NewVulkanDevice hands d to FFmpeg (av_hwdevice_ctx_init on an AVVulkanDeviceContext filled from
// d: device_features the chain enabled, the extension lists, qf[] with the decode family and its
// video_caps, lock_queue/unlock_queue the toolkit's queue lock).
func NewVulkanDevice(d VulkanDevice) (*HWDevice, error) {
	ie, freeIE := cList(d.InstanceExts)
	defer freeIE()
	de, freeDE := cList(d.DeviceExts)
	defer freeDE()
	cd := C.AvxVulkanDevice{
		get_proc_addr: d.GetProcAddr,
		inst:          C.VkInstance(d.Instance), phys: C.VkPhysicalDevice(d.Physical), dev: C.VkDevice(d.Device),
		inst_exts: ie, nb_inst_exts: C.int(len(d.InstanceExts)),
		dev_exts: de, nb_dev_exts: C.int(len(d.DeviceExts)),
		family: C.uint32_t(d.Family), queues: C.uint32_t(d.Queues),
		decode_family: C.uint32_t(d.DecodeFamily), decode_queues: C.uint32_t(d.DecodeQueues), caps: C.uint32_t(d.CodecOps),
		timeline: cb(d.Timeline), sync2: cb(d.Sync2), ycbcr: cb(d.Ycbcr),
		video_maintenance1: cb(d.VideoMaintenance1), host_query_reset: cb(d.QueryRst),
		lock: d.Lock, unlock: d.Unlock,
		queue_flags: C.uint32_t(d.QueueCreateFlags), internally_synchronized: C.int(cb(d.InternallySynchronized)),
	}
	if d.EngineLock != nil {
		// Owned by the device context from here on, failure included (its free drops it).
		cd.engine_lock = C.uintptr_t(newEngineLock(d.EngineLock))
	}
	var e C.int
	ref := C.avx_hw_vulkan_device(&cd, &e)
	if ref == nil {
		return nil, fmt.Errorf("avx: FFmpeg's Vulkan device context: %w", astiav.Error(e))
	}
	return &HWDevice{ref: ref}, nil
}

// Free drops this reference; decoders that use the device hold their own.
func (h *HWDevice) Free() {
	if h != nil && h.ref != nil {
		C.av_buffer_unref(&h.ref)
	}
}

// InstallHW gives cc the device and a get_format that picks AV_PIX_FMT_VULKAN when FFmpeg offers it
// and the device's decode capabilities cover the stream (unless skipCheck: then FFmpeg's hwaccel
// initialisation alone decides; tests of FFmpeg's own fallback use it). required: never a software
// format. After p.Install, before avcodec_open2.
func (p *Pool) InstallHW(cc *astiav.CodecContext, dev *HWDevice, required, skipCheck bool) error {
	if dev == nil || dev.ref == nil {
		return errors.New("avx: no hardware device")
	}
	r, c := 0, 1
	if required {
		r = 1
	}
	if skipCheck {
		c = 0
	}
	if ret := C.avx_hw_install(p.p, (*C.AVCodecContext)(cc.UnsafePointer()), dev.ref, C.int(r), C.int(c)); ret < 0 {
		return fmt.Errorf("avx: install hardware decoding: %w", astiav.Error(ret))
	}
	return nil
}

// NoteHWFrame is what the pool's get_buffer2 does with each hardware frame a decoder on cc
// allocates: it keeps the frame's frames context until no frame of it is left (hw.c,
// avx_hw_frame_allocated, says why). Tests call it to stand in for a decoder.
func (p *Pool) NoteHWFrame(cc *astiav.CodecContext, f *astiav.Frame) {
	C.avx_hw_frame_allocated(C.avx_pool_hw(p.p), (*C.AVCodecContext)(cc.UnsafePointer()), (*C.AVFrame)(f.UnsafePointer()))
}

// HeldHWFrames says how many frames contexts the pool's decoder keeps (NoteHWFrame).
func (p *Pool) HeldHWFrames() int { return int(C.avx_hw_held_frames(p.p)) }

// FreeCodecContext frees cc like cc.Free, but drops its hw_device_ctx and hw_frames_ctx only after
// avcodec_free_context has joined the frame threads. go-astiav v0.39.0's CodecContext.Free unrefs
// both first (codec_context.go, Free), while FFmpeg's frame threads work on copies of the context
// made with av_memdup (libavcodec/pthread_frame.c, init_thread) and so share the very AVBufferRef
// of hw_device_ctx: a frame thread still in its setup stage (get_format → hwaccel_init →
// ff_vk_decode_init → av_hwframe_ctx_alloc(avctx->hw_device_ctx)) then read a freed reference.
// That was the crash closing a decoder whose hwaccel had failed while frame threads were busy
// (gdb: av_buffer_ref ← av_hwframe_ctx_alloc ← avcodec_get_hw_frames_parameters in "av:h264:df3",
// the closing thread in park_frame_worker_threads ← ff_frame_thread_free ← avcodec_free_context).
func FreeCodecContext(cc *astiav.CodecContext) {
	if cc == nil {
		return
	}
	var dev, frames *C.AVBufferRef
	C.avx_hw_detach((*C.AVCodecContext)(cc.UnsafePointer()), &dev, &frames)
	cc.Free()
	C.avx_hw_release(dev, frames)
}

// HWState is what get_format did: Installed (InstallHW ran), Offered (FFmpeg listed
// AV_PIX_FMT_VULKAN), Chosen (it was returned), Refused (the capability check said no, Reason says
// why), Failed (FFmpeg asked again without it: the hwaccel failed to initialise).
type HWState struct {
	Installed, Offered, Chosen, Refused, Failed bool
	Calls                                       int
	Reason                                      string
}

// HWState reads the pool's hardware decoding state.
func (p *Pool) HWState() HWState {
	if p == nil || p.p == nil {
		return HWState{}
	}
	var s C.AvxHwState
	C.avx_hw_state(p.p, &s)
	return HWState{Installed: s.installed != 0, Offered: s.offered != 0, Chosen: s.chosen != 0, Refused: s.refused != 0,
		Failed: s.failed != 0, Calls: int(s.calls), Reason: C.GoString(&s.reason[0])}
}

// VkFrame is what drawing an AV_PIX_FMT_VULKAN frame needs (AVVkFrame and its frames context).
type VkFrame struct {
	Image     uint64 // VkImage
	Tiling    uint32
	Layout    uint32 // VkImageLayout
	Access    uint32
	Semaphore uint64 // timeline VkSemaphore
	SemValue  uint64
	// ReadSemaphore at ReadValue: the decoder's last decoding that read the frame as a reference
	// without signalling Semaphore (scripts/ffmpeg-patches/0008); 0: none.
	ReadSemaphore uint64
	ReadValue     uint64
	QueueFamily   uint32
	Images        int
	SWFormat      astiav.PixelFormat
	Width         int // the frames context's (coded) size
	Height        int
	Usage, Flags  uint32
	Format        uint32 // VkFormat
	// Epoch changes whenever FFmpeg destroys an image (0: not counted on this device): what was
	// recorded for Image at one Epoch is for this image while the Epoch is the same.
	Epoch uint64
}

// LockVkFrame locks f (AVVulkanFramesContext.lock_frame) and reads it. The caller records its
// barrier from Layout, submits waiting on Semaphore at SemValue and signalling SemValue+1, then
// calls VkFrameSubmitted and UnlockVkFrame ("lock just before command submission ... and unlock
// immediately after", hwcontext_vulkan.h).
func LockVkFrame(f *astiav.Frame) (VkFrame, error) {
	var v C.AvxVkFrame
	if ret := C.avx_vk_frame_lock((*C.AVFrame)(f.UnsafePointer()), &v); ret < 0 {
		return VkFrame{}, fmt.Errorf("avx: not a Vulkan frame: %w", astiav.Error(ret))
	}
	return vkFrame(&v), nil
}

// TryLockVkFrame is LockVkFrame without waiting: ok false when another thread (FFmpeg's decoder,
// recording a decoding that reads the picture) holds the lock, and nothing is locked.
func TryLockVkFrame(f *astiav.Frame) (v VkFrame, ok bool, err error) {
	var c C.AvxVkFrame
	switch ret := C.avx_vk_frame_trylock((*C.AVFrame)(f.UnsafePointer()), &c); {
	case ret < 0:
		return VkFrame{}, false, fmt.Errorf("avx: not a Vulkan frame: %w", astiav.Error(ret))
	case ret == 1:
		return VkFrame{}, false, nil
	}
	return vkFrame(&c), true, nil
}

// VkFrameInfo reads f's image, formats and sizes without lock_frame (Layout and SemValue may be
// stale: only LockVkFrame's are good for a submission).
func VkFrameInfo(f *astiav.Frame) (VkFrame, error) {
	var v C.AvxVkFrame
	if ret := C.avx_vk_frame_info((*C.AVFrame)(f.UnsafePointer()), &v); ret < 0 {
		return VkFrame{}, fmt.Errorf("avx: not a Vulkan frame: %w", astiav.Error(ret))
	}
	return vkFrame(&v), nil
}

func vkFrame(v *C.AvxVkFrame) VkFrame {
	return VkFrame{
		Image: uint64(uintptr(unsafe.Pointer(v.img))), Tiling: uint32(v.tiling), Layout: uint32(v.layout),
		Access: uint32(v.access), Semaphore: uint64(uintptr(unsafe.Pointer(v.sem))), SemValue: uint64(v.sem_value),
		ReadSemaphore: uint64(uintptr(unsafe.Pointer(v.read_sem))), ReadValue: uint64(v.read_value),
		QueueFamily: uint32(v.queue_family), Images: int(v.nb_images), SWFormat: astiav.PixelFormat(v.sw_format),
		Width: int(v.width), Height: int(v.height), Usage: uint32(v.usage), Flags: uint32(v.flags),
		Format: uint32(v.format), Epoch: uint64(v.epoch),
	}
}

// VkFrameSubmitted records a submission made under the lock: the image is now in layout with
// access, and its semaphore's value is one higher.
func VkFrameSubmitted(f *astiav.Frame, layout, access uint32) {
	C.avx_vk_frame_submitted((*C.AVFrame)(f.UnsafePointer()), C.VkImageLayout(layout), C.VkAccessFlags(access))
}

// UnlockVkFrame releases LockVkFrame's lock.
func UnlockVkFrame(f *astiav.Frame) { C.avx_vk_frame_unlock((*C.AVFrame)(f.UnsafePointer())) }

// PixelFormatVulkan is AV_PIX_FMT_VULKAN (go-astiav v0.39.0 has no constant for it).
const PixelFormatVulkan = astiav.PixelFormat(C.AV_PIX_FMT_VULKAN)

// DownloadHW copies the hardware frame src into dst in system memory (av_hwframe_transfer_data):
// for checks and screenshots, never on the playing path.
func DownloadHW(dst, src *astiav.Frame) error {
	if ret := C.avx_hw_download((*C.AVFrame)(dst.UnsafePointer()), (*C.AVFrame)(src.UnsafePointer())); ret < 0 {
		return fmt.Errorf("avx: download hardware frame: %w", astiav.Error(ret))
	}
	return nil
}

// HWFrames is an initialised AV_PIX_FMT_VULKAN frames context (an AVBufferRef) made by the toolkit:
// FFmpeg's images of software pictures uploaded with av_hwframe_transfer_data, the same AVVkFrames
// (images, semaphores, layouts) a Vulkan decoder outputs.
type HWFrames struct {
	ref *C.AVBufferRef
}

// NewHWFrames makes a frames context of sw (nv12, p010le, ...) at width×height on dev.
func NewHWFrames(dev *HWDevice, sw astiav.PixelFormat, width, height int) (*HWFrames, error) {
	if dev == nil || dev.ref == nil {
		return nil, errors.New("avx: no hardware device")
	}
	var e C.int
	ref := C.avx_hw_frames(dev.ref, C.int(sw), C.int(width), C.int(height), &e)
	if ref == nil {
		return nil, fmt.Errorf("avx: Vulkan frames of %s %dx%d: %w", sw.Name(), width, height, astiav.Error(e))
	}
	return &HWFrames{ref: ref}, nil
}

// Get makes dst a new Vulkan frame of h (av_hwframe_get_buffer).
func (h *HWFrames) Get(dst *astiav.Frame) error {
	if ret := C.avx_hw_get_buffer(h.ref, (*C.AVFrame)(dst.UnsafePointer())); ret < 0 {
		return fmt.Errorf("avx: new Vulkan frame: %w", astiav.Error(ret))
	}
	return nil
}

// Upload copies the software frame src into dst, a frame from Get (av_hwframe_transfer_data); dst's
// width and height become src's, and dst holds src's buffer until it is freed (FFmpeg's copy may
// read src's memory after Upload returns).
func (h *HWFrames) Upload(dst, src *astiav.Frame) error {
	if ret := C.avx_hw_upload((*C.AVFrame)(dst.UnsafePointer()), (*C.AVFrame)(src.UnsafePointer())); ret < 0 {
		return fmt.Errorf("avx: upload to a Vulkan frame: %w", astiav.Error(ret))
	}
	return nil
}

// Free drops this reference; frames made from it hold their own.
func (h *HWFrames) Free() {
	if h != nil && h.ref != nil {
		C.avx_buffer_unref(h.ref)
		h.ref = nil
	}
}

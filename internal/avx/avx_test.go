package avx

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/asticode/go-astiav"
)

func TestLayout(t *testing.T) {
	if err := CheckLayout(); err != nil {
		t.Fatal(err)
	}
	// The pointer read through unsafe is the context go-astiav itself uses: a value set through
	// go-astiav reads back through the C struct.
	cc := astiav.AllocCodecContext(nil)
	defer cc.Free()
	cc.SetWidth(1234)
	c, err := codecContext(cc)
	if err != nil {
		t.Fatal(err)
	}
	if c.width != 1234 {
		t.Fatalf("AVCodecContext.width = %d through the raw pointer, want 1234", c.width)
	}
	fc := astiav.AllocFormatContext()
	defer fc.Free()
	fc.SetFlags(astiav.FormatContextFlags(astiav.FormatContextFlagGenPts))
	f, err := formatContext(fc)
	if err != nil {
		t.Fatal(err)
	}
	if int(f.flags) != int(astiav.FormatContextFlagGenPts) {
		t.Fatalf("AVFormatContext.flags = %#x through the raw pointer", f.flags)
	}
}

// TestPoolAlloc: every plane of every layout starts on its own page, rows are 64-byte multiples, and
// writing the whole plane (rows × linesize) stays inside the buffer.
func TestPoolAlloc(t *testing.T) {
	p, err := NewPool(16384, 16384)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Free()
	for _, name := range []string{"yuv420p", "nv12", "yuv422p10le", "yuyv422", "p010le", "gray", "yuva420p", "pal8", "yuv411p"} {
		for _, size := range [][2]int{{64, 48}, {63, 47}, {1920, 1080}, {1, 1}} {
			f := astiav.AllocFrame()
			pf := astiav.FindPixelFormatByName(name)
			if err := p.Alloc(f, pf, size[0], size[1]); err != nil {
				t.Fatalf("%s %v: %v", name, size, err)
			}
			fl := ReadFields(f)
			seen := map[uintptr]bool{}
			for i := 0; i < 4; i++ {
				if fl.Data[i] == nil {
					continue
				}
				a := uintptr(fl.Data[i])
				if a%Page != 0 || seen[a/Page] {
					t.Errorf("%s %v: plane %d at %#x: not on a page of its own", name, size, i, a)
				}
				seen[a/Page] = true
				if fl.Linesize[i]%64 != 0 && name != "pal8" {
					t.Errorf("%s %v: linesize[%d] = %d", name, size, i, fl.Linesize[i])
				}
			}
			f.Free()
		}
	}
	f := astiav.AllocFrame()
	defer f.Free()
	if err := p.Alloc(f, astiav.FindPixelFormatByName("yuv420p"), 20000, 16); err == nil {
		t.Error("20000-wide picture allocated past the limit")
	}
}

// TestPoolReuse: a released buffer is reused, not allocated again; a size change makes a new pool
// while the buffers still held stay valid.
func TestPoolReuse(t *testing.T) {
	p, _ := NewPool(4096, 4096)
	yuv := astiav.FindPixelFormatByName("yuv420p")
	a := astiav.AllocFrame()
	if err := p.Alloc(a, yuv, 64, 48); err != nil {
		t.Fatal(err)
	}
	first := ReadFields(a).Data[0]
	a.Unref()
	if err := p.Alloc(a, yuv, 64, 48); err != nil {
		t.Fatal(err)
	}
	if ReadFields(a).Data[0] != first || p.Allocations() != 1 {
		t.Errorf("buffer not reused: %d allocations", p.Allocations())
	}
	b := astiav.AllocFrame()
	if err := p.Alloc(b, yuv, 128, 96); err != nil {
		t.Fatal(err)
	}
	p.Free() // frames keep their buffers
	y := Bytes(ReadFields(a).Data[0], 64)
	for i := range y {
		y[i] = byte(i)
	}
	a.Free()
	b.Free()
}

// TestPictureBytes: a pool's buffers count while they exist (back in the pool too) and stop
// counting once the pool and every frame holding one are gone; the peak stays.
func TestPictureBytes(t *testing.T) {
	live0, _ := PictureBytes()
	p, _ := NewPool(4096, 4096)
	yuv := astiav.FindPixelFormatByName("yuv420p")
	a, b := astiav.AllocFrame(), astiav.AllocFrame()
	for _, f := range []*astiav.Frame{a, b} {
		if err := p.Alloc(f, yuv, 640, 480); err != nil {
			t.Fatal(err)
		}
	}
	live, peak := PictureBytes()
	if one := int64(640 * 480); live-live0 < 2*one || peak < live {
		t.Errorf("two 640x480 buffers: %d bytes live more than before, peak %d; want at least %d, peak at least live %d", live-live0, peak, 2*one, live)
	}
	a.Unref()
	if l, _ := PictureBytes(); l != live {
		t.Errorf("a buffer back in its pool: %d bytes live, want still %d", l, live)
	}
	p.Free()
	b.Free()
	a.Free()
	if l, pk := PictureBytes(); l != live0 || pk < peak {
		t.Errorf("pool and frames gone: %d bytes live (want %d), peak %d (want at least %d)", l, live0, pk, peak)
	}
}

func TestDescribe(t *testing.T) {
	d, ok := Describe(astiav.FindPixelFormatByName("yuv411p"))
	if !ok || d.Name != "yuv411p" || d.Log2ChromaW != 2 || d.Log2ChromaH != 0 || d.Depth != 8 || d.RGB {
		t.Errorf("yuv411p: %+v", d)
	}
	d, ok = Describe(astiav.FindPixelFormatByName("rgb24"))
	if !ok || !d.RGB || d.Components != 3 {
		t.Errorf("rgb24: %+v", d)
	}
	if _, ok := Describe(astiav.PixelFormatNone); ok {
		t.Error("AV_PIX_FMT_NONE described")
	}
}

func TestInterrupter(t *testing.T) {
	it, err := NewInterrupter()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Free()
	cb := func() int { return int(interruptCallback(it)) }
	it.Arm(20 * time.Millisecond)
	if cb() != 0 || it.TimedOut() {
		t.Fatal("fired before the deadline")
	}
	time.Sleep(30 * time.Millisecond)
	if cb() != 1 || !it.TimedOut() {
		t.Fatal("did not fire after the deadline")
	}
	it.Arm(time.Second)
	if cb() != 0 || it.TimedOut() {
		t.Fatal("re-arming did not clear the deadline")
	}
	it.Abort()
	it.Arm(time.Second)
	if cb() != 1 || !it.Aborted() {
		t.Fatal("abort did not stick")
	}
}

// TestLockChoice: which lock FFmpeg's lock_queue takes (hw.c's avx_lock_choice, the one decision
// lock_queue and unlock_queue follow), for an engine's device with its queue lock, the toolkit's own
// device, and an engine's device whose queues are internally synchronized, where no queue of either
// family is locked.
func TestLockChoice(t *testing.T) {
	const family, decode = 0, 3
	engine := VulkanDevice{Family: family, DecodeFamily: decode, DecodeQueues: 2, EngineLock: &sync.Mutex{}}
	own := VulkanDevice{Family: family, DecodeFamily: decode, DecodeQueues: 2}
	isq := engine
	isq.InternallySynchronized = true
	isqNoLock := own
	isqNoLock.InternallySynchronized = true
	for _, c := range []struct {
		name          string
		d             VulkanDevice
		family, index uint32
		wantKind      int
		wantIndex     uint32
	}{
		{"engine family, engine lock", engine, family, 0, lockEngine, 0},
		{"decode family: one toolkit lock", engine, decode, 1, lockToolkit, 0},
		{"own device, its family", own, family, 0, lockToolkit, 0},
		{"own device, decode family", own, decode, 1, lockToolkit, 0},
		{"internally synchronized, engine family", isq, family, 0, lockNone, 0},
		{"internally synchronized, decode family", isq, decode, 1, lockNone, 1},
		{"internally synchronized without a lock, engine family", isqNoLock, family, 0, lockNone, 0},
		{"internally synchronized without a lock, decode family", isqNoLock, decode, 0, lockNone, 0},
	} {
		kind, index := lockChoice(c.d, true, c.family, c.index)
		if kind != c.wantKind || (kind == lockToolkit && index != c.wantIndex) {
			t.Errorf("%s: lock %d at index %d; want %d at %d", c.name, kind, index, c.wantKind, c.wantIndex)
		}
	}
}

// TestPickDecodeQueue: decoders opened one after another on D devices of one GPU (input i on device
// i mod D, as ycbcrwall -devices spreads them) get queues of the decode family (7, as NVIDIA's) so
// that no queue of a device has two decoders while another has none, and no queue index (a video
// engine on NVIDIA) has two more than another over the GPU: 16 decoders on 3 devices share no
// queue, and on one device they use every queue.
func TestPickDecodeQueue(t *testing.T) {
	const queues = 7
	spread := func(xs []uint32) uint32 { return slices.Max(xs) - slices.Min(xs) }
	for _, c := range []struct{ decoders, devices int }{{7, 1}, {16, 1}, {64, 1}, {16, 2}, {16, 3}, {16, 4}, {48, 2}} {
		dev := make([][]uint32, c.devices)
		for d := range dev {
			dev[d] = make([]uint32, queues)
		}
		gpu := make([]uint32, queues)
		for i := range c.decoders {
			d := dev[i%c.devices]
			q := pickDecodeQueue(d, gpu)
			if q < 0 || q >= queues {
				t.Fatalf("%d decoders on %d devices: decoder %d got queue %d", c.decoders, c.devices, i, q)
			}
			d[q]++
			gpu[q]++
		}
		for k, d := range dev {
			if spread(d) > 1 {
				t.Errorf("%d decoders on %d devices: device %d's queues carry %v", c.decoders, c.devices, k, d)
			}
		}
		if spread(gpu) > 1 {
			t.Errorf("%d decoders on %d devices: the GPU's queue indices carry %v", c.decoders, c.devices, gpu)
		}
	}
	// A decoder closed gives its queue back: the next one takes it.
	dev, gpu := []uint32{2, 1, 2}, []uint32{2, 1, 2}
	if q := pickDecodeQueue(dev, gpu); q != 1 {
		t.Errorf("queues carrying %v: picked %d, want 1", dev, q)
	}
}

// TestVQueues runs hw.c's own take_vqueue, end_vqueue and rebalance on made-up devices (no Vulkan
// call is made): decoders placed over 7 queues, then those of the engines carrying two end, as
// streams of one length do first; the rest must then be one to an engine, none sharing a queue,
// and each still counted where it is.
func TestVQueues(t *testing.T) {
	const queues = 7
	for _, devices := range []int{1, 2} {
		devOf := make([]int, 16)
		for i := range devOf {
			devOf[i] = i % devices
		}
		start, ok := vqueueSim(devices, queues, devOf, nil)
		if !ok {
			t.Fatalf("%d devices: no room in hw.c's tables", devices)
		}
		per := make([]int, queues)
		for _, q := range start {
			per[q]++
		}
		var ends []int
		for i, q := range start {
			if per[q] == 2 {
				ends = append(ends, i)
			}
		}
		if len(ends) != 10 {
			t.Fatalf("%d devices: 16 decoders placed %v over the queues", devices, per)
		}
		after, _ := vqueueSim(devices, queues, devOf, ends)
		left := map[[2]int]bool{} // device, queue
		engines := map[int]int{}
		for i, q := range after {
			ended := slices.Contains(ends, i)
			switch {
			case ended && q != -1:
				t.Errorf("%d devices: decoder %d ended but is counted on queue %d", devices, i, q)
			case !ended && q < 0:
				t.Errorf("%d devices: decoder %d decodes but is counted nowhere", devices, i)
			case !ended:
				if left[[2]int{devOf[i], q}] {
					t.Errorf("%d devices: two decoders left on queue %d of device %d: %v", devices, q, devOf[i], after)
				}
				left[[2]int{devOf[i], q}] = true
				engines[q]++
			}
		}
		for q, n := range engines {
			if n > 1 {
				t.Errorf("%d devices: %d of the 6 decoders left on engine %d: %v", devices, n, q, after)
			}
		}
	}
}

// TestRebalance: streams placed as take_vqueue places them end engine by engine, as streams of one
// length do (those sharing an engine with fewer end first); after each end the moves hw.c's
// rebalance makes leave no queue index of the GPU two above another, and no device's queue two
// above another of its own where the move would not load an index beyond the GPU's most used.
func TestRebalance(t *testing.T) {
	const queues = 7
	for _, c := range []struct{ decoders, devices int }{{16, 1}, {16, 2}, {48, 4}, {64, 1}, {9, 2}} {
		users := make([][]uint32, c.devices)
		for d := range users {
			users[d] = make([]uint32, queues)
		}
		gpuOf := func() []uint32 {
			g := make([]uint32, queues)
			for _, u := range users {
				for q, n := range u {
					g[q] += n
				}
			}
			return g
		}
		for i := range c.decoders {
			d := users[i%c.devices]
			d[pickDecodeQueue(d, gpuOf())]++
		}
		moves := 0
		for left := c.decoders; left > 0; left-- {
			// The next stream to end: one on the least used index still decoding.
			g, end := gpuOf(), -1
			for q := range g {
				if g[q] > 0 && (end < 0 || g[q] < g[end]) {
					end = q
				}
			}
			for _, u := range users {
				if u[end] > 0 {
					u[end]--
					break
				}
			}
			for {
				d, from, to, partner, ok := rebalancePick(users)
				if !ok {
					break
				}
				if users[d][from] == 0 || from == to || partner == d || partner >= 0 && users[partner][to] == 0 {
					t.Fatalf("%d on %d devices: move of device %d from queue %d to %d, partner %d: %v", c.decoders, c.devices, d, from, to, partner, users)
				}
				users[d][from]--
				users[d][to]++
				if partner >= 0 {
					users[partner][to]--
					users[partner][from]++
				}
				if moves++; moves > 10*c.decoders {
					t.Fatalf("%d on %d devices: moves do not settle: %v", c.decoders, c.devices, users)
				}
			}
			g = gpuOf()
			if spread := slices.Max(g) - slices.Min(g); spread > 1 {
				t.Errorf("%d on %d devices, %d decoding: the GPU's queue indices carry %v", c.decoders, c.devices, left-1, g)
			}
			for k, u := range users {
				if spread := slices.Max(u) - slices.Min(u); spread > 1 {
					t.Errorf("%d on %d devices, %d decoding: device %d's queues carry %v (GPU %v)", c.decoders, c.devices, left-1, k, u, g)
				}
			}
		}
		if c.decoders > queues && moves == 0 {
			t.Errorf("%d on %d devices: no decoder moved as streams ended", c.decoders, c.devices)
		}
	}
	// The case of docs/performance.md: 16 streams on one device, the five engines of two ended.
	users := [][]uint32{{3, 3, 0, 0, 0, 0, 0}}
	if d, from, to, partner, ok := rebalancePick(users); !ok || d != 0 || from != 0 || to != 2 || partner >= 0 {
		t.Errorf("queues carrying %v: move %d from %d to %d, partner %d (%v), want 0 from 0 to 2", users[0], d, from, to, partner, ok)
	}
	// Balanced over the GPU but two on one queue of each device: the devices swap one.
	users = [][]uint32{{2, 0}, {0, 2}}
	if d, from, to, partner, ok := rebalancePick(users); !ok || users[d][from] != 2 || users[d][to] != 0 || partner != 1-d {
		t.Errorf("queues carrying %v: move %d from %d to %d, partner %d (%v)", users, d, from, to, partner, ok)
	}
}

// TestFairPick: the decoder furthest behind on a more used queue swaps with the one furthest ahead
// on a less used queue once its lead passes the bound; decoders on equally used queues, or within
// the bound, never swap.
func TestFairPick(t *testing.T) {
	users := []uint32{3, 3, 2, 2, 2, 2, 2}
	queueOf := []uint32{0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6}
	done := make([]uint64, len(queueOf))
	for k := range done {
		done[k] = 100
	}
	done[4], done[9] = 90, 130 // behind on a queue of three, ahead on one of two
	if lo, hi, ok := fairPick(queueOf, done, users, 24); !ok || lo != 4 || hi != 9 {
		t.Errorf("lead 40: swap %d and %d (%v), want 4 and 9", lo, hi, ok)
	}
	if lo, hi, ok := fairPick(queueOf, done, users, 40); ok {
		t.Errorf("lead 40 within 40: swapped %d and %d", lo, hi)
	}
	done[4], done[9] = 130, 90 // ahead where it is crowded: nothing to mend
	if lo, hi, ok := fairPick(queueOf, done, users, 24); ok {
		t.Errorf("crowded decoder ahead: swapped %d and %d", lo, hi)
	}
	even := []uint32{1, 1, 1, 1, 1, 1, 1}
	if lo, hi, ok := fairPick([]uint32{0, 1, 2, 3, 4, 5, 6}, []uint64{0, 500, 0, 0, 0, 0, 0}, even, 24); ok {
		t.Errorf("one decoder a queue: swapped %d and %d", lo, hi)
	}
}

// TestFairStreamsEndTogether runs 16 streams of 5,400 pictures over 7 queues as an H200 decodes
// them (a queue of u streams decodes 1,040, 1,340 or 1,725 pictures/s in all, shared evenly:
// docs/performance.md, "Live walls"), each looking every 8 decodings as hw.c's fair does: the last
// stream ends within 3 % of the first (without swaps: 16 %, the slow ones at 575 pictures/s
// against 670).
func TestFairStreamsEndTogether(t *testing.T) {
	const streams, queues, total, every, lead = 16, 7, 5400, 8, 24
	rate := []float64{0, 1040, 1340, 1725}
	users := make([]uint32, queues)
	queueOf := make([]uint32, streams)
	for k := range queueOf {
		q := pickDecodeQueue(users, users)
		queueOf[k] = uint32(q)
		users[q]++
	}
	done := make([]uint64, streams)
	owed := make([]float64, streams)
	ended := make([]float64, streams)
	swaps := 0
	for ms := 1; slices.Contains(ended, 0); ms++ {
		for k := range done {
			if ended[k] > 0 {
				continue
			}
			u := users[queueOf[k]]
			owed[k] += rate[min(u, 3)] / float64(u) / 1000
			for ; owed[k] >= 1 && done[k] < total; owed[k]-- {
				if done[k]++; done[k]%every != 0 {
					continue
				}
				if lo, hi, ok := fairPick(queueOf, done, users, lead); ok {
					queueOf[lo], queueOf[hi] = queueOf[hi], queueOf[lo]
					swaps++
				}
			}
			if done[k] == total {
				ended[k] = float64(ms)
			}
		}
	}
	first, last := slices.Min(ended), slices.Max(ended)
	if last > 1.03*first || swaps == 0 {
		t.Errorf("streams ended from %.0f to %.0f ms (%.3fx), %d swaps", first, last, last/first, swaps)
	}
}

// TestMoveStays: a moved decoder keeps submitting to its old queue until its decodings there are
// done, so that its wait on the new queue holds nothing up, and goes after 8 batches whatever; an
// unmoved one stays where it is.
func TestMoveStays(t *testing.T) {
	for _, c := range []struct {
		moved, done bool
		deferred    uint32
		stays       bool
	}{
		{true, false, 0, true},
		{true, false, 7, true},
		{true, false, 8, false},
		{true, true, 0, false},
		{true, true, 3, false},
		{false, false, 0, false},
	} {
		if got := moveStays(c.moved, c.done, c.deferred); got != c.stays {
			t.Errorf("moved %v, done %v, %d batches since: stays %v, want %v", c.moved, c.done, c.deferred, got, c.stays)
		}
	}
}

// TestMovedDecoderSubmits runs a decoder through hw.c's vkQueueSubmit2 wrapper on a made-up
// device: moved while its last decoding is in flight, it keeps submitting to its old queue, then
// goes once its timeline reads its last value, its first batch there waiting on that value (already
// reached); never done, it goes after 8 batches, waiting on its last value on the GPU.
func TestMovedDecoderSubmits(t *testing.T) {
	type step struct {
		op    string
		arg   uint64 // the timeline's reading, or the queue moved to
		queue int
		wait  uint64 // the wait on the decoder's timeline (0: none)
	}
	steps := []step{
		{"submit", 0, 0, 0}, // the decoder's first batch: queue 0, value 1
		{"move", 3, -1, 0},
		{"submit", 0, 0, 0}, // 1 in flight: stays (value 2)
		{"submit", 2, 3, 2}, // done: goes, waiting on 2 (value 3)
		{"submit", 2, 3, 0}, // value 4
		{"move", 5, -1, 0},
	}
	for range 8 { // never done: values 5 to 12 stay on queue 3
		steps = append(steps, step{"submit", 3, 3, 0})
	}
	steps = append(steps, step{"submit", 3, 5, 12}, step{"submit", 13, 5, 0})
	var ops []string
	var args []uint64
	for _, s := range steps {
		ops, args = append(ops, s.op), append(args, s.arg)
	}
	got, ok := moveSim(ops, args)
	if !ok {
		t.Fatal("the simulated device or decoder could not be made")
	}
	for k, s := range steps {
		want := simBatch{s.queue, s.wait > 0, s.wait}
		if got[k] != want {
			t.Errorf("step %d (%s %d): batch on queue %d, waited %v for %d; want queue %d, waited %v for %d",
				k, s.op, s.arg, got[k].Queue, got[k].Waited, got[k].Value, want.Queue, want.Waited, want.Value)
		}
	}
}

// TestDecodeQueriesHidden: FFmpeg, reading the queue families through the toolkit's
// vkGetInstanceProcAddr, finds no result status queries, though the driver offers them: it then
// records none and does not spin on each decoding's (hw.c, wrap_qf_props2; not with
// YCBCRKIT_DECODE_QUERY=1 set).
func TestDecodeQueriesHidden(t *testing.T) {
	got, ok := querySim()
	if !ok {
		t.Fatal("the queue families could not be read through the wrapper")
	}
	if got[0] || got[1] {
		t.Errorf("result status queries offered to FFmpeg: %v, want none", got)
	}
}

// TestReadsUnsignalled: a decoder on one of hw.c's vqueues, whose decodings run in submission
// order, is asked to leave its references' semaphores alone (scripts/ffmpeg-patches/0008); one that
// is not keeps FFmpeg's signals, the flag cleared if an earlier sequence had it; the other
// hwaccel_flags stay as they were.
func TestReadsUnsignalled(t *testing.T) {
	const ignoreLevel = 1 // AV_HWACCEL_FLAG_IGNORE_LEVEL, FFmpeg's default
	_, f := readsSim(false, 0)
	for _, tc := range []struct {
		queued   bool
		in, want int
	}{{true, ignoreLevel, ignoreLevel | f}, {false, ignoreLevel | f, ignoreLevel}, {false, ignoreLevel, ignoreLevel}} {
		if got, _ := readsSim(tc.queued, tc.in); got != tc.want {
			t.Errorf("queued %v, hwaccel_flags %#x: left %#x, want %#x", tc.queued, tc.in, got, tc.want)
		}
	}
}

// TestLiveEntry: a registration takes a device's entry in hw.c only if the entry came from the same
// instance and vkCreateImage: an entry left by a destroyed device whose handle came back, maybe with
// its ICD unloaded since, is replaced, not counted again with its stale pointers.
func TestLiveEntry(t *testing.T) {
	if !liveEntrySim() {
		t.Fatal("an entry from another instance or another vkCreateImage was taken as the device's")
	}
}

// TestDecodeWaitsDropped: a decoding recorded after its barrier went through hw.c's wrapper (which
// appends a memory barrier from video decode writes to video decode reads and writes) drops the
// waits on values its decoder's own batches signalled on the same queue, and only those: another
// queue's, a value not signalled there, a batch without that barrier, a batch of another command
// buffer and the first batch after a move keep theirs.
func TestDecodeWaitsDropped(t *testing.T) {
	type w = [2]uint64
	ops := []waitsOp{
		{Op: "decode barrier", CB: 1},
		{Op: "submit", CB: 1, Signals: []w{{1, 1}, {2, 1}}},
		{Op: "decode barrier", CB: 2},
		{Op: "submit", CB: 2, Waits: []w{{1, 1}, {3, 7}, {2, 2}}, Signals: []w{{2, 2}}},
		{Op: "other barrier", CB: 3},
		{Op: "submit", CB: 3, Waits: []w{{1, 1}}},
		{Op: "decode barrier", CB: 4},
		{Op: "submit", CB: 5, Waits: []w{{1, 1}}},
		{Op: "decode barrier", CB: 6},
		{Op: "submit", CB: 6, Waits: []w{{1, 1}, {2, 2}}, Signals: []w{{4, 1}}},
		{Op: "move", CB: 3},
		{Op: "decode barrier", CB: 7},
		{Op: "submit", CB: 7, Waits: []w{{4, 1}}, Signals: []w{{5, 3}}},
		{Op: "decode barrier", CB: 8},
		{Op: "submit", CB: 8, Waits: []w{{5, 3}, {4, 1}}},
	}
	want := []waitsResult{
		{Mem: 1}, {Mem: -1},
		{Mem: 1}, {Mem: -1, Kept: 0b110},
		{Mem: 0}, {Mem: -1, Kept: 0b1},
		{Mem: 1}, {Mem: -1, Kept: 0b1},
		{Mem: 1}, {Mem: -1, Kept: 0},
		{Mem: -1},
		{Mem: 1}, {Mem: -1, Kept: 0b1, Own: true},
		{Mem: 1}, {Mem: -1, Kept: 0b10},
	}
	got, ok := waitsSim(ops)
	if !ok {
		t.Fatal("the simulated device or decoder could not be made")
	}
	for k := range ops {
		if got[k] != want[k] {
			t.Errorf("step %d (%s, command buffer %d, waits %v): driver got %+v, want %+v", k, ops[k].Op, ops[k].CB,
				ops[k].Waits, got[k], want[k])
		}
	}
}

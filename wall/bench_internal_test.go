package wall

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/gpu"
)

// BenchmarkTimedStep times the display step of two walls side by side in each iteration, one
// recording on the step's goroutine (Workers 1) and one on its workers (Workers 0: one a tile, at
// most GOMAXPROCS), each of 8 software-decoded 160×90 clips played on made-up step times, one new
// picture a tile a step, every queue full and every slot free before the step (outside the timer).
// Per picture drawn: serial-ns and parallel-ns, the step's wall-clock time; serial-cpu-ns and
// parallel-cpu-ns, the process's CPU time during the step (the workers', the driver's, and the
// decoders' as they refill their queues); gain is serial-ns/parallel-ns; serial-allocs the Go
// allocations and serial-cgo-calls the calls into C during the serial step (the decoders' included). Without validation: it
// measures the toolkit's CPU cost, which the validation layer's checks would swamp.
//
//	go test -run '^$' -bench BenchmarkTimedStep -benchtime 100x ./wall/
func BenchmarkTimedStep(b *testing.B) {
	const tiles, period = 8, time.Second / 30
	dev, err := gpu.Open(gpu.Options{Index: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(dev.Close)
	clips := feedClips(b, []string{"testsrc2", "testsrc", "smptehdbars", "rgbtestsrc"}, 160, 90, 60)
	var in []Input
	for i := range tiles {
		in = append(in, Input{URL: clips[i%len(clips)]})
	}
	var walls [2]*Wall
	for i, workers := range []int{1, 0} {
		w, err := Open(dev, in, Options{Workers: workers, Loop: 1 << 20, Period: period})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(w.Close) // before the device's, registered earlier
		walls[i] = w
	}
	var ns, cpu [2]time.Duration
	var pics, allocs, cgo [2]int
	var ms runtime.MemStats
	t0 := time.Now()
	step := func(i, k int) int {
		w := walls[i]
		b.StopTimer()
		full(b, w)
		for _, t := range w.tiles {
			if err := t.st.Ring.Drain(); err != nil {
				b.Fatal(err)
			}
		}
		runtime.ReadMemStats(&ms)
		m, calls := ms.Mallocs, runtime.NumCgoCall()
		b.StartTimer()
		c, at := cpuTime(), time.Now()
		n, err := w.Tick(t0.Add(time.Duration(k) * period))
		if err != nil {
			b.Fatal(err)
		}
		ns[i] += time.Since(at)
		cpu[i] += cpuTime() - c
		b.StopTimer()
		cgo[i] += int(runtime.NumCgoCall() - calls)
		runtime.ReadMemStats(&ms)
		allocs[i] += int(ms.Mallocs - m)
		b.StartTimer()
		return n
	}
	for k := range 3 { // the first draws make pipelines; the clocks start at them
		step(0, k)
		step(1, k)
	}
	ns, cpu, allocs, cgo = [2]time.Duration{}, [2]time.Duration{}, [2]int{}, [2]int{}
	b.ResetTimer()
	for k := range b.N {
		for i := range walls {
			pics[i] += step(i, k+3)
		}
	}
	b.StopTimer()
	if pics[0] == 0 || pics[1] == 0 {
		b.Fatalf("%d and %d pictures drawn", pics[0], pics[1])
	}
	per := func(d time.Duration, n int) float64 { return float64(d.Nanoseconds()) / float64(n) }
	b.ReportMetric(per(ns[0], pics[0]), "serial-ns/pic")
	b.ReportMetric(per(ns[1], pics[1]), "parallel-ns/pic")
	b.ReportMetric(per(cpu[0], pics[0]), "serial-cpu-ns/pic")
	b.ReportMetric(per(cpu[1], pics[1]), "parallel-cpu-ns/pic")
	b.ReportMetric(per(ns[0], pics[0])/per(ns[1], pics[1]), "gain")
	b.ReportMetric(float64(allocs[0])/float64(pics[0]), "serial-allocs/pic")
	b.ReportMetric(float64(cgo[0])/float64(pics[0]), "serial-cgo-calls/pic")
	b.ReportMetric(float64(pics[0]+pics[1])/float64(2*b.N), "pics/step")
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

package wall

import (
	"math"
	"runtime/metrics"
)

// runtimeSpreads reads Go's scheduler latency (how long goroutines waited, runnable, for a
// processor: a display step that stalls off the CPU with this low did not wait for the runtime)
// and its stop-the-world pauses since the process started, in milliseconds (runtime/metrics'
// histograms: each figure is its bucket's upper bound).
func runtimeSpreads() (sched, gc *Spread) {
	ss := []metrics.Sample{{Name: "/sched/latencies:seconds"}, {Name: "/sched/pauses/total/gc:seconds"}}
	metrics.Read(ss)
	out := make([]*Spread, len(ss))
	for i, s := range ss {
		if s.Value.Kind() == metrics.KindFloat64Histogram {
			out[i] = histSpread(s.Value.Float64Histogram())
		}
	}
	return out[0], out[1]
}

// histSpread is h's median, 99th percentile and largest value in milliseconds; nil when empty.
func histSpread(h *metrics.Float64Histogram) *Spread {
	var n uint64
	for _, c := range h.Counts {
		n += c
	}
	if n == 0 {
		return nil
	}
	bound := func(i int) float64 { // bucket i's upper bound, its lower one for the last (+Inf)
		if b := h.Buckets[i+1]; !math.IsInf(b, 1) {
			return b * 1e3
		}
		return h.Buckets[i] * 1e3
	}
	at := func(q float64) float64 {
		want, sum := uint64(math.Ceil(q*float64(n))), uint64(0)
		for i, c := range h.Counts {
			if sum += c; sum >= want {
				return bound(i)
			}
		}
		return bound(len(h.Counts) - 1)
	}
	s := &Spread{P50: at(0.5), P99: at(0.99)}
	for i := len(h.Counts) - 1; i >= 0; i-- {
		if h.Counts[i] > 0 {
			s.Max = bound(i)
			break
		}
	}
	return s
}

package bench

import (
	"math"
	"slices"
)

// Stats summarises a set of samples (milliseconds). The median is the figure to quote: single
// intervals on a shared machine have a long upper tail, and p10/p90 show how wide the spread is.
type Stats struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	P10    float64 `json:"p10"`
	P90    float64 `json:"p90"`
	Mean   float64 `json:"mean"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// summarize computes Stats of xs (which it sorts in place).
func summarize(xs []float64) Stats {
	if len(xs) == 0 {
		return Stats{}
	}
	slices.Sort(xs)
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return Stats{N: len(xs), Median: quantile(xs, 0.5), P10: quantile(xs, 0.1), P90: quantile(xs, 0.9),
		Mean: sum / float64(len(xs)), Min: xs[0], Max: xs[len(xs)-1]}
}

// quantile interpolates linearly between the order statistics of sorted xs.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 1 {
		return sorted[0]
	}
	pos := q * float64(len(sorted)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(sorted)-1)
	return sorted[lo] + (pos-float64(lo))*(sorted[hi]-sorted[lo])
}

// ratio is a/b, or 0 where b is not positive: JSON cannot carry NaN or Inf, and a zero reads as
// "not measured" in the table.
func ratio(a, b float64) float64 {
	if b <= 0 || math.IsNaN(a) || math.IsInf(a, 0) {
		return 0
	}
	return a / b
}

// gbps is bytes moved in ms milliseconds, in GB/s (10^9 bytes per second, as bandwidths are quoted).
func gbps(bytes int64, ms float64) float64 { return ratio(float64(bytes)/1e6, ms) }

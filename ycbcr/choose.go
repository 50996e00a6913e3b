package ycbcr

import (
	"fmt"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
)

// Decision is a stream's path and why it was taken.
type Decision struct {
	Path   formats.Path
	Reason string
	// Key is the sampler conversion (set when Path is PathSampler).
	Key Key
	// SamplerErr says why the device's sampler cannot express the stream (nil when it can); the
	// shader path was chosen, or asked for, regardless.
	SamplerErr error
}

// Choose decides the path of a pf stream with p on dev for choice: the toolkit's one path choice.
// Asking for the sampler on a stream its sampler cannot express is an error naming the reason.
func Choose(dev *gpu.Device, pf *formats.PixelFormat, p Params, choice formats.Choice) (Decision, error) {
	k, kerr := SamplerKey(dev, pf, p)
	d := Decision{SamplerErr: kerr}
	switch choice {
	case formats.ChooseSampler:
		if kerr != nil {
			return d, fmt.Errorf("ycbcr: the sampler path was asked for, but the device's sampler cannot express %s %s: %w", pf.Name, p, kerr)
		}
		d.Path, d.Key, d.Reason = formats.PathSampler, k, "asked for"
	case formats.ChooseShader:
		d.Path, d.Reason = formats.PathShader, "asked for"
	default:
		if kerr != nil {
			d.Path, d.Reason = formats.PathShader, "the Y′CbCr sampler cannot express it: "+kerr.Error()
		} else {
			d.Path, d.Key, d.Reason = formats.PathSampler, k, "the Y′CbCr sampler expresses it exactly"
		}
	}
	return d, nil
}

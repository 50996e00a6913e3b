package formats

import "fmt"

// Path is how a picture becomes R′G′B′, the one path type of the toolkit: the table above gives each
// layout its data for both (VkFormat and SamplerShift for the sampler, Textures and the shader
// parameters for the shader).
type Path uint8

const (
	// PathSampler samples a multi-planar image through a VkSamplerYcbcrConversion folded into an
	// immutable sampler (Vulkan spec, "Sampler Y′CbCr Conversion").
	PathSampler Path = iota
	// PathShader samples one plain texture per plane and converts in the shader.
	PathShader
)

func (p Path) String() string {
	if p == PathShader {
		return "shader"
	}
	return "sampler"
}

// Choice is what a user or engine asks for: a path, or the sampler wherever it is exact.
type Choice uint8

const (
	// ChooseAuto takes the sampler path when the device's sampler expresses the stream exactly,
	// the shader path otherwise. It is the zero value.
	ChooseAuto Choice = iota
	ChooseSampler
	ChooseShader
)

// ParseChoice reads the -path flag's words.
func ParseChoice(s string) (Choice, error) {
	switch s {
	case "auto":
		return ChooseAuto, nil
	case "sampler":
		return ChooseSampler, nil
	case "shader":
		return ChooseShader, nil
	}
	return 0, fmt.Errorf("bad -path %q: auto, sampler or shader", s)
}

func (c Choice) String() string { return [...]string{"auto", "sampler", "shader"}[c] }

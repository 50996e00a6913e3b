package vkx

import (
	"encoding/binary"
	"testing"

	vk "github.com/vulkan-go/vulkan"
)

// TestConversionCreateInfoCopy: CreateConversion's C struct carries each field of
// ConversionCreateInfo in the member of its name and nothing else. Every field gets a value no other
// field has, and the struct is read back by vk.xml's member order (offsets on a 64-bit platform), so
// a swapped pair of members fails here without a device.
func TestConversionCreateInfoCopy(t *testing.T) {
	ci := ConversionCreateInfo{Format: 1000156003, Model: 11, Range: 12,
		Components: [4]vk.ComponentSwizzle{13, 14, 15, 16}, XChromaOffset: 17, YChromaOffset: 18, ChromaFilter: 19,
		ForceExplicitReconstruction: true}
	b := ConversionCreateInfoBytes(ci)
	if len(b) != 64 {
		t.Fatalf("%d bytes, want 64", len(b))
	}
	u := func(off int) uint32 { return binary.NativeEndian.Uint32(b[off:]) }
	for _, m := range []struct {
		name      string
		off       int
		got, want uint32
	}{
		{"sType", 0, u(0), 1000156000}, {"format", 16, u(16), 1000156003}, {"ycbcrModel", 20, u(20), 11},
		{"ycbcrRange", 24, u(24), 12}, {"components.r", 28, u(28), 13}, {"components.g", 32, u(32), 14},
		{"components.b", 36, u(36), 15}, {"components.a", 40, u(40), 16}, {"xChromaOffset", 44, u(44), 17},
		{"yChromaOffset", 48, u(48), 18}, {"chromaFilter", 52, u(52), 19}, {"forceExplicitReconstruction", 56, u(56), 1},
	} {
		if m.got != m.want {
			t.Errorf("%s (offset %d) = %d, want %d", m.name, m.off, m.got, m.want)
		}
	}
	if p := binary.NativeEndian.Uint64(b[8:]); p != 0 {
		t.Errorf("pNext = %#x, want NULL", p)
	}
}

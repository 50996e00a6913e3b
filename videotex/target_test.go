package videotex_test

import (
	"encoding/binary"
	"math"
	"os/exec"
	"path/filepath"
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/oracletest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/videotex"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// TestTarget draws the first picture of a PQ BT.2020 clip (4:4:4 10-bit, made by Debian's ffmpeg
// with x265) through docs/engine.md's listing for each target offered (Options.Target: SDR, the
// default tone curve; HDR10), and of the bundled SDR clip for HDR10 (SDR on SDR is
// TestVectorsThroughListing's), and compares what the engine drew with the
// CPU oracle's picture (ycbcr/oracle: BT.2390's EETF and the BT.709 OETF, or the display light
// PQ-encoded in BT.2020) of the same codes, decoded apart: within 1/255 at every pixel. Frames say
// whether they were converted (FrameInfo.ToTarget).
func TestTarget(t *testing.T) {
	dev := testDevice(t)
	pq := filepath.Join(t.TempDir(), "pq.mkv")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25", "-frames:v", "1",
		"-pix_fmt", "yuv444p10le", "-c:v", "libx265", "-x265-params",
		"log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:"+
			"master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50):max-cll=1000,400",
		pq).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, out)
	}
	sdr := defaultClip(t)
	for _, c := range []struct {
		name, clip string
		target     videotex.Target
		converted  bool
	}{
		{"PQ on SDR", pq, videotex.Target{}, true},
		{"PQ on HDR10", pq, videotex.Target{Output: ycbcr.OutputHDR10}, true},
		{"SDR on HDR10", sdr, videotex.Target{Output: ycbcr.OutputHDR10}, true},
	} {
		o := oracletest.First(t, c.clip, func(p *ycbcr.Params) { p.Output, p.Tone = c.target.Output, c.target.Tone })
		want, p, w, h := o.Want, o.Params, o.Width, o.Height

		e := newTestEngine(t, dev, w, h)
		e.readback = true
		toTarget := false
		opts := videotex.Options{Target: c.target}
		err := playVideo(engineDevice(dev), c.clip, opts, 1, e, func(tex *videotex.Texture) (*videotex.Frame, error) {
			f, err := step(tex)
			if err == nil {
				toTarget = f.ToTarget
			}
			return f, err
		})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		vktest.Check(t, dev)
		got := e.Picture()
		worst, at := 0.0, 0
		for i, v := range want {
			for k := 0; k < 3; k++ {
				g := float64(got.Pix[got.PixOffset(i%w, i/w)+k])
				if d := math.Abs(g - math.Min(math.Max(v[k], 0), 1)*255); d > worst {
					worst, at = d, i
				}
			}
		}
		t.Logf("%s (%s): %.2f LSB from the oracle", c.name, p, worst)
		if worst > 1 {
			t.Errorf("%s: %.2f LSB from the oracle at pixel (%d, %d)", c.name, worst, at%w, at/w)
		}
		if toTarget != c.converted {
			t.Errorf("%s: FrameInfo.ToTarget %v, want %v", c.name, toTarget, c.converted)
		}
	}
	for _, c := range []struct {
		name, clip string
		white      float64
	}{{"SDR on extended-linear", sdr, 0}, {"PQ on extended-linear", pq, 0}, {"PQ on extended-linear, white 203", pq, 203}} {
		extendedLinear(t, dev, c.name, c.clip, videotex.Target{Output: ycbcr.OutputExtendedLinear, White: c.white})
	}
}

// extendedLinearTolerance bounds |texture − oracle| in linear light (1.0 = 80 cd/m²), relative to
// max(|oracle|, 1): float16 holds 11 significant bits (half an ulp: 2⁻¹¹ relative), and the shader's
// float32 pow in the steep PQ EOTF adds a few times that.
const extendedLinearTolerance = 1.0 / 512

// extendedLinear checks tg (ycbcr.OutputExtendedLinear) on clip's first picture: the frame's
// texture, copied out (float16), against the CPU oracle's display light in BT.709 over the target's
// white (oracle.Tone.ExtendedLinear; SDR by BT.1886 with white there), at every pixel within
// extendedLinearTolerance. A PQ clip must keep light above 1.0 and colours outside BT.709 (below
// 0); an SDR clip stays within 0..1.
func extendedLinear(t *testing.T, dev *gpu.Device, name, clip string, tg videotex.Target) {
	o := oracletest.First(t, clip, func(p *ycbcr.Params) { p.Output, p.LinearWhite = tg.Output, tg.White })
	want, p := o.Want, o.Params
	hdr := p.Transfer.Kind() == formats.TransferPQ

	tex, err := videotex.Open(engineDevice(dev), clip, videotex.Options{Target: tg})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer tex.Close()
	f, err := step(tex)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !f.ToTarget || f.Path != formats.PathShader {
		t.Errorf("%s: ToTarget %v, path %s: want true, shader", name, f.ToTarget, f.Path)
	}
	got := readFloat16(t, dev, f)
	vktest.Check(t, dev)
	worst, at, lo, hi := 0.0, 0, math.Inf(1), math.Inf(-1)
	for i, v := range want {
		for k := 0; k < 3; k++ {
			g := got[i][k]
			lo, hi = math.Min(lo, g), math.Max(hi, g)
			if e := math.Abs(g-v[k]) / math.Max(math.Abs(v[k]), 1); e > worst || math.IsNaN(e) {
				worst, at = e, i
			}
		}
	}
	w := f.Width
	t.Logf("%s (%s): %.2g from the oracle (relative, linear light); values %.3f..%.3f", name, p, worst, lo, hi)
	if !(worst <= extendedLinearTolerance) {
		t.Errorf("%s: %.3g from the oracle at pixel (%d, %d): %v, want %v", name, worst, at%w, at/w, got[at], want[at])
	}
	if hdr && !(hi > 1 && lo < 0) {
		t.Errorf("%s: values %.3f..%.3f: want light above 1.0 and colours outside BT.709 below 0", name, lo, hi)
	}
	if !hdr && !(hi <= 1+extendedLinearTolerance && lo >= -extendedLinearTolerance) {
		t.Errorf("%s: values %.3f..%.3f: an SDR BT.709 clip stays within 0..1", name, lo, hi)
	}
}

// readFloat16 copies f's image (R16G16B16A16_SFLOAT, in f.Layout) out after f.Wait, gives f back,
// and returns each pixel's R, G, B.
func readFloat16(t *testing.T, dev *gpu.Device, f *videotex.Frame) [][3]float64 {
	t.Helper()
	w, h := f.Width, f.Height
	buf, err := dev.NewBuffer(w*h*8, vk.BufferUsageTransferDstBit, vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Destroy()
	cb, err := dev.NewCommandBuffer()
	if err != nil {
		t.Fatal(err)
	}
	defer dev.FreeCommandBuffer(cb)
	fence, err := dev.NewFence(false)
	if err != nil {
		t.Fatal(err)
	}
	defer vk.DestroyFence(dev.Device, fence, nil)
	if err := gpu.Begin(cb); err != nil {
		t.Fatal(err)
	}
	transfer := vk.PipelineStageFlags(vk.PipelineStageTransferBit)
	vkx.CmdImageBarrier(cb, vkx.ImageBarrier{Image: f.Image, From: f.Layout, To: vk.ImageLayoutTransferSrcOptimal,
		DstAccess: vk.AccessFlags(vk.AccessTransferReadBit), SrcStage: transfer, DstStage: transfer,
		SrcFamily: vk.QueueFamilyIgnored, DstFamily: vk.QueueFamilyIgnored})
	vkx.CmdCopyImageToBuffer(cb, f.Image, vk.ImageLayoutTransferSrcOptimal, buf.Handle, w, h)
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit, vk.PipelineStageHostBit, vk.AccessHostReadBit)
	vkx.CmdImageBarrier(cb, vkx.ImageBarrier{Image: f.Image, From: vk.ImageLayoutTransferSrcOptimal, To: f.Layout,
		SrcStage: transfer, DstStage: vk.PipelineStageFlags(vk.PipelineStageBottomOfPipeBit),
		SrcFamily: vk.QueueFamilyIgnored, DstFamily: vk.QueueFamilyIgnored})
	if err := vkx.Check(vk.EndCommandBuffer(cb), "vkEndCommandBuffer"); err != nil {
		t.Fatal(err)
	}
	if err := vkx.QueueSubmit(dev.Queue, cb, f.Wait, transfer, vk.NullSemaphore, fence); err != nil {
		t.Fatal(err)
	}
	if err := dev.WaitFence(fence); err != nil {
		t.Fatal(err)
	}
	f.Done()
	b := buf.Bytes()
	out := make([][3]float64, w*h)
	for i := range out {
		for k := range 3 {
			out[i][k] = halfFloat(binary.LittleEndian.Uint16(b[8*i+2*k:]))
		}
	}
	return out
}

// halfFloat is IEEE 754 binary16 h as a float64.
func halfFloat(h uint16) float64 {
	sign, exp, frac := 1.0, int(h>>10&0x1f), float64(h&0x3ff)
	if h&0x8000 != 0 {
		sign = -1
	}
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 31:
		if frac != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * math.Ldexp(1024+frac, exp-25)
}

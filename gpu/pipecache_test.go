package gpu

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"os"
	"strings"
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// makeShiftPipeline creates the GPU shift's compute pipeline (any real shader would do) through
// d's pipeline cache, and returns the cache's size before and after.
func makeShiftPipeline(t *testing.T, d *Device) (before, after int) {
	t.Helper()
	data, err := vkx.PipelineCacheData(d.Device, d.PipelineCache())
	if err != nil {
		t.Fatal(err)
	}
	before = len(data)
	kit, err := d.NewKit(KitDesc{Name: "shift", Bindings: StorageBuffers(4), PushStages: vk.ShaderStageComputeBit,
		PushBytes: shaders.ShiftParamsSize, Shaders: []Shader{{Kind: Compute, Code: shaders.ShiftComp}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kit.Pipeline(0, vk.NullRenderPass, 0, nil); err != nil {
		t.Fatal(err)
	}
	kit.Destroy()
	if data, err = vkx.PipelineCacheData(d.Device, d.PipelineCache()); err != nil {
		t.Fatal(err)
	}
	return before, len(data)
}

func openCached(t *testing.T, dir string) *Device {
	t.Helper()
	d, err := Open(Options{Index: -1, Validation: true, CacheDir: dir})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return d
}

// openValidated opens the test device with validation on; at the test's end it closes it and
// fails the test with each validation message.
func openValidated(t *testing.T) *Device {
	t.Helper()
	d, err := Open(Options{Index: -1, Validation: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.Close()
		for _, m := range d.ValidationMessages() {
			t.Errorf("validation %s", m.Text)
		}
	})
	return d
}

func closeChecked(t *testing.T, d *Device) {
	t.Helper()
	d.Close()
	if msgs := vkx.Messages(); len(msgs) > 0 {
		t.Fatalf("validation: %v", msgs)
	}
}

// TestPipelineCachePersists: a device's pipeline cache is written to the cache file at Close (with
// the header the driver wrote, naming this device); the next Open seeds its cache with the whole
// file. Where the driver keeps pipelines in its cache (NVIDIA does), making the same pipeline again
// adds nothing to the seeded cache: the driver found it there. lavapipe's cache holds only its
// header (Mesa's lvp_GetPipelineCacheData writes nothing else), so there the file is that header.
// A damaged file and one made by another driver are ignored without an error.
func TestPipelineCachePersists(t *testing.T) {
	dir := t.TempDir()
	d := openCached(t, dir)
	if d.PipelineCacheState.SeedBytes != 0 || d.PipelineCacheState.Note != "no file yet" {
		t.Fatalf("first open: %+v", d.PipelineCacheState)
	}
	before, after := makeShiftPipeline(t, d)
	if before < pipelineCacheHeaderSize || after < before {
		t.Fatalf("empty cache: %d bytes, %d after a pipeline; want the header at least, and no shrinking", before, after)
	}
	stores := after > before
	t.Logf("%s: cache %d bytes before the pipeline, %d after (the driver stores pipelines: %v)", d.Info.Name, before, after, stores)
	file := d.PipelineCacheState.File
	closeChecked(t, d)
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no cache file written: %v", err)
	}
	if !bytes.HasPrefix(raw, fileMagic[:]) || len(raw) != fileHeader+after {
		t.Fatalf("cache file of %d bytes, want %d of payload after the header", len(raw), after)
	}

	d = openCached(t, dir)
	if d.PipelineCacheState.SeedBytes != after || d.PipelineCacheState.Note != "" {
		t.Fatalf("second open: %+v, want %d bytes seeded", d.PipelineCacheState, after)
	}
	b2, a2 := makeShiftPipeline(t, d)
	if b2 != after {
		t.Fatalf("seeded cache holds %d bytes, want the %d the file had", b2, after)
	}
	if stores && a2 != b2 {
		t.Fatalf("seeded cache grew %d → %d bytes with a pipeline it held: not a hit", b2, a2)
	}
	closeChecked(t, d)

	// Damaged: one payload byte flipped. The checksum catches it; the cache starts empty.
	bad := append([]byte(nil), raw...)
	bad[len(bad)-1] ^= 0xff
	if err := os.WriteFile(file, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	d = openCached(t, dir)
	if st := d.PipelineCacheState; st.SeedBytes != 0 || st.Note != "checksum mismatch" {
		t.Fatalf("damaged file: %+v", st)
	}
	closeChecked(t, d)

	// Foreign: a whole file whose header names another pipelineCacheUUID (another driver build).
	payload := append([]byte(nil), raw[fileHeader:]...)
	payload[16] ^= 0xff
	if err := writePipelineCache(file, payload); err != nil {
		t.Fatal(err)
	}
	d = openCached(t, dir)
	if st := d.PipelineCacheState; st.SeedBytes != 0 || !strings.Contains(st.Note, "another driver") {
		t.Fatalf("foreign file: %+v", st)
	}
	closeChecked(t, d)
}

// TestPipelineCacheHeader checks the header against VkPipelineCacheHeaderVersionOne's layout
// (Vulkan spec, "Pipeline Cache": five fields, least significant byte first).
func TestPipelineCacheHeader(t *testing.T) {
	id := Identity{VendorID: 0x10de, DeviceID: 0x2330, CacheUUID: [16]byte{1, 2, 3}}
	h := make([]byte, 40)
	binary.LittleEndian.PutUint32(h[0:], 32)
	binary.LittleEndian.PutUint32(h[4:], 1)
	binary.LittleEndian.PutUint32(h[8:], 0x10de)
	binary.LittleEndian.PutUint32(h[12:], 0x2330)
	copy(h[16:], id.CacheUUID[:])
	if err := checkPipelineCacheHeader(h, id); err != nil {
		t.Fatalf("valid header: %v", err)
	}
	for name, mutate := range map[string]func(b []byte){
		"size":    func(b []byte) { b[0] = 16 },
		"version": func(b []byte) { b[4] = 2 },
		"vendor":  func(b []byte) { b[8] = 0x02 },
		"device":  func(b []byte) { b[12] = 0 },
		"uuid":    func(b []byte) { b[31] = 9 },
	} {
		b := append([]byte(nil), h...)
		mutate(b)
		if err := checkPipelineCacheHeader(b, id); err == nil {
			t.Errorf("%s changed: accepted", name)
		}
	}
	if err := checkPipelineCacheHeader(h[:20], id); err == nil {
		t.Error("short header accepted")
	}
	// A file cut short is refused before its payload is looked at.
	dir := t.TempDir()
	f := dir + "/p.bin"
	if err := writePipelineCache(f, h); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(f)
	if sum := sha256.Sum256(h); !bytes.Equal(raw[16:fileHeader], sum[:]) {
		t.Fatal("checksum not written")
	}
	os.WriteFile(f, raw[:len(raw)-3], 0o644)
	if _, err := readPipelineCache(f, id); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("truncated file: %v", err)
	}
}

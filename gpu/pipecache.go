package gpu

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// DefaultCacheDir is where the programs keep what they learn about a device between runs (the
// pipeline cache, the conversion variants measured): $XDG_CACHE_HOME/ycbcrkit, else
// ~/.cache/ycbcrkit (XDG Base Directory Specification), or "" when neither can be found.
func DefaultCacheDir() string {
	if d := os.Getenv("XDG_CACHE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "ycbcrkit")
	}
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		return filepath.Join(h, ".cache", "ycbcrkit")
	}
	return ""
}

// Identity is what a device's cached knowledge is keyed by: the pipeline cache header's fields
// (VkPipelineCacheHeaderVersionOne: vendorID, deviceID, pipelineCacheUUID) and the driver version.
// A driver that compiles differently changes its pipelineCacheUUID (Vulkan spec, "Pipeline Cache").
type Identity struct {
	VendorID, DeviceID, DriverVersion uint32
	CacheUUID                         [vk.UuidSize]byte
}

// String names the identity in file names and reasons.
func (id Identity) String() string {
	return fmt.Sprintf("%04x:%04x driver %#x cache %x", id.VendorID, id.DeviceID, id.DriverVersion, id.CacheUUID)
}

func identityOf(p *vk.PhysicalDeviceProperties) Identity {
	return Identity{VendorID: p.VendorID, DeviceID: p.DeviceID, DriverVersion: p.DriverVersion, CacheUUID: p.PipelineCacheUUID}
}

// PipelineCacheState says where the device's pipeline cache came from, for -stats.
type PipelineCacheState struct {
	// File is the cache file ("" when the cache lives in memory only).
	File string `json:"file,omitempty"`
	// SeedBytes is how many bytes of the file seeded the cache (0: it started empty).
	SeedBytes int `json:"seed_bytes"`
	// Note says why the file did not seed it (absent, corrupt, another device or driver).
	Note string `json:"note,omitempty"`
}

// The cache file: fileMagic, the payload's length (uint64, little-endian), its SHA-256, then the
// payload, which is vkGetPipelineCacheData's output. The checksum catches a torn or damaged file
// before the driver sees it: drivers check the header, but not all of them survive bad contents.
var fileMagic = [8]byte{'y', 'c', 'b', 'c', 'r', 'p', 'c', '1'}

const fileHeader = 8 + 8 + sha256.Size

// pipelineCacheHeaderSize is sizeof(VkPipelineCacheHeaderVersionOne); the spec writes its fields
// least significant byte first whatever the host's order.
const pipelineCacheHeaderSize = 32

func pipelineCacheFile(dir string, id Identity) string {
	return filepath.Join(dir, fmt.Sprintf("pipelines-%04x-%04x.bin", id.VendorID, id.DeviceID))
}

// readPipelineCache reads the payload of file if it is whole and made for id.
func readPipelineCache(file string, id Identity) ([]byte, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, errors.New("no file yet")
		}
		return nil, err
	}
	if len(b) < fileHeader || !bytes.Equal(b[:8], fileMagic[:]) {
		return nil, errors.New("not a pipeline cache file")
	}
	n := binary.LittleEndian.Uint64(b[8:16])
	payload := b[fileHeader:]
	if uint64(len(payload)) != n {
		return nil, fmt.Errorf("truncated (%d of %d bytes)", len(payload), n)
	}
	if sum := sha256.Sum256(payload); !bytes.Equal(sum[:], b[16:fileHeader]) {
		return nil, errors.New("checksum mismatch")
	}
	if err := checkPipelineCacheHeader(payload, id); err != nil {
		return nil, err
	}
	return payload, nil
}

// checkPipelineCacheHeader compares the payload's VkPipelineCacheHeaderVersionOne with the device.
func checkPipelineCacheHeader(p []byte, id Identity) error {
	le := binary.LittleEndian
	if len(p) < pipelineCacheHeaderSize {
		return fmt.Errorf("header of %d bytes", len(p))
	}
	if size := le.Uint32(p[0:]); size < pipelineCacheHeaderSize || int(size) > len(p) {
		return fmt.Errorf("header size %d", size)
	}
	if v := le.Uint32(p[4:]); v != uint32(vk.PipelineCacheHeaderVersionOne) {
		return fmt.Errorf("header version %d", v)
	}
	vendor, device := le.Uint32(p[8:]), le.Uint32(p[12:])
	if vendor != id.VendorID || device != id.DeviceID {
		return fmt.Errorf("made by device %04x:%04x", vendor, device)
	}
	if !bytes.Equal(p[16:32], id.CacheUUID[:]) {
		return errors.New("made by another driver (pipelineCacheUUID differs)")
	}
	return nil
}

// writePipelineCache writes payload to file atomically, with its checksum.
func writePipelineCache(file string, payload []byte) error {
	head := make([]byte, fileHeader)
	copy(head, fileMagic[:])
	binary.LittleEndian.PutUint64(head[8:], uint64(len(payload)))
	sum := sha256.Sum256(payload)
	copy(head[16:], sum[:])
	return writeAtomic(file, append(head, payload...))
}

// writeAtomic writes data to file through a temporary file in the same folder and a rename
// (rename(2) replaces the old file in one step, so a reader never sees half a file).
func writeAtomic(file string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".tmp*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// ReadCacheFile reads name from the device's cache folder (Options.CacheDir); with no folder it
// returns os.ErrNotExist.
func (d *Device) ReadCacheFile(name string) ([]byte, error) {
	if d.CacheDir == "" {
		return nil, os.ErrNotExist
	}
	return os.ReadFile(filepath.Join(d.CacheDir, name))
}

// WriteCacheFile replaces name in the device's cache folder atomically; with no folder it does
// nothing.
func (d *Device) WriteCacheFile(name string, data []byte) error {
	if d.CacheDir == "" {
		return nil
	}
	return writeAtomic(filepath.Join(d.CacheDir, name), data)
}

// openPipelineCache creates the device's pipeline cache, seeded from dir's file for this device
// when there is a valid one. A missing, damaged or foreign file is not an error: the cache starts
// empty and the state's Note says why.
func (d *Device) openPipelineCache(dir string) error {
	var seed []byte
	if dir != "" {
		d.PipelineCacheState.File = pipelineCacheFile(dir, d.Identity)
		var err error
		if seed, err = readPipelineCache(d.PipelineCacheState.File, d.Identity); err != nil {
			d.PipelineCacheState.Note = err.Error()
			seed = nil
		}
	}
	c, err := vkx.NewPipelineCache(d.Device, seed)
	if err != nil && seed != nil {
		// A driver may refuse data it cannot use rather than ignore it: start empty instead.
		d.PipelineCacheState.Note = fmt.Sprintf("the driver refused the file (%v)", err)
		seed = nil
		c, err = vkx.NewPipelineCache(d.Device, nil)
	}
	if err != nil {
		return fmt.Errorf("gpu: pipeline cache: %w", err)
	}
	d.pipelineCache, d.PipelineCacheState.SeedBytes = c, len(seed)
	d.seedSum = sha256.Sum256(seed)
	return nil
}

// closePipelineCache writes the cache back to its file when it changed, and destroys it. Failing to
// write loses only the next run's head start, so it is not reported.
func (d *Device) closePipelineCache() {
	if d.pipelineCache == vk.NullPipelineCache {
		return
	}
	if f := d.PipelineCacheState.File; f != "" {
		if data, err := vkx.PipelineCacheData(d.Device, d.pipelineCache); err == nil && len(data) > 0 &&
			sha256.Sum256(data) != d.seedSum && checkPipelineCacheHeader(data, d.Identity) == nil {
			writePipelineCache(f, data)
		}
	}
	vk.DestroyPipelineCache(d.Device, d.pipelineCache, nil)
	d.pipelineCache = vk.NullPipelineCache
}

// PipelineCache is the device's pipeline cache, which every pipeline the toolkit creates goes
// through (Options.CacheDir makes it outlive the process).
func (d *Device) PipelineCache() vk.PipelineCache { return d.pipelineCache }

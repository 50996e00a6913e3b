package bench

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// DeviceInfo names the device the numbers belong to.
type DeviceInfo struct {
	Index             int     `json:"index"`
	Name              string  `json:"name"`
	Type              string  `json:"type"`
	VendorID          string  `json:"vendor_id"`
	Driver            string  `json:"driver"`
	API               string  `json:"api"`
	TimestampPeriodNs float64 `json:"timestamp_period_ns"`
}

// HostInfo names the machine the CPU-side numbers (staging copy, memcpy) belong to.
type HostInfo struct {
	CPU   string `json:"cpu"`
	Cores int    `json:"cores"`
	Go    string `json:"go"`
}

const (
	vendorNVIDIA = 0x10de
	vendorIntel  = 0x8086
)

// driverVersion decodes VkPhysicalDeviceProperties.driverVersion, whose layout is the vendor's:
// NVIDIA packs 10.8.8.6 bits, Intel's Windows driver 18.14 bits, everyone else (Mesa included)
// uses VK_MAKE_VERSION.
func driverVersion(vendor, v uint32) string {
	switch {
	case vendor == vendorNVIDIA:
		return fmt.Sprintf("%d.%d.%02d", v>>22, (v>>14)&0xff, (v>>6)&0xff)
	case vendor == vendorIntel && runtime.GOOS == "windows":
		return fmt.Sprintf("%d.%d", v>>14, v&0x3fff)
	}
	return fmt.Sprintf("%d.%d.%d", v>>22, (v>>12)&0x3ff, v&0xfff)
}

func deviceInfo(d *gpu.Device) DeviceInfo {
	var p vk.PhysicalDeviceProperties
	vk.GetPhysicalDeviceProperties(d.Physical, &p)
	p.Deref()
	info := DeviceInfo{Index: d.Info.Index, Name: d.Info.Name, Type: d.Info.Type,
		VendorID: fmt.Sprintf("0x%04x", p.VendorID), Driver: driverVersion(p.VendorID, p.DriverVersion),
		API: d.Info.APIVersion, TimestampPeriodNs: float64(d.Limits.TimestampPeriod)}
	// driverInfo names what driverVersion cannot ("Mesa 25.0.7"). The instance asks for Vulkan 1.1,
	// so the 1.2 struct is used only through the extension the device advertises.
	if gpu.DeviceExtensions(d.Physical)["VK_KHR_driver_properties"] {
		if name, di := vkx.DriverProperties(d.Physical); name != "" || di != "" {
			info.Driver = strings.TrimSpace(name+" "+di) + " (driverVersion " + info.Driver + ")"
		}
	}
	return info
}

// hostInfo reads the CPU model from /proc/cpuinfo (Linux); elsewhere it says only the architecture.
func hostInfo() HostInfo {
	h := HostInfo{CPU: runtime.GOARCH, Cores: runtime.NumCPU(), Go: runtime.Version()}
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return h
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			h.CPU = strings.TrimSpace(v)
			break
		}
	}
	return h
}

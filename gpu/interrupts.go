package gpu

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// PCIAddress is the device's PCI function as Linux names it ("0000:00:06.0"), or "" where the
// device does not say (VK_EXT_pci_bus_info: NVIDIA's, AMD's and Intel's drivers offer it; a CPU
// device such as lavapipe has none).
func (d *Device) PCIAddress() string {
	if !DeviceExtensions(d.Physical)["VK_EXT_pci_bus_info"] {
		return ""
	}
	return vkx.PCIAddress(d.Physical)
}

// InterruptCPUs are the CPUs that take the device's interrupts now (Linux: the lines of
// /proc/interrupts that name its PCI address, each IRQ's /proc/irq/N/effective_affinity_list, or
// smp_affinity_list where the kernel has no effective list), in order; nil where that is unknown.
// An interrupt handler's time counts against whatever thread runs on its CPU: a thread that must
// keep up (a wall's display steps) does better elsewhere.
func (d *Device) InterruptCPUs() []int {
	pci := d.PCIAddress()
	if pci == "" {
		return nil
	}
	b, err := os.ReadFile("/proc/interrupts")
	if err != nil {
		return nil
	}
	cpus, err := interruptCPUs(string(b), pci, func(irq string) (string, error) {
		b, err := os.ReadFile("/proc/irq/" + irq + "/effective_affinity_list")
		if err != nil {
			b, err = os.ReadFile("/proc/irq/" + irq + "/smp_affinity_list")
		}
		return string(b), err
	})
	if err != nil {
		return nil
	}
	return cpus
}

// interruptCPUs reads which CPUs serve the IRQs whose /proc/interrupts line names pci (MSI and
// MSI-X lines do: "PCI-MSIX-0000:00:06.0 0-edge nvidia"), asking affinity for each IRQ's list. Only
// the IRQs that took at least 1 % of the device's interrupts count: a driver sets up vectors it
// hardly uses (NVIDIA's: one takes them all), each with CPUs of its own.
func interruptCPUs(procInterrupts, pci string, affinity func(irq string) (string, error)) ([]int, error) {
	type line struct {
		irq   string
		count uint64
	}
	var lines []line
	var total uint64
	for _, l := range strings.Split(procInterrupts, "\n") {
		irq, rest, ok := strings.Cut(l, ":")
		irq = strings.TrimSpace(irq)
		if !ok || irq == "" || strings.Trim(irq, "0123456789") != "" || !strings.Contains(rest, pci) {
			continue
		}
		var n uint64
		for _, f := range strings.Fields(rest) { // the counts per CPU, then the chip and the name
			c, err := strconv.ParseUint(f, 10, 64)
			if err != nil {
				break
			}
			n += c
		}
		lines, total = append(lines, line{irq, n}), total+n
	}
	set := map[int]bool{}
	for _, l := range lines {
		if l.count == 0 || l.count*100 < total {
			continue
		}
		list, err := affinity(l.irq)
		if err != nil {
			return nil, fmt.Errorf("gpu: IRQ %s's affinity: %w", l.irq, err)
		}
		cpus, err := parseCPUList(list)
		if err != nil {
			return nil, fmt.Errorf("gpu: IRQ %s's affinity: %w", l.irq, err)
		}
		for _, c := range cpus {
			set[c] = true
		}
	}
	out := make([]int, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	sort.Ints(out)
	return out, nil
}

// parseCPUList reads a Linux CPU list ("0-3,8,10-11"), in order.
func parseCPUList(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(strings.TrimSpace(s), ",") {
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b < a {
			return nil, fmt.Errorf("gpu: CPU list %q", s)
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out, nil
}

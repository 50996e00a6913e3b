package gpu

import (
	"errors"
	"reflect"
	"testing"
)

// procInterrupts is /proc/interrupts of the H200 machine (row cpus47, 16 CPUs, shortened to 4
// columns), with more MSI-X lines of the GPU (one with 1.1 % of its interrupts, two with less) and a
// device on the same bus beside it.
const procInterrupts = `           CPU0       CPU1       CPU2       CPU3
  31:          0          0          0         22  PCI-MSIX-0000:00:01.0   1-edge      virtio0-req.0
  42:          0          0          0      79306  PCI-MSIX-0000:00:06.0   0-edge      nvidia
  43:          0        900          0          0  PCI-MSIX-0000:00:06.0   1-edge      nvidia
  45:          0          0          0          0  PCI-MSIX-0000:00:06.0   2-edge      nvidia
  46:          0          0        700          0  PCI-MSIX-0000:00:06.0   3-edge      nvidia
  44:          9          0          0          0  PCI-MSIX-0000:00:06.1   0-edge      snd_hda_intel
 NMI:          0          0          0          0   Non-maskable interrupts
 LOC:       4312       5210       6309       4616   Local timer interrupts
 CAL:      21246      18033      20013      20035   Function call interrupts
`

// TestInterruptCPUs: the CPUs of every IRQ whose line names the GPU's PCI function and took at least
// 1 % of its interrupts, and no other's: not the vectors it hardly used, not the functions beside
// it, not the CPUs' own interrupts (LOC, CAL).
func TestInterruptCPUs(t *testing.T) {
	asked := []string{}
	lists := map[string]string{"31": "0", "42": "3\n", "43": "0-1,3", "44": "2", "45": "2", "46": "2"}
	got, err := interruptCPUs(procInterrupts, "0000:00:06.0", func(irq string) (string, error) {
		asked = append(asked, irq)
		return lists[irq], nil
	})
	if err != nil || !reflect.DeepEqual(got, []int{0, 1, 3}) || !reflect.DeepEqual(asked, []string{"42", "43"}) {
		t.Errorf("interruptCPUs: %v, %v (IRQs asked %v); want [0 1 3] from IRQs 42 and 43", got, err, asked)
	}
	if got, err := interruptCPUs(procInterrupts, "0000:41:00.0", nil); err != nil || len(got) != 0 {
		t.Errorf("a device without interrupts here: %v, %v; want none", got, err)
	}
	if _, err := interruptCPUs(procInterrupts, "0000:00:06.0", func(string) (string, error) { return "", errors.New("gone") }); err == nil {
		t.Error("an unreadable affinity: no error")
	}
}

func TestParseCPUList(t *testing.T) {
	for s, want := range map[string][]int{"14": {14}, "0-3,8,10-11\n": {0, 1, 2, 3, 8, 10, 11}, "": nil} {
		if got, err := parseCPUList(s); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("parseCPUList(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"3-1", "a", "1,-2", "0-x"} {
		if got, err := parseCPUList(s); err == nil {
			t.Errorf("parseCPUList(%q) = %v; want an error", s, got)
		}
	}
}

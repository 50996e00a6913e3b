package gpu

import (
	"strings"
	"testing"
)

// TestCheckImageSize: sizes within maxImageDimension2D pass; a side past it fails naming the limit.
func TestCheckImageSize(t *testing.T) {
	d := &Device{}
	d.Limits.MaxImageDimension2D = 16384
	for _, ok := range [][2]int{{1, 1}, {16384, 16000}, {16384, 16384}} {
		if err := d.CheckImageSize(ok[0], ok[1]); err != nil {
			t.Errorf("%v: %v", ok, err)
		}
	}
	for _, bad := range [][2]int{{16385, 2}, {2, 20000}, {0, 5}, {-1, 5}} {
		err := d.CheckImageSize(bad[0], bad[1])
		if err == nil || bad[0] > 0 && bad[1] > 0 && !strings.Contains(err.Error(), "maxImageDimension2D (16384)") {
			t.Errorf("%v: %v: want an error naming maxImageDimension2D (16384)", bad, err)
		}
	}
}

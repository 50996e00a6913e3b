package gpu

import (
	"strings"
	"testing"

	vk "github.com/vulkan-go/vulkan"
)

// On a device without Vulkan Video (lavapipe) Options.Video opens the device as before, with the
// reason recorded; on one with it (the GPU machine) the decode family and extensions are enabled.
func TestOpenVideo(t *testing.T) {
	d, err := Open(Options{Index: -1, Validation: true, Video: true})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer d.Close()
	v := d.Video
	if v.Enabled {
		if v.Reason != "" || v.DecodeQueues == 0 || v.CodecOps == 0 || !d.Extensions[ExtVideoDecodeQueue] {
			t.Fatalf("enabled but inconsistent: %+v", v)
		}
		t.Logf("video: family %d (%d queues), codec ops %#x, %v", v.DecodeFamily, v.DecodeQueues, v.CodecOps, v.Extensions)
	} else {
		if v.Reason == "" {
			t.Fatal("video not enabled and no reason given")
		}
		if d.Extensions[ExtVideoDecodeQueue] {
			t.Fatalf("%s enabled without video: %+v", ExtVideoDecodeQueue, v)
		}
		if ok, why := v.Codec("hevc"); ok || why != v.Reason {
			t.Fatalf("Codec(hevc) on a device without video: %v %q", ok, why)
		}
		t.Logf("no video: %s", v.Reason)
	}
	if ok, why := (Video{Enabled: true, CodecOps: 1}).Codec("vp9"); ok || !strings.Contains(why, "no Vulkan hwaccel") {
		t.Fatalf("vp9: %v %q", ok, why)
	}
	if err := d.Submit(func(cb vk.CommandBuffer) {}); err != nil {
		t.Fatal(err)
	}
	if msgs := d.ValidationMessages(); len(msgs) > 0 {
		t.Fatalf("validation: %v", msgs)
	}
}

// VK_KHR_video_maintenance1 is enabled where offered, except under a validation layer older than
// the 1.3.274 headers that introduced it (Debian 12's 1.3.239 reports its feature struct as
// unknown in vkCreateDevice). The installed layer's own version decides on this machine too.
func TestVideoMaintenance1UnderOldLayer(t *testing.T) {
	for _, c := range []struct {
		offered bool
		layer   uint32
		want    bool
	}{
		{true, 0, true},                          // no validation
		{true, vk.MakeVersion(1, 3, 239), false}, // bookworm's layer
		{true, vk.MakeVersion(1, 3, 274), true},
		{true, vk.MakeVersion(1, 4, 309), true},
		{false, vk.MakeVersion(1, 4, 309), false},
	} {
		got, why := videoMaintenance1(c.offered, c.layer)
		if got != c.want || (!got && c.offered) != (why != "") {
			t.Errorf("offered %v, layer %s: %v %q, want %v", c.offered, apiString(c.layer), got, why, c.want)
		}
		if why != "" && (!strings.Contains(why, ExtVideoMaintenance1) || !strings.Contains(why, apiString(c.layer))) {
			t.Errorf("reason %q names neither the extension nor the layer", why)
		}
	}
	if spec, ok := instanceLayers()[ValidationLayer]; ok {
		t.Logf("installed %s: %s", ValidationLayer, apiString(spec))
	}
}

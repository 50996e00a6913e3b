package stream_test

import (
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// TestPlan: a configuration's plan is what its inputs say: the path ycbcr.Choose gives for the
// device, metadata and choice; the variant and upload asked for; no route in software, the route
// asked for (download included) under hardware decoding and for software pictures uploaded into
// Vulkan frames, auto settled per frame; and once a frame
// is loaded, the upload that frame took.
func TestPlan(t *testing.T) {
	dev := vktest.Open(t)
	pf, _ := formats.Lookup("nv12")
	pic, err := synth.Noise(pf, 40, 24, 5)
	if err != nil {
		t.Fatal(err)
	}
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	s, err := stream.New(dev, stream.Options{Upload: planes.UploadCopy})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hw := stream.Decode{Decoder: "h264 (vulkan)", HW: true}
	for _, tc := range []struct {
		choice    formats.Choice
		decode    stream.Decode
		route     stream.Route
		why       string // Config.RouteReason, which the plan records in place of "asked for"
		wantRoute stream.Route
	}{
		{formats.ChooseAuto, stream.Decode{Decoder: "h264", Reason: "-hwdec no"}, stream.RouteAuto, "", stream.RouteNone},
		{formats.ChooseShader, hw, stream.RouteDownload, "", stream.RouteDownload},
		{formats.ChooseAuto, hw, stream.RouteAuto, "", stream.RouteAuto},
		{formats.ChooseShader, hw, stream.RouteCopy, "", stream.RouteCopy},
		{formats.ChooseShader, hw, stream.RouteCopy, "the caller's reason", stream.RouteCopy},
		// Software pictures uploaded into Vulkan frames take the route of hardware-decoded ones.
		{formats.ChooseAuto, stream.Decode{Decoder: "h264", Upload: true, Reason: "-hwdec upload"}, stream.RouteInPlace, "", stream.RouteInPlace},
	} {
		cfg := stream.Config{Format: pf, Width: pic.Width, Height: pic.Height, Params: p, Choice: tc.choice,
			Variant: stream.VariantDraw, Route: tc.route, RouteReason: tc.why, Decode: tc.decode}
		if _, err := s.Configure(cfg); err != nil {
			t.Fatal(err)
		}
		plan := s.Plan()
		want, err := ycbcr.Choose(dev, pf, p, tc.choice)
		if err != nil {
			t.Fatal(err)
		}
		if plan.Path.Path != want.Path || plan.Path.Reason != want.Reason || plan.Path.Key != want.Key {
			t.Errorf("%v: path %v (%s), ycbcr.Choose says %v (%s)", tc.choice, plan.Path.Path, plan.Path.Reason, want.Path, want.Reason)
		}
		if plan.Variant.Variant != stream.VariantDraw || plan.Variant.Reason != "draw: asked for" {
			t.Errorf("variant %v (%s), asked for draw", plan.Variant.Variant, plan.Variant.Reason)
		}
		if plan.Decode != tc.decode {
			t.Errorf("decode %+v, configured %+v", plan.Decode, tc.decode)
		}
		if plan.Route.Route != tc.wantRoute || (tc.wantRoute == stream.RouteNone) != (plan.Route.String() == "") {
			t.Errorf("route %q, want %v", plan.Route, tc.wantRoute)
		}
		if tc.wantRoute == stream.RouteDownload && !strings.HasPrefix(plan.Route.String(), "download (asked for") {
			t.Errorf("download route: %q", plan.Route)
		}
		if want := map[bool]string{true: tc.why, false: "asked for"}[tc.why != ""]; tc.wantRoute == stream.RouteCopy && plan.Route.Reason != want {
			t.Errorf("copy route's reason %q, want %q", plan.Route.Reason, want)
		}
		if plan.Upload.Upload != planes.UploadCopy || plan.Upload.Reason != "asked for" {
			t.Errorf("upload before a frame: %v (%s), asked for copy", plan.Upload.Upload, plan.Upload.Reason)
		}
		var loaded planes.Loaded
		drawFrame(t, dev, s, pic.Width, pic.Height, func(fr *stream.Frame) (err error) {
			loaded, err = fr.Load(pic, nil)
			return err
		})
		if got := s.Plan().Upload; got != loaded {
			t.Errorf("upload after a frame: %+v, the frame took %+v", got, loaded)
		}
	}
	vktest.Check(t, dev)
}

package stream

import (
	"fmt"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Plan is the way a stream's frames take from the decoder to the target: one field per decision,
// each with the reason it was taken. decide makes it, from the device, the stream's metadata and the
// user's choices (Config), on every new configuration. Where a choice is auto and its answer
// depends on the frame itself, the frame completes its field as it is loaded, by the rule decide
// set: Upload (the frame's memory: planes.Image.Load) and Route (the decoder's image: autoRoute);
// Scale records what the last frame's scale pass did (the target's size changes without a new
// configuration). The player's -stats and info panel and videotex's frame facts read it
// (Stream.Plan); nothing else decides these.
type Plan struct {
	// Decode is how the source decodes: Config.Decode, which the source decided (decode.HWDec, at
	// open: the codec, its profile, the device).
	Decode Decode
	// Route is how hardware-decoded pictures reach the conversion (Route is RouteNone in software).
	Route RouteStep
	// Upload is how software pictures' planes reach the GPU: the stream's Options.Upload, and, once
	// a frame is loaded, what that frame took (planes.Image.Load decides auto per frame).
	Upload planes.Loaded
	// Path is the conversion path (ycbcr.Choose: sampler or shader), with the sampler's key.
	Path ycbcr.Decision
	// Variant is how the conversion runs: drawn, or compute (measured on the device for auto).
	Variant VariantStep
	// Scale says what the last frame's scale pass did ("" before one was recorded).
	Scale string
}

// Decode is how a stream's pictures are decoded, as the source decided it.
type Decode struct {
	Decoder string // FFmpeg's decoder; "hevc (vulkan)" under Vulkan Video
	HW      bool   // Vulkan Video decodes
	// Upload: decoded in software, each picture then uploaded into FFmpeg's Vulkan frames
	// (decode.Uploader), so that it takes the route of hardware-decoded pictures (Route) on a
	// device that decodes nothing: one more CPU→GPU copy per picture than the stream's own upload.
	Upload bool
	Reason string // why software, when not HW
}

// Frames says whether the pictures arrive in FFmpeg's Vulkan frames (AVVkFrame): decoded by Vulkan
// Video, or uploaded into them.
func (d Decode) Frames() bool { return d.HW || d.Upload }

// String is the decoder and, in software, why: "hevc (vulkan)", "h264 (software: -hwdec no)",
// "h264 (software, uploaded into Vulkan frames: -hwdec upload)".
func (d Decode) String() string {
	switch {
	case d.HW:
		return d.Decoder
	case d.Upload && d.Reason == "":
		return d.Decoder + " (software, uploaded into Vulkan frames)"
	case d.Upload:
		return d.Decoder + " (software, uploaded into Vulkan frames: " + d.Reason + ")"
	case d.Reason == "":
		return d.Decoder
	}
	return d.Decoder + " (software: " + d.Reason + ")"
}

// RouteStep is the plan's route and why.
type RouteStep struct {
	Route  Route
	Reason string
}

// String is -stats' hwdec_route: the route and why; empty in software and before a plan.
func (r RouteStep) String() string {
	if r.Route == RouteNone || r.Reason == "" {
		return ""
	}
	return r.Route.String() + " (" + r.Reason + ")"
}

// VariantStep is the plan's conversion variant and why.
type VariantStep struct {
	Variant Variant
	Reason  string
}

// Plan is the current configuration's plan (the zero Plan before the first Configure).
func (s *Stream) Plan() Plan { return s.plan }

// decide is the one function that decides a configuration's plan: the path from the device's
// sampler and the user's choice (ycbcr.Choose), the route for hardware frames, the upload, and the
// conversion variant (asked for, or measured: chooseVariant). It makes nothing the frames use; the
// variant's probe makes and frees its own picture.
func (s *Stream) decide(c Config) (Plan, error) {
	p := Plan{Decode: c.Decode}
	d, err := ycbcr.Choose(s.Dev, c.Format, c.Params, c.Choice)
	if err != nil {
		return p, err
	}
	if c.Both && d.SamplerErr != nil {
		return p, fmt.Errorf("stream: both paths need the sampler path: %w", d.SamplerErr)
	}
	p.Path = d
	p.Route = planRoute(c)
	p.Upload = s.planUpload()
	v, why, err := s.chooseVariant(c, d.Path)
	if err != nil {
		return p, err
	}
	p.Variant = VariantStep{v, why}
	return p, nil
}

// planRoute is the route of pictures in FFmpeg's Vulkan frames (decoded by Vulkan Video or
// uploaded into them: Decode.Frames): none for other software pictures; what was asked for; or
// auto, which each frame settles by its decoder image's size and usage (autoRoute).
func planRoute(c Config) RouteStep {
	switch {
	case !c.Decode.Frames():
		return RouteStep{RouteNone, "decoded in software"}
	case c.Route == RouteDownload:
		return RouteStep{RouteDownload, "asked for: one CPU copy per frame (av_hwframe_transfer_data), then the upload, for comparisons"}
	case c.Route == RouteAuto:
		return RouteStep{RouteAuto, "in place or the GPU copy, per frame, by the decoder's image"}
	}
	return RouteStep{c.Route, c.routeAsked()}
}

// routeAsked is why c asks for its route: RouteReason, else "asked for".
func (c Config) routeAsked() string {
	if c.RouteReason != "" {
		return c.RouteReason
	}
	return "asked for"
}

// planUpload is the upload the configuration's frames are loaded with: Options.Upload, where auto
// imports each frame whose memory the device can import (the import cache, newImporter) and copies
// the others.
func (s *Stream) planUpload() planes.Loaded {
	switch {
	case s.upload != planes.UploadAuto:
		return planes.Loaded{Upload: s.upload, Reason: "asked for"}
	case s.importer == nil:
		return planes.Loaded{Upload: planes.UploadCopy, Reason: "auto: the device imports no host memory here (VK_EXT_external_memory_host)"}
	}
	return planes.Loaded{Upload: planes.UploadAuto, Reason: "import where the frame's memory allows, else copy: decided per frame"}
}

// paths are the paths a plan draws: both for comparisons, else the plan's.
func (p Plan) paths(both bool) []formats.Path {
	if both {
		return []formats.Path{formats.PathSampler, formats.PathShader}
	}
	return []formats.Path{p.Path.Path}
}

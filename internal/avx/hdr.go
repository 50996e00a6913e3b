package avx

/*
#include <libavutil/frame.h>
#include <libavutil/mastering_display_metadata.h>

// avx_read_hdr reads the static HDR metadata a frame carries as side data (SMPTE ST 2086 mastering
// display primaries, white point and luminance; CTA-861.3 content light level). FFmpeg attaches the
// stream's own (container or SEI) to each frame it decodes. Returns a bit set: 1 mastering
// luminance, 2 content light level, 4 mastering primaries and white point. prim receives the CIE
// 1931 xy of red, green and blue in that order (AVMasteringDisplayMetadata.display_primaries is
// r, g, b: FFmpeg reorders HEVC's SEI, which codes green, blue, red), then the white point's xy.
static int avx_read_hdr(const AVFrame *f, double *min_lum, double *max_lum, double *max_cll, double *max_fall,
                        double prim[8]) {
	int got = 0;
	const AVFrameSideData *sd = av_frame_get_side_data(f, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA);
	if (sd) {
		const AVMasteringDisplayMetadata *m = (const AVMasteringDisplayMetadata *)sd->data;
		if (m->has_luminance) {
			*min_lum = av_q2d(m->min_luminance);
			*max_lum = av_q2d(m->max_luminance);
			got |= 1;
		}
		if (m->has_primaries) {
			for (int i = 0; i < 3; i++) {
				prim[2 * i] = av_q2d(m->display_primaries[i][0]);
				prim[2 * i + 1] = av_q2d(m->display_primaries[i][1]);
			}
			prim[6] = av_q2d(m->white_point[0]);
			prim[7] = av_q2d(m->white_point[1]);
			got |= 4;
		}
	}
	sd = av_frame_get_side_data(f, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL);
	if (sd) {
		const AVContentLightMetadata *c = (const AVContentLightMetadata *)sd->data;
		*max_cll = c->MaxCLL;
		*max_fall = c->MaxFALL;
		got |= 2;
	}
	return got;
}
*/
import "C"

import "github.com/asticode/go-astiav"

// HDR is a frame's static HDR metadata, luminances in cd/m²; zero where the frame carries none.
type HDR struct {
	MinLuminance, MaxLuminance float64 // mastering display (SMPTE ST 2086)
	MaxCLL, MaxFALL            float64 // content light level (CTA-861.3)
	// Primaries are the mastering display's CIE 1931 xy of red, green and blue; WhitePoint its
	// white's (SMPTE ST 2086).
	Primaries  [3][2]float64
	WhitePoint [2]float64
}

// ReadHDR reads f's mastering display and content light level side data.
func ReadHDR(f *astiav.Frame) HDR {
	var h HDR
	var minL, maxL, cll, fall C.double
	var prim [8]C.double
	got := C.avx_read_hdr(frame(f), &minL, &maxL, &cll, &fall, &prim[0])
	if got&1 != 0 {
		h.MinLuminance, h.MaxLuminance = float64(minL), float64(maxL)
	}
	if got&4 != 0 {
		for i := range h.Primaries {
			h.Primaries[i] = [2]float64{float64(prim[2*i]), float64(prim[2*i+1])}
		}
		h.WhitePoint = [2]float64{float64(prim[6]), float64(prim[7])}
	}
	if got&2 != 0 {
		h.MaxCLL, h.MaxFALL = float64(cll), float64(fall)
	}
	return h
}

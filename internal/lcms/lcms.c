// lcms.c: LittleCMS loaded with dlopen (internal/dl); each ycl_ function calls the lcms2 function
// it names.
#include <stdio.h>
#include "lcms.h"

typedef void *cmsContext;
typedef void cmsToneCurve;
typedef void (*cms_log)(cmsContext, uint32_t, const char *);

#define FUNCS(X) \
	X(void, cmsSetLogErrorHandler, (cms_log)) \
	X(cmsHPROFILE, cmsOpenProfileFromMem, (const void *, uint32_t)) \
	X(cmsHPROFILE, cmsCreate_sRGBProfile, (void)) \
	X(cmsHPROFILE, cmsCreateRGBProfile, (const cmsCIExyY *, const cmsCIExyYTRIPLE *, cmsToneCurve *const *)) \
	X(cmsToneCurve *, cmsBuildGamma, (cmsContext, double)) \
	X(cmsToneCurve *, cmsBuildParametricToneCurve, (cmsContext, int32_t, const double *)) \
	X(void, cmsFreeToneCurve, (cmsToneCurve *)) \
	X(uint32_t, cmsGetColorSpace, (cmsHPROFILE)) \
	X(int, cmsCloseProfile, (cmsHPROFILE)) \
	X(int, cmsSaveProfileToMem, (cmsHPROFILE, void *, uint32_t *)) \
	X(cmsHTRANSFORM, cmsCreateTransform, (cmsHPROFILE, uint32_t, cmsHPROFILE, uint32_t, uint32_t, uint32_t)) \
	X(void, cmsDoTransform, (cmsHTRANSFORM, const void *, void *, uint32_t)) \
	X(void, cmsDeleteTransform, (cmsHTRANSFORM))

#define DECLARE(ret, name, args) static ret(*p_##name) args;
FUNCS(DECLARE)

#define NAME(ret, name, args) #name,
char *const ycl_funcs[] = {FUNCS(NAME) NULL};

// LittleCMS reports why a profile did not open or a transform was not made through its log handler
// (its default one says nothing): the last message is kept for the caller's error. The caller
// serializes its calls (doc.go).
static char last[256];
static void logged(cmsContext ctx, uint32_t code, const char *text) {
	(void)ctx;
	(void)code;
	snprintf(last, sizeof last, "%s", text ? text : "");
}

void ycl_bind(void *const *fns) {
	int i = 0;
#define BIND(ret, name, args) p_##name = (ret(*) args)fns[i++];
	FUNCS(BIND)
	p_cmsSetLogErrorHandler(logged);
}

const char *ycl_last_error(void) { return last; }

cmsHPROFILE ycl_open_mem(const void *data, uint32_t size) {
	last[0] = 0;
	return p_cmsOpenProfileFromMem(data, size);
}
cmsHPROFILE ycl_srgb(void) { return p_cmsCreate_sRGBProfile(); }

// ycl_rgb is a matrix-shaper RGB profile of the given white, primaries and one curve for the three
// channels (cmsCreateRGBProfile copies the curves): a pure power gamma, or for gamma 0 the sRGB curve
// (IEC 61966-2-1; lcms2's parametric type 4, as its own cmsCreate_sRGBProfile builds it).
cmsHPROFILE ycl_rgb(const cmsCIExyY *white, const cmsCIExyYTRIPLE *primaries, double gamma) {
	static const double srgb[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
	cmsToneCurve *g = gamma > 0 ? p_cmsBuildGamma(NULL, gamma) : p_cmsBuildParametricToneCurve(NULL, 4, srgb);
	if (!g) return NULL;
	cmsToneCurve *curves[3] = {g, g, g};
	cmsHPROFILE p = p_cmsCreateRGBProfile(white, primaries, curves);
	p_cmsFreeToneCurve(g);
	return p;
}
uint32_t ycl_colour_space(cmsHPROFILE p) { return p_cmsGetColorSpace(p); }
void ycl_close(cmsHPROFILE p) { p_cmsCloseProfile(p); }
int ycl_save(cmsHPROFILE p, void *data, uint32_t *size) { return p_cmsSaveProfileToMem(p, data, size); }

cmsHTRANSFORM ycl_transform_rgb16(cmsHPROFILE src, cmsHPROFILE dst, uint32_t intent) {
	last[0] = 0;
	return p_cmsCreateTransform(src, YCL_TYPE_RGB_16, dst, YCL_TYPE_RGB_16, intent, 0);
}
void ycl_do(cmsHTRANSFORM t, const void *in, void *out, uint32_t pixels) { p_cmsDoTransform(t, in, out, pixels); }
void ycl_delete(cmsHTRANSFORM t) { p_cmsDeleteTransform(t); }

// lcms.h: the few LittleCMS declarations the package uses, written out here so that the build needs
// no lcms2 headers and the programs link no liblcms2: the library is loaded at run time (dlopen).
// The types, constants and prototypes are those of LittleCMS 2's public header lcms2.h, whose ABI
// liblcms2.so.2 keeps (https://github.com/mm2/Little-CMS, include/lcms2.h).
#ifndef YCBCRKIT_LCMS_H
#define YCBCRKIT_LCMS_H
#include <stdint.h>

typedef void *cmsHPROFILE;
typedef void *cmsHTRANSFORM;
typedef struct { double x, y, Y; } cmsCIExyY;
typedef struct { cmsCIExyY Red, Green, Blue; } cmsCIExyYTRIPLE;

// lcms2.h's pixel types: TYPE_RGB_16 is COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | BYTES_SH(2).
#define YCL_TYPE_RGB_16 ((4 << 16) | (3 << 3) | 2)
// cmsSigRgbData, the colour space of an RGB profile's device side ('RGB ').
#define YCL_SIG_RGB 0x52474220

extern char *const ycl_funcs[];  // the lcms2 functions lcms.c calls, ending in NULL (for internal/dl)
void ycl_bind(void *const *fns); // their addresses, in ycl_funcs' order

const char *ycl_last_error(void);
cmsHPROFILE ycl_open_mem(const void *data, uint32_t size);
cmsHPROFILE ycl_srgb(void);
cmsHPROFILE ycl_rgb(const cmsCIExyY *white, const cmsCIExyYTRIPLE *primaries, double gamma);
uint32_t ycl_colour_space(cmsHPROFILE p);
void ycl_close(cmsHPROFILE p);
int ycl_save(cmsHPROFILE p, void *data, uint32_t *size);
cmsHTRANSFORM ycl_transform_rgb16(cmsHPROFILE src, cmsHPROFILE dst, uint32_t intent);
void ycl_do(cmsHTRANSFORM t, const void *in, void *out, uint32_t pixels);
void ycl_delete(cmsHTRANSFORM t);
#endif

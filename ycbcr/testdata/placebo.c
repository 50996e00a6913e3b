// placebo: libplacebo's own tone-mapping code as an outside reference for the toolkit's tests
// (tone_reference_test.go builds it with the system's libplacebo, Debian's libplacebo-dev).
//
//   placebo eetf IN_MIN IN_MAX OUT_MIN OUT_MAX KNEE_OFFSET < PQ values, one a line
//       pl_tone_map_bt2390 (ITU-R BT.2390's EETF; KS = (1 + offset)·maxLum − offset, 0.5 in the
//       Report) sampled on PQ signals, every luminance given as a PQ signal: one mapped value a line.
//   placebo infer pq|hlg MIN_LUMA MAX_LUMA MAX_CLL
//       pl_color_space_infer on a BT.2020 PQ or HLG colour space with that static metadata (cd/m²,
//       0 = absent): the black and peak luminance libplacebo's renderer (mpv's gpu-next) works with.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libplacebo/colorspace.h>
#include <libplacebo/tone_mapping.h>

int main(int argc, char **argv)
{
    if (argc == 7 && !strcmp(argv[1], "eetf")) {
        struct pl_tone_map_params p = {
            .function = &pl_tone_map_bt2390,
            .param = atof(argv[6]),
            .input_scaling = PL_HDR_PQ,
            .output_scaling = PL_HDR_PQ,
            .input_min = atof(argv[2]),
            .input_max = atof(argv[3]),
            .output_min = atof(argv[4]),
            .output_max = atof(argv[5]),
        };
        double x;
        while (scanf("%lf", &x) == 1)
            printf("%.9g\n", pl_tone_map_sample(x, &p));
        return 0;
    }
    if (argc == 6 && !strcmp(argv[1], "infer")) {
        struct pl_color_space c = {
            .primaries = PL_COLOR_PRIM_BT_2020,
            .transfer = strcmp(argv[2], "hlg") ? PL_COLOR_TRC_PQ : PL_COLOR_TRC_HLG,
        };
        c.hdr.min_luma = atof(argv[3]);
        c.hdr.max_luma = atof(argv[4]);
        c.hdr.max_cll = atof(argv[5]);
        pl_color_space_infer(&c);
        printf("%.9g %.9g\n", c.hdr.min_luma, c.hdr.max_luma);
        return 0;
    }
    fprintf(stderr, "usage: placebo eetf IN_MIN IN_MAX OUT_MIN OUT_MAX KNEE_OFFSET | placebo infer pq|hlg MIN MAX MAXCLL\n");
    return 2;
}

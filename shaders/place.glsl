// Where a compute conversion writes its picture (sampler.comp, shader.comp). PLACE_W > 0: the
// picture is PLACE_W×PLACE_H at an origin (from the push constants) of a larger target, a wall's
// canvas, which it is written into directly; 0: the target is the picture's own image. The picture
// is converted exactly as into its own image (coordinates, dither pattern): only the store moves.
// A constant, not a push constant: the shader path's push block is already the 128 bytes every
// device grants (maxPushConstantsSize), and a wall's pictures share few sizes.
layout(constant_id = 28) const int PLACE_W = 0;
layout(constant_id = 29) const int PLACE_H = 0;

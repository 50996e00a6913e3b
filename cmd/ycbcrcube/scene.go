package main

import (
	_ "embed"
	"encoding/binary"
	"math"
)

//go:generate ./shaders/generate.sh

// cubeVert generates the cube and its texture coordinates from gl_VertexIndex.
//
//go:embed shaders/cube.vert.spv
var cubeVert []byte

// cubeFrag samples the video through the engine's binding and applies the light.
//
//go:embed shaders/cube.frag.spv
var cubeFrag []byte

// cubeVertices is the vertex count cube.vert expects: 6 faces × 2 triangles.
const cubeVertices = 36

// pushSize is the size of cube.vert's push-constant block: mat4 mvp, vec4 light, vec4 params.
const pushSize = 96

// ambient is the light a face turned away from the light still gets; a face turned to it gets 1,
// so the front face of the unrotated cube shows the video's own colours.
const ambient = 0.35

// background is the clear colour, in exact 8-bit steps so that tests can compare it exactly.
var background = [4]float32{32.0 / 255, 64.0 / 255, 96.0 / 255, 1}

// mat4 is a column-major 4×4 matrix, as GLSL reads it.
type mat4 [16]float32

func (a mat4) mul(b mat4) mat4 {
	var r mat4
	for c := 0; c < 4; c++ {
		for row := 0; row < 4; row++ {
			var s float32
			for k := 0; k < 4; k++ {
				s += a[k*4+row] * b[c*4+k]
			}
			r[c*4+row] = s
		}
	}
	return r
}

// perspective maps a right-handed view space (looking down −z) to Vulkan's clip space: y down,
// depth 0 (near) to 1 (far).
func perspective(fovY, aspect, near, far float64) mat4 {
	f := 1 / math.Tan(fovY/2)
	var m mat4
	m[0] = float32(f / aspect)
	m[5] = float32(-f)
	m[10] = float32(far / (near - far))
	m[11] = -1
	m[14] = float32(near * far / (near - far))
	return m
}

func translate(x, y, z float32) mat4 {
	return mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1}
}

func rotateX(a float64) mat4 {
	c, s := float32(math.Cos(a)), float32(math.Sin(a))
	return mat4{1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1}
}

func rotateY(a float64) mat4 {
	c, s := float32(math.Cos(a)), float32(math.Sin(a))
	return mat4{c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1}
}

// scene is the cube at time t (seconds) spinning at spin degrees per second, seen by a camera 3
// units away: the push constants for cube.vert. At angle 0 the front face faces the camera square
// on, its centre at the centre of the target.
func scene(t, spin float64, width, height int, uvScale [2]float32) []byte {
	a := t * spin * math.Pi / 180
	model := rotateX(0.6 * a).mul(rotateY(a))
	view := translate(0, 0, -3)
	proj := perspective(45*math.Pi/180, float64(width)/float64(height), 0.1, 10)
	mvp := proj.mul(view).mul(model)
	// The light shines from the camera: direction (0,0,1) in world space, Rᵀ·(0,0,1) in model
	// space, which is the rotation's third row.
	light := [4]float32{model[2], model[6], model[10], 0}
	params := [4]float32{uvScale[0], uvScale[1], ambient, 0}
	out := make([]byte, 0, pushSize)
	for _, v := range mvp {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
	}
	for _, v := range append(light[:], params[:]...) {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
	}
	return out
}

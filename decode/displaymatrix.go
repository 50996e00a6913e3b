package decode

import (
	"fmt"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// displayMatrix reads the stream's display matrix (AV_PKT_DATA_DISPLAYMATRIX in the codec
// parameters' coded side data: what MP4's tkhd matrix and Matroska's projection become) as the
// orientation the picture is shown in. A matrix that is not a multiple of 90° gives the identity and
// a note.
func displayMatrix(cp *astiav.CodecParameters) (m *[9]int32, o formats.Orientation, note string) {
	dm, ok := cp.SideData().DisplayMatrix().Get()
	if !ok || dm == nil {
		return nil, formats.Orientation{}, ""
	}
	var v [9]int32
	for i, x := range dm {
		v[i] = int32(x)
	}
	o, ok = formats.OrientationFromDisplayMatrix(v)
	if !ok {
		note = fmt.Sprintf("display matrix: a rotation of %.1f° (not a multiple of 90°) is not applied", formats.DisplayRotation(v))
	}
	return &v, o, note
}

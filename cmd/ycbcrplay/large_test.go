package main

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeGrayPNG writes a w×h 8-bit gray PNG of mid-grey rows, streamed row by row (the picture is
// never held whole), with zlib at its fastest: the PNG specification's chunks (IHDR, IDAT, IEND).
func writeGrayPNG(t *testing.T, path string, w, h int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := bufio.NewWriter(f)
	chunk := func(typ string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		out.Write(n[:])
		crc := crc32.NewIEEE()
		io.WriteString(crc, typ)
		crc.Write(data)
		out.WriteString(typ)
		out.Write(data)
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		out.Write(n[:])
	}
	out.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 0 // 8 bits, gray
	chunk("IHDR", ihdr)
	var idat strings.Builder
	z, _ := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	row := make([]byte, 1+w) // filter type 0, then the samples
	for i := 1; i < len(row); i++ {
		row[i] = 128
	}
	for y := 0; y < h; y++ {
		z.Write(row)
	}
	z.Close()
	chunk("IDAT", []byte(idat.String()))
	chunk("IEND", nil)
	if err := out.Flush(); err != nil {
		t.Fatal(err)
	}
}

// TestLargePicture: a 16384×8448 gray PNG (lavapipe's maxImageDimension2D on its long side) plays
// headless with the validation layer on: the conversion variant is not measured at that size
// (stream's probeMaxPixels), it is drawn. Its 138 M pixels are past 2^27, lavapipe's
// maxStorageBufferRange and maxTexelBufferElements for a plane of one byte a pixel: the picture lies
// in the same power-of-two bracket, for any size of element from 1 to 16 bytes, as the 16384×16000
// picture (about the largest av_image_check_size lets through) this test played before, at half its
// CPU. (One play: the same play without the layer checked nothing more.)
func TestLargePicture(t *testing.T) {
	file := filepath.Join(t.TempDir(), "large.png")
	writeGrayPNG(t, file, 16384, 8448)
	for _, extra := range [][]string{{"-validate"}} {
		start := time.Now()
		stdout, stderr, code := play(t, append([]string{"-headless", "-stats", "-no-audio"}, append(extra, file)...)...)
		took := time.Since(start)
		if code != 0 {
			t.Fatalf("%v: exit %d after %v: %s", extra, code, took, stderr)
		}
		var st struct {
			Presented int    `json:"frames_presented"`
			Reason    string `json:"conversion_reason"`
		}
		if err := json.Unmarshal([]byte(stdout), &st); err != nil {
			t.Fatalf("-stats: %v: %s", err, stdout)
		}
		if st.Presented != 1 || !strings.Contains(st.Reason, "not measured") {
			t.Errorf("%v: %d frames presented, conversion %q: want 1, drawn without a probe", extra, st.Presented, st.Reason)
		}
		t.Logf("%v: played in %v (%s)", extra, took.Round(time.Millisecond), st.Reason)
	}
}

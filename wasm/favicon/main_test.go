package main

import (
	"bytes"
	"image/png"
	"os"
	"testing"
)

// The committed icon is this program's output, and a valid ICO around a
// 32×32 PNG.
func TestCommittedIcon(t *testing.T) {
	got, err := os.ReadFile("../../static/favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	if want := ICO(); !bytes.Equal(got, want) {
		t.Fatalf("static/favicon.ico is stale: go run ./wasm/favicon > static/favicon.ico")
	}
	if !bytes.Equal(got[:6], []byte{0, 0, 1, 0, 1, 0}) {
		t.Fatalf("ICO header % x", got[:6])
	}
	img, err := png.Decode(bytes.NewReader(got[22:]))
	if err != nil || img.Bounds().Dx() != 32 || img.Bounds().Dy() != 32 {
		t.Fatalf("embedded PNG: %v %v", err, img)
	}
	// the corners are transparent, the middle of an edge is the accent blue
	if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
		t.Errorf("corner alpha %d", a)
	}
	if r, g, b, _ := img.At(16, 30).RGBA(); r>>8 != 0x30 || g>>8 != 0x56 || b>>8 != 0xc9 {
		t.Errorf("bottom edge colour %x %x %x", r>>8, g>>8, b>>8)
	}
}

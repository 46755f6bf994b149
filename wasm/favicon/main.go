// Command favicon draws the site's icon, static/favicon.ico (32×32: five
// groups of a Dragonfly, every pair joined by a global link, white on the
// page's accent blue), the same picture as static/favicon.svg. Browsers ask
// for /favicon.ico on every page even when the page names an SVG icon.
//
//	go run ./wasm/favicon > static/favicon.ico
package main

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
)

const size = 32

// groups are the icon's node centres: five points on a circle (the SVG's).
func groups() [][2]float64 {
	var p [][2]float64
	for i := 0; i < 5; i++ {
		a := -math.Pi/2 + 2*math.Pi*float64(i)/5
		p = append(p, [2]float64{16 + 10*math.Cos(a), 16.5 + 10*math.Sin(a)})
	}
	return p
}

// Icon draws the picture with 4×4 supersampling.
func Icon() *image.NRGBA {
	const ss = 4
	bg := color.NRGBA{0x30, 0x56, 0xc9, 0xff}
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	g := groups()
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			inBox, white := 0, 0
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					px, py := float64(x)+(float64(sx)+0.5)/ss, float64(y)+(float64(sy)+0.5)/ss
					if !inRounded(px, py) {
						continue
					}
					inBox++
					if onDrawing(px, py, g) {
						white++
					}
				}
			}
			if inBox == 0 {
				continue
			}
			f := float64(white) / float64(inBox)
			mix := func(c uint8) uint8 { return uint8(math.Round(float64(c)*(1-f) + 255*f)) }
			img.SetNRGBA(x, y, color.NRGBA{mix(bg.R), mix(bg.G), mix(bg.B), uint8(math.Round(255 * float64(inBox) / ss / ss))})
		}
	}
	return img
}

// inRounded: inside the 32×32 square with corners of radius 6.
func inRounded(x, y float64) bool {
	const r = 6
	cx, cy := math.Min(math.Max(x, r), size-r), math.Min(math.Max(y, r), size-r)
	return math.Hypot(x-cx, y-cy) <= r
}

func onDrawing(x, y float64, g [][2]float64) bool {
	for i, a := range g {
		if math.Hypot(x-a[0], y-a[1]) <= 3.2 {
			return true
		}
		for _, b := range g[i+1:] {
			if segDist(x, y, a, b) <= 0.75 {
				return true
			}
		}
	}
	return false
}

func segDist(x, y float64, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	t := math.Max(0, math.Min(1, ((x-a[0])*dx+(y-a[1])*dy)/(dx*dx+dy*dy)))
	return math.Hypot(x-a[0]-t*dx, y-a[1]-t*dy)
}

// ICO wraps the icon's PNG in an ICO container (one image; PNG entries are
// read by every browser).
func ICO() []byte {
	var p bytes.Buffer
	if err := png.Encode(&p, Icon()); err != nil {
		panic(err)
	}
	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	le([3]uint16{0, 1, 1})                         // reserved, type icon, one image
	le([4]uint8{size, size, 0, 0})                 // width, height, no palette, reserved
	le([2]uint16{1, 32})                           // planes, bits per pixel
	le([2]uint32{uint32(p.Len()), uint32(6 + 16)}) // data size, offset
	b.Write(p.Bytes())
	return b.Bytes()
}

func main() {
	if _, err := os.Stdout.Write(ICO()); err != nil {
		os.Exit(1)
	}
}

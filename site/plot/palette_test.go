package plot

import (
	"math"
	"strconv"
	"testing"
)

// machadoDeuteranopia is the Machado, Oliveira and Fernandes (2009) matrix
// for deuteranopia at severity 1.0, applied to linear RGB.
var machadoDeuteranopia = [3][3]float64{
	{0.367322, 0.860646, -0.227968},
	{0.280085, 0.672501, 0.047413},
	{-0.011820, 0.042940, 0.968881},
}

func srgbToLinear(c float64) float64 {
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

func hexRGB(t *testing.T, hex string) [3]float64 {
	t.Helper()
	v, err := strconv.ParseUint(hex[1:], 16, 32)
	if err != nil || len(hex) != 7 {
		t.Fatalf("colour %q: want #rrggbb", hex)
	}
	return [3]float64{float64(v>>16&255) / 255, float64(v>>8&255) / 255, float64(v&255) / 255}
}

// lab converts linear RGB (sRGB primaries, D65) to CIELAB.
func lab(lin [3]float64) [3]float64 {
	x := 0.4124*lin[0] + 0.3576*lin[1] + 0.1805*lin[2]
	y := 0.2126*lin[0] + 0.7152*lin[1] + 0.0722*lin[2]
	z := 0.0193*lin[0] + 0.1192*lin[1] + 0.9505*lin[2]
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	fx, fy, fz := f(x/0.95047), f(y), f(z/1.08883)
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// deutan is the CIELAB colour a deuteranope sees for hex.
func deutan(t *testing.T, hex string, simulate bool) [3]float64 {
	c := hexRGB(t, hex)
	lin := [3]float64{srgbToLinear(c[0]), srgbToLinear(c[1]), srgbToLinear(c[2])}
	if !simulate {
		return lab(lin)
	}
	var d [3]float64
	for i := range d {
		for j := range lin {
			d[i] += machadoDeuteranopia[i][j] * lin[j]
		}
		d[i] = math.Min(1, math.Max(0, d[i]))
	}
	return lab(d)
}

func deltaE(a, b [3]float64) float64 { return math.Hypot(math.Hypot(a[0]-b[0], a[1]-b[1]), a[2]-b[2]) }

// minDeltaE is the smallest CIE76 ΔE between two of the first n colours.
func minDeltaE(t *testing.T, p []string, n int, simulate bool) (float64, string, string) {
	best, x, y := math.Inf(1), "", ""
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if d := deltaE(deutan(t, p[i], simulate), deutan(t, p[j], simulate)); d < best {
				best, x, y = d, p[i], p[j]
			}
		}
	}
	return best, x, y
}

// PaletteSeriesDistinct is the number of series colours that must stay
// apart for a deuteranope (the figure gallery's charts have at most 8
// series: the thesis's Tables 3.1–3.3).
const paletteSeriesDistinct = 8

// TestPaletteDistinctUnderDeuteranopia simulates deuteranopia (Machado et
// al. 2009, severity 1) on the series palette and asserts that every pair
// of the first 8 colours stays at least ΔE76 = 15 apart, and that the check
// rejects ECharts' default palette (whose green and yellow, red and blue
// merge).
func TestPaletteDistinctUnderDeuteranopia(t *testing.T) {
	const threshold = 15
	if len(Palette) < paletteSeriesDistinct {
		t.Fatalf("palette has %d colours, want %d", len(Palette), paletteSeriesDistinct)
	}
	d, a, b := minDeltaE(t, Palette, paletteSeriesDistinct, true)
	t.Logf("palette: min ΔE under deuteranopia %.1f (%s, %s)", d, a, b)
	if d < threshold {
		t.Errorf("%s and %s are ΔE %.1f apart under deuteranopia, want ≥ %d", a, b, d, threshold)
	}
	echarts := []string{"#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc"}
	if d, a, b := minDeltaE(t, echarts, paletteSeriesDistinct, true); d >= threshold {
		t.Errorf("the check passes ECharts' default palette (min ΔE %.1f, %s and %s): it cannot fail", d, a, b)
	} else {
		t.Logf("ECharts' default: min ΔE under deuteranopia %.1f (%s, %s)", d, a, b)
	}
}

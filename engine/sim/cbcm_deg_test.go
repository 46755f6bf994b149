package sim

import (
	"math"
	"testing"

	"phitsim/engine/rng"
)

// The contention degree's window (Kim et al., "Contention-based Congestion
// Management in Large-Scale Networks" §IV-B1: MA(D) over the last samples,
// MA(max) and MA(min) over the bound intervals) kept as runs with running
// totals (cbDeg) against a recount of the per-cycle history: entries whose
// degree changes every cycle for stretches longer than the window (the
// ring of runs full, its oldest run dropped at a change), entries that
// change rarely, read every cycle or after gaps of up to 3 windows (many
// bound intervals closing at once), apart (early detection's max sums) and
// not; some changes come in two steps in one cycle, as drawInputs makes
// them. Under a second of CPU.
func TestCbDegWindowMatchesRecount(t *testing.T) {
	const np, ns, bsi, cycles = 6, 100, 10, 6000
	for _, mode := range [][2]bool{{false, false}, {false, true}, {true, false}} {
		apart, lazy := mode[0], mode[1]
		var d cbDeg
		d.init(np, ns, bsi, apart, lazy)
		st := rng.New(7, rng.Router, 0)
		hist := make([][]int32, np)
		next := make([]int64, np) // the next read
		full, twice := 0, 0
		for c := int64(0); c < cycles; c++ {
			for p := range np {
				// entries 0–2 change nearly every cycle in stretches of 300
				// cycles; 3–5 now and then
				busy := p < 3 && (c/300)%2 == int64(p%2)
				x := d.out[p].cur
				if busy || st.Intn(20) == 0 {
					x = int32(st.Intn(5))
					if busy && x == d.out[p].cur {
						x = (x + 1) % 5
					}
				}
				if x != d.out[p].cur {
					o := &d.out[p]
					if h := int(o.head) + 1; h == d.rn && o.tail == 0 || h == int(o.tail) {
						full++
					}
					if st.Intn(4) == 0 { // a cycle's changes one by one (drawInputs)
						d.setDegree(p, c, x+1)
						twice++
					}
					d.setDegree(p, c, x)
				}
				hist[p] = append(hist[p], x)
			}
			for p := range np {
				if c < next[p] {
					continue
				}
				next[p] = c + 1
				if p%2 == 1 {
					next[p] = c + 1 + int64(st.Intn(3*ns))
				}
				o := &d.out[p]
				d.account(p, o, c)
				sum, diff, mx := recountWindow(hist[p], ns, bsi)
				if o.sum != sum || o.sDiff != diff || apart && o.sMax != mx {
					t.Fatalf("apart %v, lazy %v, entry %d, cycle %d: sum %d, Σ(max − min) %d, Σ max %d; recounted %d, %d, %d",
						apart, lazy, p, c, o.sum, o.sDiff, o.sMax, sum, diff, mx)
				}
			}
		}
		if full == 0 || twice == 0 {
			t.Errorf("apart %v, lazy %v: the ring of runs filled %d times, %d entries changed twice in a cycle", apart, lazy, full, twice)
		}
	}
}

// recountWindow is the window sum, the closed bound intervals' Σ(max − min)
// and Σ max over the last ns cycles of h (h[c]: cycle c's degree; cycles
// before 0 at degree 0, as cbDeg's first run).
func recountWindow(h []int32, ns, bsi int) (sum, diff, mx int64) {
	at := func(c int) int32 {
		if c < 0 {
			return 0
		}
		return h[c]
	}
	t := len(h) - 1
	for c := t - ns + 1; c <= t; c++ {
		sum += int64(at(c))
	}
	nb := ns / bsi
	last := (t+1)/bsi - 1 // the last interval closed by t
	for k := last - nb + 1; k <= last; k++ {
		lo, hi := int32(math.MaxInt32), int32(0)
		for c := k * bsi; c < (k+1)*bsi; c++ {
			lo, hi = min(lo, at(c)), max(hi, at(c))
		}
		diff += int64(hi - lo)
		mx += int64(hi)
	}
	return sum, diff, mx
}

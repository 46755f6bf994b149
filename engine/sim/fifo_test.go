package sim

import (
	"math/rand/v2"
	"testing"
)

// fifoReady against the occupancy it stands for, evaluated cycle by cycle:
// P phits per packet not yet departed (departure ≥ t) plus the phits of the
// last departed packet still being serialised.
func TestFifoReadyMatchesOccupancy(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20000; trial++ {
		P := int64(1 + rnd.IntN(10))
		outCap := P * int64(1+rnd.IntN(5))
		outCap += int64(rnd.IntN(int(P))) // not always a multiple of P
		s := &Sim{P: int(P), outCap: int32(outCap), oCap: int32(outCap/P) + 1}
		s.now = int64(1000 + rnd.IntN(50))
		n := int(s.oCap)
		// departures strictly increasing by at least P; the newest was just
		// granted, and the FIFO had room for it
		deps := make([]int64, n)
		d := s.now - int64(rnd.IntN(200))
		for i := range deps {
			deps[i] = d
			d += P + int64(rnd.IntN(int(3*P)))
		}
		occ := func(at int64) int64 {
			var o, last int64 = 0, -1 << 40
			for _, d := range deps {
				if d >= at {
					o += P
				} else {
					last = max(last, d)
				}
			}
			return o + max(0, last+P-at)
		}
		tail := int32(rnd.IntN(n))
		ring := make([]int32, n)
		for i, d := range deps {
			ring[(int(tail)+i)%n] = int32(d)
		}
		want := s.now + 1
		for occ(want) > outCap-P {
			want++
		}
		if got := int64(s.fifoReady(ring, tail)); got != want {
			t.Fatalf("P=%d outCap=%d now=%d departures %v: ready at %d, want %d", P, outCap, s.now, deps, got, want)
		}
	}
}

// fifoReadyMixed against the occupancy it stands for, cycle by cycle, in
// FIFOs holding data packets (P phits) and short control packets (1 phit,
// Kim et al.'s single-flit control packets): each packet not yet departed
// counts its own phits, and the last departed one its phits still being
// serialised; the room asked for is a data packet's.
func TestFifoReadyMixedMatchesOccupancy(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 5000; trial++ {
		P := int64(2 + rnd.IntN(10))
		outCap := P * int64(1+rnd.IntN(5))
		outCap += int64(rnd.IntN(int(P)))
		s := &Sim{P: int(P), outCap: int32(outCap), oCap: int32(outCap) + 1, ctlP: 1, ctlShort: true}
		s.now = int64(1000 + rnd.IntN(50))
		n := int(s.oCap)
		s.oLen = make([]int32, 2*n) // port 1's ring is the second
		deps, lens := make([]int64, n), make([]int64, n)
		d := s.now - int64(rnd.IntN(200))
		for i := range deps {
			lens[i] = P
			if rnd.IntN(2) == 0 {
				lens[i] = 1
			}
			deps[i] = d
			d += lens[i] + int64(rnd.IntN(int(2*P)))
		}
		occ := func(at int64) int64 {
			var o, last, lastLen int64 = 0, -1 << 40, 0
			for i, d := range deps {
				if d >= at {
					o += lens[i]
				} else if d > last {
					last, lastLen = d, lens[i]
				}
			}
			return o + max(0, last+lastLen-at)
		}
		tail := int32(rnd.IntN(n))
		ring := make([]int32, n)
		for i, d := range deps {
			ring[(int(tail)+i)%n] = int32(d)
			s.oLen[n+(int(tail)+i)%n] = int32(lens[i])
		}
		want := s.now + 1
		for occ(want) > outCap-P {
			want++
		}
		if got := int64(s.fifoReadyMixed(1, ring, tail)); got != want {
			t.Fatalf("P=%d outCap=%d now=%d departures %v lengths %v: ready at %d, want %d", P, outCap, s.now, deps, lens, got, want)
		}
	}
}

// Package graph500 is the synthetic traffic model of the Graph500 BFS of
// thesis chapter 2 (P. Fuentes, U. Cantabria 2017, §2.2): the equations of the
// explored edges per tree level (eqs. 2.1–2.19), the injection rate of a node
// (eq. 2.20), and the closed-loop, level-by-level process state machine (Job)
// that a network simulator drives through the Net interface.
//
// Everything here is pure: no network, no global state. Names follow the
// thesis: s scale, fe edge factor, cs coalescing size, n processes, l tree
// level (from 0), dr root degree. Logarithms are natural.
package graph500

import (
	"math"
	"phitsim/engine/pmath"

	"phitsim/engine/rng"
)

// CoeffSet selects the form of coefficient C of the mean (eq. 2.8).
type CoeffSet uint8

const (
	// Thesis is eq. 2.8 as printed: −0.81 + 0.8411·ln s, (l−2.8)²/30. Its level
	// means add up to about the graph's edge budget (derived: for dr = 1 and
	// s = 17, 22, 26 they sum to within ±15% of 2^(s+1)·fe).
	Thesis CoeffSet = iota
	// FOGSim is the form in FOGSim's graph500Generator.cc: −1.105 + 1.01·ln s,
	// (l−3.2)²/8.
	FOGSim
)

// TotalQueriesPerProcess is Σq of eq. 2.1: the queries one process sends over
// the whole BFS, 2^(s+1)·fe·(n−1)/n².
func TotalQueriesPerProcess(s, fe, n int) float64 {
	return math.Ldexp(float64(fe), s+1) * float64(n-1) / (float64(n) * float64(n))
}

// TotalQueries is the query budget of the whole job: every edge explored in
// both directions, without the ones local to a process, 2^(s+1)·fe·(n−1)/n.
func TotalQueries(s, fe, n int) float64 {
	return math.Ldexp(float64(fe), s+1) * float64(n-1) / float64(n)
}

// MeanCoeffs are A, B, C of eqs. 2.6–2.8 for level l ≥ 1.
func MeanCoeffs(s, fe float64, l int, set CoeffSet) (A, B, C float64) {
	lf := float64(l)
	A = -0.133 + 0.0046*s + pmath.Exp(0.01257*fe-0.1829*s-pmath.Exp(1.75-0.7*lf))
	B = 2 - lf*(0.91+0.002*fe-0.012*s)
	switch set {
	case FOGSim:
		C = pmath.Exp(1 + (1+0.004*fe)*(-1.105+1.01*pmath.Log(s))*pmath.Exp(-(lf-3.2)*(lf-3.2)/8))
	default:
		C = pmath.Exp(1 + (1+0.004*fe)*(-0.81+0.8411*pmath.Log(s))*pmath.Exp(-(lf-2.8)*(lf-2.8)/30))
	}
	return
}

// MeanEdges is the mean of E_l, the edges explored in level l ≥ 1 (eq. 2.5),
// before the truncation to the remaining budget. Level 0 explores dr edges.
func MeanEdges(s, fe float64, l, dr int, set CoeffSet) float64 {
	if l == 0 {
		return float64(dr)
	}
	A, B, C := MeanCoeffs(s, fe, l, set)
	x := pmath.Log(float64(dr))
	return pmath.Exp(A*x*x + B*x + C)
}

// SigmaCoeffs are D, F, G, H, J, K of eqs. 2.11–2.16 evaluated at level l.
func SigmaCoeffs(s, fe float64, l int) (D, F, G, H, J, K float64) {
	lf := float64(l)
	D = 0.002*s - 0.14 - (0.015*s-0.285)*(0.56+0.033*fe)*(lf-1)
	F = 0.97 - (lf-1)*(4.438-0.168*s)*(0.83+0.01*fe)
	G = ((2.1+lf)*(5.35+0.093*s) - 13.625) * (1.23 - (2.9+0.69*lf)/fe)
	H = math.Exp2(lf) * (0.011 + 0.00012*fe) * pmath.Exp(1.7-s/10)
	J = 1 - pmath.Exp((1-0.012*fe)*(9.55-1.3*lf-s*(0.6-0.1*lf)))
	K = 13*(0.062*s-0.046)*(2-0.24*lf) - J
	return
}

// f1 is eq. 2.9 and f2 eq. 2.10, both at level l.
func f1(s, fe float64, l, dr int) float64 {
	D, F, G, _, _, _ := SigmaCoeffs(s, fe, l)
	x := pmath.Log(float64(dr))
	return D*x*x + F*x + G
}

func f2(s, fe float64, l, dr int) float64 {
	_, _, _, H, J, K := SigmaCoeffs(s, fe, l)
	return K/pmath.Pow(float64(dr), H) + J
}

// SigmaEdges is the standard deviation of E_l for level l ≥ 1 (eq. 2.17).
// Note the level arguments inside the max: level 2 uses f1 at levels 1 and 2,
// level 3 uses f1 at level 2 and f2 at level 4. Level 0 has no spread.
func SigmaEdges(s, fe float64, l, dr int) float64 {
	var ls float64
	switch {
	case l <= 0:
		return 0
	case l == 1:
		ls = f1(s, fe, 1, dr)
	case l == 2:
		ls = math.Max(f1(s, fe, 1, dr), f1(s, fe, 2, dr))
	case l == 3:
		ls = math.Max(f1(s, fe, 2, dr), f2(s, fe, 4, dr))
	default:
		ls = f2(s, fe, l, dr)
	}
	return pmath.Exp(ls)
}

// RootDegreeParams are the μ and σ of ln dr (eqs. 2.18–2.19, used as the
// parameters of the underlying normal as FOGSim does): μ = s·ln 0.3604 +
// 1.0661704·s, σ = 0.079313065·s.
func RootDegreeParams(s int) (mu, sigma float64) {
	sf := float64(s)
	return sf*pmath.Log(0.3604) + 1.0661704*sf, 0.079313065 * sf
}

// RootDegree turns a standard normal draw z into a root degree: the lognormal
// sample pmath.Exp(μ + σz) rounded up, at least 1 and at most 2^s (the vertices).
func RootDegree(s int, z float64) int {
	mu, sigma := RootDegreeParams(s)
	d := math.Ceil(pmath.Exp(mu + sigma*z))
	return int(math.Max(1, math.Min(d, math.Ldexp(1, min(s, 40)))))
}

// Normal is a standard normal draw (Box–Muller, one value per call).
func Normal(r *rng.Stream) float64 {
	u1 := 1 - r.Float64() // (0, 1]
	u2 := r.Float64()
	return math.Sqrt(-2*pmath.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// QueriesPerProcess is eq. 2.2: the queries one process sends in a level that
// explores e edges, e/n·(n−1)/n.
func QueriesPerProcess(e float64, n int) float64 {
	return e / float64(n) * float64(n-1) / float64(n)
}

// Destinations is n′ of eq. 2.3, the distinct destinations q uniformly
// addressed queries reach, rounded down and at least 1 (as FOGSim does, so
// that eq. 2.4 gives a whole number of messages).
func Destinations(n int, q float64) int64 {
	nf := float64(n)
	return max(1, int64(math.Floor(nf*(1-pmath.Pow(1-1/nf, q)))))
}

// Messages is m of eq. 2.4: the messages a process sends for q queries,
// ⌈q/(cs·n′)⌉·n′ (0 for no query).
func Messages(q int64, n, cs int) int64 {
	if q <= 0 {
		return 0
	}
	nd := Destinations(n, float64(q))
	return (q + int64(cs)*nd - 1) / (int64(cs) * nd) * nd
}

// NextMessageQueries splits the queries still to send over the messages still
// to send: full messages of cs queries while the rest can still give every
// remaining message one query, then an even split, rounded up (FOGSim).
func NextMessageQueries(queriesLeft, messagesLeft int64, cs int) int64 {
	if messagesLeft <= 0 {
		return 0
	}
	if queriesLeft >= int64(cs)+messagesLeft-1 {
		return int64(cs)
	}
	return max(1, (queriesLeft+messagesLeft-1)/messagesLeft)
}

// MessagePhits is the size of a full message of cs queries on the links:
// ⌈cs/QueriesPerPacket⌉ packets of PacketPhits phits.
func (p Params) MessagePhits() int {
	qpp := max(1, p.QueriesPerPacket)
	return p.PacketPhits * ((p.Coalescing + qpp - 1) / qpp)
}

// InjectionProbability is eq. 2.20: the load a node offers while generating,
// ps·tc/(tq·cs) phits per cycle, with ps the message size in phits and tq in
// cycles (tc = 1), clamped to 1 phit per cycle. raw is the unclamped value;
// with tq = 0 (nodes that compute instantly) or so small that the quotient
// overflows it is unbounded, reported as the largest float64 (a result is
// JSON, which has no infinity).
func InjectionProbability(messagePhits int, tqCycles float64, cs int) (pinj, raw float64) {
	if tqCycles <= 0 {
		return 1, math.MaxFloat64
	}
	raw = math.Min(float64(messagePhits)/(tqCycles*float64(cs)), math.MaxFloat64)
	return math.Min(1, raw), raw
}

// EstimateCycles is a rough duration of a job of n processes, for progress
// bars: the larger of the network time (its packets at 0.65 phits/(node·
// cycle)) and the CPU time (tq per query sent and received), plus about 5
// levels of synchronisation (2n packets per process and level).
func EstimateCycles(p Params, n int) int64 {
	q := TotalQueriesPerProcess(p.Scale, p.EdgeFactor, n)
	packets := q/float64(max(1, p.QueriesPerPacket)) + 10*float64(n)
	net := packets * float64(p.PacketPhits) / 0.65
	cpu := 2 * q * p.TqCycles
	return int64(math.Max(net, cpu)) + 1
}

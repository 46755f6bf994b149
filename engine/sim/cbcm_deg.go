package sim

import (
	"math"
	"math/bits"

	"phitsim/engine/rng"
)

// cbDeg is the contention degree CBCM's detector keeps per entry — an
// output port for the per-output detector (cbcm.go), a (router,
// destination) pair for early detection (cbcm_early.go), Kim et al.,
// "Contention-based Congestion Management in Large-Scale Networks" §IV-B1
// and §VI-A — and its window: the degree as runs of equal values (a ring
// of rn (start, value, running total) per entry: the window's cycles and
// one before; lazy, a bound interval more), the bound intervals' max − min
// (a ring of nb per entry), accounted through out[p].at at a change of its
// degree or a read (lazy: counted from the runs at a read that needs them,
// out[p].at the last interval counted), so that an entry costs nothing
// while its degree stands. A run's running total is the degree summed
// over every cycle before its start, so the window's sum is the difference
// of two totals read when the entry is read (windowSum), not kept at each
// change. A sample adds requests to
// the static part (stat, requests that need no draw) or the drawn part
// (pick), touching the entry; settle makes the touched entries' sums their
// degrees.
type cbDeg struct {
	ns, bsi int64 // samples (window cycles), bound interval
	nb, rn  int
	// lazy (the per-output detector): the bound intervals are not
	// accounted at each change but counted from the runs when a read
	// needs them (boundDiff: a window sum past the limit), each closed
	// interval once, the ring holding a bound interval more of runs
	lazy  bool
	runs  []cbRun
	out   []cbOut
	diffs []int32
	// apart (early detection, whose test is the plain form's floating-point
	// expression of MA(max) and MA(min) apart): the closed intervals' max
	// too (a ring of nb per entry; its sum in cbOut.sMax, the min's being
	// sMax − sDiff)
	maxs    []int32
	stat    []int32 // the static part: requests that need no draw
	pick    []int32 // the drawn part: this cycle's (the plain layout), the standing picks (router.voq)
	stamp   []int64 // touched at now1 = stamp
	touched []int32
	picked  []int32 // entries drawn last cycle: back to stat now
	now1    int64   // the cycle being sampled + 1 (stamp); after its sample, −(cycle + 1)
	// hq: a degree above it is high — an entry whose degree stayed at
	// or below hq through a window cannot pass its limit there (the
	// per-output detector's eval); cbOut.hiAt, its last high cycle
	hq int32
}

// cbRun is a run of equal degrees: its first cycle, its degree and the
// degree summed over every cycle before it (its running total).
type cbRun struct {
	s, v int32
	c    int64
}

// cbOut is an entry's contention state: its degree in effect (cur) since
// its newest run (head; tail: a run no later than the one holding the
// oldest cycle of the window), its bound intervals accounted through cycle
// at: the open bound interval's min and max, the closed intervals' Σ(max −
// min) (apart: and Σ max); sum, the window's sum at its last read. Ring
// indices fit 16 bits (rn ≤ cbcmSamples + 2 ≤ 10,002), cycles 31 (as a
// run's start): 64 bytes.
type cbOut struct {
	at, sum, sDiff, sMax int64
	end                  int64 // the open interval's last cycle
	cur, lo, hi          int32
	hiAt                 int32 // the last cycle its degree was above hq (or later)
	head, tail           int16
	slot                 int16 // the open interval's slot in diffs (its index mod nb)
	cong                 bool
}

// init makes np entries of degree 0 for a window of ns cycles and bound
// intervals of bsi cycles (lazy: recounted from the runs when read).
func (d *cbDeg) init(np, ns, bsi int, apart, lazy bool) {
	nb := ns / bsi
	d.nb, d.rn = nb, ns+2 // a run per cycle at most: the window's, the one before, the new one
	if lazy {
		d.rn += bsi // the closed intervals reach up to bsi − 2 cycles before the window
	}
	d.ns, d.bsi, d.lazy = int64(ns), int64(bsi), lazy
	d.runs = make([]cbRun, np*d.rn)
	d.out, d.diffs = make([]cbOut, np), make([]int32, np*nb)
	for p := range np {
		d.runs[p*d.rn].s = math.MinInt32 // degree 0 since before the start
		d.out[p].at, d.out[p].lo, d.out[p].end = -1, math.MaxInt32, d.bsi-1
		d.out[p].hiAt = math.MinInt32
	}
	d.hq = math.MaxInt32
	if apart {
		d.maxs = make([]int32, np*nb)
	}
	d.stat, d.pick = make([]int32, np), make([]int32, np)
	d.stamp = make([]int64, np)
}

// begin starts the sample of cycle now: last cycle's draws end.
func (d *cbDeg) begin(now int64) {
	d.now1 = now + 1
	for _, p := range d.picked {
		d.touch(int(p))
	}
	d.picked = d.picked[:0]
}

// settle ends the sample of cycle now: a touched entry whose static and
// drawn parts changed its degree starts a run; redraw (the plain layout,
// which draws every request anew each cycle) empties the drawn parts.
func (d *cbDeg) settle(now int64, redraw bool) {
	stat := d.stat
	pick, out := d.pick[:len(stat)], d.out[:len(stat)]
	for _, p := range d.touched {
		if x := stat[p] + pick[p]; x != out[p].cur {
			if d.lazy {
				d.shiftRun(int(p), now, x-out[p].cur)
			} else {
				d.setDegree(int(p), now, x)
			}
		}
	}
	if redraw {
		for _, p := range d.touched {
			d.pick[p] = 0
		}
	}
	d.touched = d.touched[:0]
	d.now1 = -(now + 1) // touched after the sample (an event's insReq, delReq): for the next one
}

// touch puts entry p among those whose degree this cycle's sample sets.
func (d *cbDeg) touch(p int) {
	if d.stamp[p] != d.now1 {
		d.stamp[p] = d.now1
		d.touched = append(d.touched, int32(p))
	}
}

// draw adds w to entry p's degree for this cycle only.
func (d *cbDeg) draw(p int, w int32) {
	d.pick[p] += w
	d.touch(p)
	d.picked = append(d.picked, int32(p))
}

// setDegree makes x entry p's degree from cycle t on: the bound intervals
// are accounted through t − 1, and a new run starts, its running total the
// head's plus the head's cycles at its degree (a run started at t takes
// the new degree: a cycle's changes may come one by one, drawInputs). The
// ring holds a run per cycle at most: when it is full, the run after its
// tail starts a window or more before t, so the tail run is one no read
// can need (a read is at t or later), and the new run takes its slot.
func (d *cbDeg) setDegree(p int, t int64, x int32) {
	if !d.lazy {
		o := &d.out[p]
		if int64(d.runs[p*d.rn+int(o.head)].s) != t { // a new run: account the bound intervals through t − 1 first
			switch {
			case t-1 <= o.at:
			case t-1 < o.end: // the common step: no bound interval closes
				o.lo, o.hi, o.at = min(o.lo, o.cur), max(o.hi, o.cur), t-1
			default:
				d.intervals(p, o, t-1)
			}
		}
	}
	d.setRun(p, t, x)
}

// setRun starts entry p's new run at degree x from cycle t: the whole of
// setDegree for a lazy entry, whose bound intervals are counted at the
// reads (boundDiff), and its last step for the others.
func (d *cbDeg) setRun(p int, t int64, x int32) { d.shiftRun(p, t, x-d.out[p].cur) }

// shiftRun starts entry p's new run at its degree plus dx from cycle t
// (setRun's work, taking the change: a drawing input's pick moving
// changes two entries by 1).
func (d *cbDeg) shiftRun(p int, t int64, dx int32) {
	o := &d.out[p]
	rn, cur := d.rn, o.cur // read once: the stores below could alias them otherwise
	base := p * rn
	x := cur + dx
	hr := &d.runs[base+int(o.head)]
	s := int64(hr.s)
	if s == t { // changed again in the cycle its run starts
		hr.v, o.cur = x, x
		return
	}
	if cur > d.hq { // its run through t − 1 was high
		o.hiAt = int32(t - 1)
	}
	h := int(o.head) + 1
	if h == rn {
		h = 0
	}
	if h == int(o.tail) {
		nt := h + 1
		if nt == rn {
			nt = 0
		}
		o.tail = int16(nt)
	}
	d.runs[base+h] = cbRun{s: int32(t), v: x, c: hr.c + (t-s)*int64(cur)}
	o.head, o.cur = int16(h), x
}

// addRun adds dx to lazy entry p's drawn part and degree from cycle t on
// (a drawing input's pick moving).
func (d *cbDeg) addRun(p int, t int64, dx int32) {
	d.pick[p] += dx
	d.shiftRun(p, t, dx)
}

// windowSum is entry p's window sum through cycle t (at or after its last
// change and its last read): the running total through t less the one
// through t − ns, the latter read from the run holding that cycle (the
// tail moves up to it; the reads come in cycle order).
func (d *cbDeg) windowSum(p int, o *cbOut, t int64) int64 {
	rn := d.rn
	runs := d.runs[p*rn : (p+1)*rn]
	h := int(o.head)
	through := runs[h].c + (t-int64(runs[h].s)+1)*int64(o.cur)
	c := t - d.ns // the last cycle before the window
	keep := c     // the tail: the run holding it
	if d.lazy {   // or the first cycle of the closed bound intervals still to count (boundDiff)
		keep = min(c, max(o.at+1, (t+1)/d.bsi-int64(d.nb))*d.bsi)
	}
	j := int(holding(runs, uint(o.tail), uint(h), keep))
	o.tail = int16(j)
	if keep < c {
		j = int(holding(runs, uint(j), uint(h), c))
	}
	r := &runs[j]
	return through - (r.c + (c-int64(r.s)+1)*int64(r.v))
}

// holding is the index of the run of the ring runs holding cycle x: the
// last from j on, up to h, that starts at x or before (j's does). The
// ring's part after j is walked first when h lies before j (wrapped),
// so that no step tests for the ring's end or the slice's bounds.
func holding(runs []cbRun, j, h uint, x int64) uint {
	end := h
	if h < j { // to the ring's end, then from its start
		end = uint(len(runs)) - 1
	}
	for {
		rs := runs[:end+1]
		for i := j + 1; i < uint(len(rs)); i++ {
			if int64(rs[i].s) > x {
				return i - 1
			}
		}
		if end == h || int64(runs[0].s) > x {
			return end
		}
		j, end = 0, h
	}
}

// boundDiff is entry p's Σ(max − min) over the nb bound intervals closed
// by cycle t (lazy): the intervals closed since the last count (o.at, the
// last counted) are counted from its runs into their slots of the ring
// (index mod nb), each once; the tail holds the first of them (windowSum
// at t first). An interval's max − min is over its cycles' degrees;
// intervals before cycle 0 are at degree 0, as their slots.
func (d *cbDeg) boundDiff(p int, o *cbOut, t int64) int64 {
	bsi, nb := d.bsi, int64(d.nb)
	kl := (t+1)/bsi - 1 // the last interval closed by t
	if kl <= o.at {
		return o.sDiff
	}
	rn := d.rn
	runs := d.runs[p*rn : (p+1)*rn]
	ds := d.diffs[p*d.nb : (p+1)*d.nb]
	h := uint(o.head)
	j := uint(o.tail)
	for k := max(o.at+1, kl-nb+1, 0); k <= kl; k++ { // interval k: cycles k·bsi … (k+1)·bsi − 1
		c0 := k * bsi
		j = holding(runs, j, h, c0)
		lo, hi := runs[j].v, runs[j].v
		// the runs starting inside it, walked as holding walks (to the
		// ring's end, then from its start)
		x, end := c0+bsi-1, h
		if h < j {
			end = uint(len(runs)) - 1
		}
		for {
			rs := runs[:end+1]
			i := j + 1
			for ; i < uint(len(rs)) && int64(rs[i].s) <= x; i++ {
				lo, hi = min(lo, rs[i].v), max(hi, rs[i].v)
			}
			j = i - 1
			if i <= end || end == h || int64(runs[0].s) > x {
				break
			}
			j, end = 0, h
			lo, hi = min(lo, runs[0].v), max(hi, runs[0].v)
		}
		e := &ds[k%nb]
		o.sDiff += int64(hi - lo - *e)
		*e = hi - lo
	}
	o.at = kl
	return o.sDiff
}

// account brings entry p's window sum and bound intervals through cycle t
// (its degree constant since its last change).
func (d *cbDeg) account(p int, o *cbOut, t int64) {
	o.sum = d.windowSum(p, o, t)
	if d.lazy {
		d.boundDiff(p, o, t)
		return
	}
	d.intervals(p, o, t)
}

// intervals brings entry p's bound intervals through cycle t, its degree
// constant since o.at: the open interval's min and max take the degree,
// and the intervals that close take their max − min (0 for an interval of
// one degree; apart, their max too: the degree for an interval of one
// degree).
func (d *cbDeg) intervals(p int, o *cbOut, t int64) {
	if t <= o.at {
		return
	}
	x := o.cur
	// the open interval holds the cycles from its start through at
	lo, hi := min(o.lo, x), max(o.hi, x)
	if t >= o.end { // it closes, and the ones wholly inside at+1…t
		bsi := d.bsi
		if t < o.end+bsi && d.maxs == nil { // it alone (the common case)
			e := &d.diffs[p*d.nb+int(o.slot)]
			o.sDiff += int64(hi - lo - *e)
			*e = hi - lo
			if o.slot++; int(o.slot) == d.nb {
				o.slot = 0
			}
			o.end += bsi
			lo, hi = math.MaxInt32, 0
			if t > o.end-bsi { // the new open interval's cycles through t
				lo, hi = x, max(0, x)
			}
			o.lo, o.hi, o.at = lo, hi, t
			return
		}
		n := (t-o.end)/bsi + 1
		ds := d.diffs[p*d.nb : (p+1)*d.nb]
		if n > int64(d.nb) { // the open one is out of the window, the rest lie in the run: 0
			clear(ds)
			o.sDiff = 0
			if d.maxs != nil {
				mx := d.maxs[p*d.nb : (p+1)*d.nb]
				for i := range mx {
					mx[i] = x
				}
				o.sMax = int64(d.nb) * int64(x)
			}
			o.slot = int16((int64(o.slot) + n) % int64(d.nb))
		} else {
			if d.maxs != nil {
				d.closeMax(p, o, n, hi, x)
			}
			dd := hi - lo
			for range n {
				e := &ds[o.slot]
				o.sDiff += int64(dd - *e)
				*e, dd = dd, 0
				if o.slot++; int(o.slot) == d.nb {
					o.slot = 0
				}
			}
		}
		o.end += n * bsi
		lo, hi = math.MaxInt32, 0
		if t > o.end-bsi { // the new open interval's cycles through t
			lo, hi = x, max(0, x)
		}
	}
	o.lo, o.hi, o.at = lo, hi, t
}

// closeMax closes n bound intervals of entry p from its open one on
// (apart): the first's max hi, the others' (wholly inside a run) x.
func (d *cbDeg) closeMax(p int, o *cbOut, n int64, hi, x int32) {
	mx := d.maxs[p*d.nb : (p+1)*d.nb]
	i := int(o.slot)
	for range n {
		o.sMax += int64(hi - mx[i])
		mx[i], hi = hi, x
		if i++; i == d.nb {
			i = 0
		}
	}
}

// cbReqs is, under router.voq, every input's requests as entries of a
// cbDeg — the outputs its heads request (the per-output detector), the
// (router, destination) pairs of its heads (early detection) — changed
// only by an arrival or a grant there: kept by the event (insReq, delReq:
// the per-output detector's data queues) or read again at the next sample
// (dirty: the inputs whose requests may have changed otherwise, a head
// still on its way from its node among them): an
// input with one request (or every request, weighted: w/v each) adds to
// its entries' static degree, and one with 2 or more draws one request
// each cycle (Kim et al. §IV-B1, "one request from each input is randomly
// selected"), in the order of the plain scan (ascending router, ascending
// input), its pick standing until a draw picks another entry.
type cbReqs struct {
	reqs          []int32 // per input, qs: its requests' entries in queue order
	extra         []bool  // per input: an extra queue was busy at its last read (its requests read again at every event)
	qs, radix     int
	w             int32 // one request's weight (1; weighted: lcm 1…16)
	dirty, dirty2 []int32
	isDirty       []bool
	dm            []uint64      // a bit per input of 2 or more requests (it draws)
	in            []cbIn        // per input: its requests' count and standing pick
	rs            []*rng.Stream // per router, the stream its inputs draw from
}

// cbIn is an input's request count and, while it draws, the entry its
// last draw picked (−1: none), side by side for the draws.
type cbIn struct {
	cpk int32
	nc  int16
}

// initReqs makes the lists of np inputs of up to qs requests each, on the
// routers of radix inputs that rs lists (their inputs' draws' streams), a
// request weighing w.
func (q *cbReqs) initReqs(np, qs, radix int, w int32, rs []*rng.Stream) {
	q.qs, q.radix, q.w, q.rs = qs, radix, w, rs
	q.reqs, q.in, q.isDirty = make([]int32, np*qs), make([]cbIn, np), make([]bool, np)
	q.dm = make([]uint64, (np+63)/64)
	q.extra = make([]bool, np)
	for pi := range q.in {
		q.in[pi].cpk = -1
	}
}

// dirtyIn marks input pi: its requests may have changed.
func (q *cbReqs) dirtyIn(pi int) {
	if !q.isDirty[pi] {
		q.isDirty[pi] = true
		q.dirty = append(q.dirty, int32(pi))
	}
}

// takeDirty is the inputs to read again this cycle; those that stay dirty
// while they are read (dirtyIn) are read the next cycle. The caller gives
// the slice back (doneDirty) once read.
func (q *cbReqs) takeDirty() []int32 {
	dirty := q.dirty
	q.dirty = q.dirty2[:0]
	for _, pi := range dirty {
		q.isDirty[pi] = false
	}
	return dirty
}

func (q *cbReqs) doneDirty(dirty []int32) { q.dirty2 = dirty[:0] }

// drop takes input pi's requests off d before they are read again into
// its list (reqs[pi·qs:]); setReqs then puts its n requests on.
func (q *cbReqs) drop(d *cbDeg, pi int) { q.contribute(d, pi, -1) }

func (q *cbReqs) setReqs(d *cbDeg, pi, n int) {
	q.in[pi].nc = int16(n)
	q.contribute(d, pi, 1)
}

// insReq puts a request for entry e into input pi's list, whose requests
// are all its data queues' (a data queue's entry grows with its index, so
// the list in queue order is in entry order, and requests for one entry
// are alike). An input of 2 or more requests before and after keeps its
// standing pick (not weighted): the next sample's draw sets its entries'
// degrees as a list read again would.
func (q *cbReqs) insReq(d *cbDeg, pi int, e int32) {
	n := int(q.in[pi].nc)
	if q.w != 1 {
		q.drop(d, pi)
	}
	reqs := q.reqs[pi*q.qs : pi*q.qs+n+1]
	j := n
	for ; j > 0 && reqs[j-1] > e; j-- {
		reqs[j] = reqs[j-1]
	}
	reqs[j] = e
	switch {
	case q.w != 1:
		q.setReqs(d, pi, n+1)
		return
	case n == 0:
		d.stat[e]++
		d.touch(int(e))
	case n == 1: // its one request starts to draw
		o := reqs[1-j]
		d.stat[o]--
		d.touch(int(o))
		q.setMulti(pi)
	}
	q.in[pi].nc = int16(n + 1)
}

// delReq takes a request for entry e off input pi's list (as insReq: its
// requests all its data queues'); false: none.
func (q *cbReqs) delReq(d *cbDeg, pi int, e int32) bool {
	n := int(q.in[pi].nc)
	reqs := q.reqs[pi*q.qs : pi*q.qs+n]
	j := 0
	for j < n && reqs[j] != e {
		j++
	}
	if j == n {
		return false
	}
	if q.w != 1 {
		q.drop(d, pi)
	}
	for ; j < n-1; j++ {
		reqs[j] = reqs[j+1]
	}
	switch {
	case q.w != 1:
		q.setReqs(d, pi, n-1)
		return true
	case n == 1:
		d.stat[e]--
		d.touch(int(e))
	case n == 2: // its other request no longer draws
		q.clearMulti(d, pi)
		o := reqs[0]
		d.stat[o]++
		d.touch(int(o))
	}
	q.in[pi].nc = int16(n - 1)
	return true
}

// contribute adds (sign 1) or removes (−1) input pi's requests: to their
// entries' static degree, or to its router's inputs that draw.
func (q *cbReqs) contribute(d *cbDeg, pi int, sign int32) {
	n := int(q.in[pi].nc)
	if n == 0 {
		return
	}
	switch {
	case q.w != 1:
		w := sign * (q.w / int32(n))
		for _, p := range q.reqs[pi*q.qs : pi*q.qs+n] {
			d.stat[p] += w
			d.touch(int(p))
		}
	case n == 1:
		p := int(q.reqs[pi*q.qs])
		d.stat[p] += sign
		d.touch(p)
	case sign > 0:
		q.setMulti(pi)
	default:
		q.clearMulti(d, pi)
	}
}

// setMulti puts input pi among the inputs that draw.
func (q *cbReqs) setMulti(pi int) { q.dm[pi>>6] |= 1 << (pi & 63) }

// clearMulti takes input pi off the inputs that draw, and its standing
// pick off its entry.
func (q *cbReqs) clearMulti(d *cbDeg, pi int) {
	q.dm[pi>>6] &^= 1 << (pi & 63)
	q.unpick(d, pi)
}

// draws is whether input pi draws (2 or more requests, not weighted).
func (q *cbReqs) draws(pi int) bool { return q.dm[pi>>6]&(1<<(pi&63)) != 0 }

// unpick takes input pi's standing pick off its entry.
func (q *cbReqs) unpick(d *cbDeg, pi int) {
	if p := q.in[pi].cpk; p >= 0 {
		d.pick[p]--
		d.touch(int(p))
		q.in[pi].cpk = -1
	}
}

// drawInputs draws a request of each input of 2 or more (not weighted),
// from its router's stream, at cycle t: a pick that moves changes its two
// entries' degrees at once (setDegree), not through settle.
func (q *cbReqs) drawInputs(d *cbDeg, t int64) {
	if q.w != 1 {
		return
	}
	var st *rng.Stream
	end := 0                  // the first input after st's router
	for w, im := range q.dm { // the drawing inputs, ascending
		for ; im != 0; im &= im - 1 {
			pi := w<<6 | bits.TrailingZeros64(im)
			if pi >= end { // its router's stream
				r := pi / q.radix
				st, end = q.rs[r], (r+1)*q.radix
			}
			in := &q.in[pi]
			i, _ := bits.Mul64(st.Uint64(), uint64(in.nc)) // st.Intn(nc), inlined
			if p := q.reqs[pi*q.qs+int(i)]; p != in.cpk {
				o := in.cpk
				in.cpk = p
				if d.lazy {
					if o >= 0 {
						d.addRun(int(o), t, -1)
					}
					d.addRun(int(p), t, 1)
					continue
				}
				if o >= 0 {
					d.pick[o]--
					d.setDegree(int(o), t, d.out[o].cur-1)
				}
				d.pick[p]++
				d.setDegree(int(p), t, d.out[p].cur+1)
			}
		}
	}
}

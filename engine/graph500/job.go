package graph500

import (
	"math"
	"phitsim/engine/pmath"
	"strconv"

	"phitsim/engine/result"
	"phitsim/engine/rng"
)

// Kind of a job packet.
type Kind uint8

const (
	None      Kind = iota // not a job packet (background traffic)
	Query                 // point-to-point query message (or a part of one)
	Signal                // end-of-level notification ("I stopped sending")
	Reduce                // all-reduce: reduction to the root host
	Bcast                 // all-reduce: broadcast from the root host
	BcastLast             // the broadcast that ends the BFS
)

// Net is the network as the job sees it. Send tries to inject one packet from
// process src to process dst in the current cycle and reports false when the
// injection buffer has no room (the process retries in a later cycle). The
// network hands every delivered job packet back with Job.Deliver.
type Net interface {
	Send(src, dst int, k Kind, level int, queries int64) bool
}

// Params of a job, in simulator units.
type Params struct {
	Scale, EdgeFactor int
	Coalescing        int     // cs: queries per full message
	QueriesPerPacket  int     // queries one packet carries (≥ 1); a message is ⌈queries/this⌉ packets
	PacketPhits       int     // phits per packet
	TqCycles          float64 // computation per query, cycles
	CycleNs           float64 // for the report
	Coeffs            CoeffSet
	LevelSampling     bool // one Gaussian draw per level instead of one per process
	Bernoulli         bool // geometric message computation times (eq. 2.20 per cycle) instead of exactly tq per query
	ReduceAfterWork   bool // enter the all-reduce only once the received queries are processed
	BudgetCap         bool // cap every draw (not only the mean) at the remaining budget
	RootDegree        int  // 0: drawn (eqs. 2.18–2.19)
	MaxLevels         int
	TailLevel         int
	TailFraction      float64
	Interval          int64 // usage time-series bucket, cycles
}

// process states
const (
	stSend     uint8 = iota // computing and injecting query messages
	stSignal                // sending end-of-level signals
	stWait                  // waiting for the other processes' signals and messages
	stReduce                // sending the reduction to the root host
	stRootWait              // root host: waiting for the reductions
	stBcast                 // root host: broadcasting
	stIdle                  // waiting for the broadcast
	stDone
)

const never = math.MaxInt64

type proc struct {
	cpuFree     float64 // the CPU has processed everything queued by this cycle
	queriesLeft int64   // this level
	msgsLeft    int64
	msgQ        int64 // queries of the current message not yet in a packet
	recv        [2]int64
	qIn         int64    // queries delivered to this process, all levels
	redQ        [2]int64 // root host: Σ qIn the reductions of a level carried
	level       int32
	dst         int32
	msgPkts     int32 // packets of the current message still to inject
	msgSize     int32 // packets of the current message
	next        int32 // signal / broadcast index
	signals     [2]int32
	reduces     [2]int32
	state       uint8
	rng         rng.Stream
}

// Job is one Graph500 BFS over n processes: the closed-loop, level-by-level
// state machine of thesis §2.2.2 (Fig. 2.11) with the details of FOGSim's
// graph500Generator.cc (signals, all-reduce, level-0 root). Each
// level: every process computes and sends its query messages to uniformly
// random other processes (computing tq per query, and not generating while it
// processes received queries), then an end-of-level signal to every other
// process; once it has all signals and every announced message, it joins the
// all-reduce (reduce to the root host, then broadcast), which ends the level.
// The BFS ends when the query budget is used (or the level limits hit).
type Job struct {
	p      Params
	n      int
	net    Net
	root   int
	dr     int
	procs  []proc
	wake   []int64    // per process: next cycle it has something to do
	expect [2][]int64 // per level parity and destination: query packets sent to it
	rng    rng.Stream

	total, remaining float64 // query budget
	mean, sigma, x   float64 // of the level being started
	limit            float64 // the remaining budget in edges, when the level started
	last             bool    // the level being closed is the last one
	levels           []result.Graph500Level
	bcasts           []int // broadcasts delivered per level
	finals           int
	done             bool
	doneAt           int64

	// a partitioned run (shard.go): the processes this copy steps (nil:
	// all), where a raise of another partition's expected count goes, and
	// who hears of the root's decisions; per level the cycle of the last
	// broadcast delivered here, the cycle of the last final one, the
	// cycle the root decided the BFS ends (−1 before), the decisions
	// known here (by level closed)
	mine    []int32
	raise   func(dst, par int) bool
	decided func(Decision)
	bcastAt []int64
	finalAt int64
	lastAt  int64
	decs    []Decision
	cur     int // the level whose decision mean, sigma, x and limit hold (−1: none)

	sent, delivered, phits int64
	queries, messages      int64
	queriesIn              int64   // queries delivered
	msgHist                []int64 // messages sent, by their number of packets
	qPkts, syncPkts        int64
	series                 []int64 // phits delivered per interval
	latSum                 int64   // the network's latency of the packets delivered (Latency)
}

// streamKind names the job's random streams (rng kinds 1–3 belong to the
// engine's components).
const streamKind uint64 = 0x67353030

// NewJob creates the job, draws the root host and degree, and starts level 0
// at cycle 0. Every process draws from its own stream, so results do not
// depend on the order in which the simulator calls them.
func NewJob(p Params, n int, net Net, seed uint64) *Job {
	j := &Job{p: p, n: n, net: net, procs: make([]proc, n), wake: make([]int64, n),
		rng: rng.New(seed, streamKind, 1<<32)}
	j.expect[0], j.expect[1] = make([]int64, n), make([]int64, n)
	for r := range j.procs {
		j.procs[r].rng = rng.New(seed, streamKind, uint64(r))
	}
	if j.p.Interval <= 0 {
		j.p.Interval = 1000
	}
	j.root = j.rng.Intn(n)
	j.dr = p.RootDegree
	if j.dr <= 0 {
		j.dr = RootDegree(p.Scale, Normal(&j.rng))
	}
	j.total = TotalQueries(p.Scale, p.EdgeFactor, n)
	j.remaining = j.total
	j.levels = []result.Graph500Level{{Level: 0, Mean: float64(j.dr)}}
	j.bcasts = []int{0}
	j.bcastAt, j.finalAt, j.lastAt, j.cur = []int64{0}, 0, -1, -1
	for r := 0; r < n; r++ {
		j.enterLevel(r, 0, 0)
	}
	return j
}

// Root is the process hosting the root vertex; RootDegree its degree.
func (j *Job) Root() int       { return j.root }
func (j *Job) RootDegree() int { return j.dr }

// QueriesDelivered counts the queries of the query packets delivered so far.
func (j *Job) QueriesDelivered() int64 { return j.queriesIn }

// MessagePackets counts the messages sent so far by their number of packets
// (index k: messages of k packets; a full message of cs queries takes
// ⌈cs/QueriesPerPacket⌉).
func (j *Job) MessagePackets() []int64 { return append([]int64(nil), j.msgHist...) }

// Message reports whether process r's next packet (the one it is sending)
// opens a message, and that message's size in packets: a query message's
// ⌈queries/QueriesPerPacket⌉; a signal, reduction or broadcast is a
// message of one packet. A network interface that queues messages whole
// (per-destination source queues) learns their boundaries from it.
func (j *Job) Message(r int) (first bool, packets int) {
	if p := &j.procs[r]; p.state == stSend {
		return p.msgPkts == p.msgSize, int(p.msgSize)
	}
	return true, 1
}

// Done reports whether the BFS has ended, and the cycle of the last delivery.
func (j *Job) Done() bool     { return j.done }
func (j *Job) DoneAt() int64  { return j.doneAt }
func (j *Job) Params() Params { return j.p }

// Step runs every process that has something to do at cycle now.
func (j *Job) Step(now int64) {
	if j.mine != nil { // a partition's processes, in increasing order
		for _, r := range j.mine {
			if j.wake[r] <= now {
				j.step(int(r), now)
			}
		}
		return
	}
	for r, w := range j.wake {
		if w <= now {
			j.step(r, now)
		}
	}
}

func (j *Job) sendsSignals(r, l int) bool { return l > 0 || r == j.root }

func (j *Job) expectedSignals(r, l int) int32 {
	if l > 0 {
		return int32(j.n - 1)
	}
	if r == j.root {
		return 0
	}
	return 1
}

func ceilCycle(x float64) int64 { return int64(math.Ceil(x)) }

// send injects a packet and counts it.
func (j *Job) send(src, dst int, k Kind, level int, q int64, now int64) bool {
	if !j.net.Send(src, dst, k, level, q) {
		return false
	}
	j.sent++
	j.phits += int64(j.p.PacketPhits)
	lv := &j.levels[level]
	if k == Query {
		j.qPkts++
		lv.QueryPackets++
		j.queries += q
		lv.Queries += q
	} else {
		j.syncPkts++
		lv.SyncPackets++
	}
	return true
}

// sampleEdges draws the level's explored edges from N(mean, σ), redrawn while
// negative (FOGSim).
func (j *Job) sampleEdges(r *rng.Stream) float64 {
	x := j.mean
	if j.sigma > 0 && !math.IsNaN(j.sigma) {
		x = 0
		for i := 0; i < 1000; i++ {
			if y := j.mean + j.sigma*Normal(r); y >= 0 {
				x = y
				break
			}
		}
	}
	if j.p.BudgetCap {
		x = math.Min(x, j.limit)
	}
	return x
}

// enterLevel starts level l at process r: how many queries and messages it
// sends (eqs. 2.2–2.4 on a Gaussian draw of E_l; level 0: the root host sends
// ⌈dr·(n−1)/n⌉ queries), then its first message.
func (j *Job) enterLevel(r, l int, now int64) {
	p := &j.procs[r]
	p.level = int32(l)
	o := (l + 1) & 1 // the parity of level l+1: level l−1's counters, now finished
	p.recv[o], p.signals[o], p.reduces[o], p.redQ[o] = 0, 0, 0, 0
	j.expect[o][r] = 0
	if !j.p.ReduceAfterWork {
		p.cpuFree = math.Min(p.cpuFree, float64(now)) // FOGSim: pending work is dropped at level start
	}
	n := float64(j.n)
	var q int64
	if l == 0 {
		if r == j.root {
			q = int64(math.Ceil(float64(j.dr) * (n - 1) / n))
		}
	} else {
		x := j.x
		if !j.p.LevelSampling {
			x = j.sampleEdges(&p.rng)
		}
		// FOGSim's small-level rule: only a fraction 1−(1−1/n)^Q of the
		// processes send; each sender takes Q/n′ of the level's queries
		qtot := x * (n - 1) / n
		psend := 1 - pmath.Pow(1-1/n, qtot)
		if psend >= 1 || p.rng.Float64() < psend {
			nsrc := math.Max(1, math.Floor(n*psend))
			q = int64(math.Ceil(qtot / nsrc))
		}
	}
	p.queriesLeft = q
	p.msgsLeft = Messages(q, j.n, j.p.Coalescing)
	p.next = 0
	switch {
	case p.msgsLeft > 0:
		p.state = stSend
		j.prepare(r, now)
		return
	case j.sendsSignals(r, l):
		p.state = stSignal
	default:
		p.state = stWait
	}
	j.wake[r] = now
}

// prepare starts computing the next message of process r: its destination,
// its queries, and the cycle it is ready to inject.
func (j *Job) prepare(r int, now int64) {
	p := &j.procs[r]
	d := p.rng.Intn(j.n - 1)
	if d >= r {
		d++
	}
	p.dst = int32(d)
	q := NextMessageQueries(p.queriesLeft, p.msgsLeft, j.p.Coalescing)
	p.msgQ = q
	qpp := int64(j.p.QueriesPerPacket)
	p.msgPkts = int32((q + qpp - 1) / qpp)
	p.msgSize = p.msgPkts
	t := float64(now)
	if j.p.Bernoulli {
		// one trial per free cycle with probability 1/(tq·q): eq. 2.20 for a
		// full message (q = cs). The uniform is drawn even when the
		// probability is 1, so that the model's later draws (destinations,
		// level samples) do not depend on tq or the cycle time: runs that
		// differ only in node or link speed send the same messages.
		u := p.rng.Float64()
		g := 1.0
		if pr := 1 / (j.p.TqCycles * float64(q)); pr < 1 {
			g = math.Max(1, math.Ceil(pmath.Log(1-u)/pmath.Log(1-pr)))
		}
		p.cpuFree = math.Max(p.cpuFree, t) + g
	} else {
		// the CPU went on with this message when the last one left (at
		// cpuFree, if it was not held back by a full injection buffer)
		start := t
		if p.cpuFree > t-1 {
			start = p.cpuFree
		}
		p.cpuFree = start + j.p.TqCycles*float64(q)
	}
	j.wake[r] = max(now+1, ceilCycle(p.cpuFree))
}

func (j *Job) step(r int, now int64) {
	p := &j.procs[r]
	l := int(p.level)
	par := l & 1
	for {
		switch p.state {
		case stSend:
			if float64(now) < p.cpuFree {
				j.wake[r] = ceilCycle(p.cpuFree)
				return
			}
			q := min(p.msgQ, int64(j.p.QueriesPerPacket))
			if !j.send(r, int(p.dst), Query, l, q, now) {
				j.wake[r] = now + 1
				return
			}
			// the destination waits for this many query packets; in a
			// partitioned run a raise for another partition's process
			// travels beside the packets (shard.go)
			if j.raise == nil || !j.raise(int(p.dst), par) {
				j.expect[par][p.dst]++
			}
			p.msgQ -= q
			p.queriesLeft -= q
			p.msgPkts--
			if p.msgPkts > 0 {
				j.wake[r] = now + 1
				return
			}
			p.msgsLeft--
			j.messages++
			for int(p.msgSize) >= len(j.msgHist) {
				j.msgHist = append(j.msgHist, 0)
			}
			j.msgHist[p.msgSize]++
			j.levels[l].Messages++
			if p.msgsLeft > 0 {
				j.prepare(r, now)
				return
			}
			p.next = 0
			p.state = stWait
			if j.sendsSignals(r, l) {
				p.state = stSignal
			}
			j.wake[r] = now + 1
			return
		case stSignal:
			// signals are generated too: not while received queries are processed
			if float64(now) < p.cpuFree {
				j.wake[r] = ceilCycle(p.cpuFree)
				return
			}
			d := (r + 1 + int(p.next)) % j.n
			if !j.send(r, d, Signal, l, 0, now) {
				j.wake[r] = now + 1
				return
			}
			p.next++
			if int(p.next) == j.n-1 {
				p.state = stWait
			}
			j.wake[r] = now + 1
			return
		case stWait:
			if p.signals[par] < j.expectedSignals(r, l) || p.recv[par] < j.expect[par][r] {
				j.wake[r] = never
				return
			}
			if j.p.ReduceAfterWork && float64(now) < p.cpuFree {
				j.wake[r] = ceilCycle(p.cpuFree)
				return
			}
			if r == j.root {
				p.state = stRootWait
			} else {
				p.state = stReduce
			}
		case stReduce:
			// the reduction carries the queries delivered here so far:
			// the root host's sum is every query delivered (all of this
			// level's have arrived), hence the budget that remains
			if !j.send(r, j.root, Reduce, l, p.qIn, now) {
				j.wake[r] = now + 1
				return
			}
			p.state = stIdle
			j.wake[r] = never
			return
		case stRootWait:
			if int(p.reduces[par]) < j.n-1 {
				j.wake[r] = never
				return
			}
			j.decide(l, p.redQ[par]+p.qIn, now)
			p.next = 0
			p.state = stBcast
		case stBcast:
			k := Bcast
			if j.last {
				k = BcastLast
			}
			d := (r + 1 + int(p.next)) % j.n
			if !j.send(r, d, k, l, 0, now) {
				j.wake[r] = now + 1
				return
			}
			p.next++
			j.wake[r] = now + 1
			if int(p.next) == j.n-1 {
				if j.last {
					p.state = stDone
					j.wake[r] = never
				} else {
					j.enterLevel(r, l+1, now)
				}
			}
			return
		default: // stIdle, stDone
			j.wake[r] = never
			return
		}
	}
}

// decide closes level l at the root host: either the BFS ends, or the next
// level's mean (truncated to the remaining budget) and σ are set.
func (j *Job) decide(l int, delivered, now int64) {
	p := j.p
	// the budget that remains: the total less every query delivered, all
	// integers (exact in a float64 below 2^53, so the same value the
	// deliveries' running difference gives)
	j.remaining = j.total - float64(delivered)
	j.last = j.remaining <= 0 || l+1 >= p.MaxLevels ||
		(l >= p.TailLevel && j.remaining <= p.TailFraction*j.total)
	if j.last {
		j.lastAt = now
		return
	}
	n := float64(j.n)
	s, fe := float64(p.Scale), float64(p.EdgeFactor)
	j.mean = MeanEdges(s, fe, l+1, j.dr, p.Coeffs)
	j.limit = math.Ceil(j.remaining * n / (n - 1))
	if !(j.mean <= j.limit) { // also NaN
		j.mean = j.limit
	}
	j.sigma = SigmaEdges(s, fe, l+1, j.dr)
	if p.LevelSampling {
		j.x = j.sampleEdges(&j.rng)
	}
	j.levels = append(j.levels, result.Graph500Level{Level: l + 1, Mean: j.mean, Sigma: j.sigma})
	j.bcasts = append(j.bcasts, 0)
	j.bcastAt = append(j.bcastAt, 0)
	d := Decision{Level: l, Mean: j.mean, Sigma: j.sigma, X: j.x, Limit: j.limit}
	j.decs = append(j.decs, d)
	j.cur = l
	if j.decided != nil {
		j.decided(d)
	}
}

// Deliver hands a job packet to process r at cycle now.
func (j *Job) Deliver(r int, k Kind, level int, queries int64, now int64) {
	p := &j.procs[r]
	par := level & 1
	j.delivered++
	b := int(now / j.p.Interval)
	for len(j.series) <= b {
		j.series = append(j.series, 0)
	}
	j.series[b] += int64(j.p.PacketPhits)
	switch k {
	case Query:
		p.recv[par]++
		p.qIn += queries
		j.queriesIn += queries
		// half duplex: the CPU processes the queries before generating again
		p.cpuFree = math.Max(p.cpuFree, float64(now)) + j.p.TqCycles*float64(queries)
	case Signal:
		p.signals[par]++
	case Reduce:
		p.reduces[par]++
		p.redQ[par] += queries
	case Bcast, BcastLast:
		j.bcasts[level]++
		j.bcastAt[level] = now
		if j.bcasts[level] == j.n-1 {
			j.levels[level].End = now
		}
		if k == BcastLast {
			p.state = stDone
			j.wake[r] = never
			j.finals++
			j.finalAt = now
			if j.finals == j.n-1 {
				j.done, j.doneAt = true, now
			}
		} else {
			j.enterLevel(r, level+1, now)
		}
		return
	}
	if p.state == stWait || p.state == stRootWait {
		j.wake[r] = min(j.wake[r], now)
	}
}

// Latency adds a delivered job packet's latency in the network (cycles,
// as the network measures it), for the mean in the report: the job's own
// traffic class beside any synthetic traffic on the other nodes.
func (j *Job) Latency(cycles int64) { j.latSum += cycles }

// Report summarises the job at cycle now (the end of the run, or any time).
func (j *Job) Report(now int64) *result.Graph500 {
	p := j.p
	g := &result.Graph500{Finished: j.done, Status: "finished", Processes: j.n, RootDegree: j.dr,
		CycleNs: p.CycleNs, TqCycles: p.TqCycles, Budget: j.total,
		Queries: j.queries, Messages: j.messages, QueryPackets: j.qPkts, SyncPackets: j.syncPkts,
		PacketsSent: j.sent, PacketsDelivered: j.delivered,
		Edges: math.Ldexp(float64(p.EdgeFactor), p.Scale)}
	g.Pinj, g.PinjRaw = InjectionProbability(p.MessagePhits(), p.TqCycles, p.Coalescing)
	if j.delivered > 0 {
		g.PacketLatency = float64(j.latSum) / float64(j.delivered)
	}
	g.Cycles = now
	if j.done {
		g.Cycles = j.doneAt + 1
	} else {
		cur := len(j.levels) - 1
		g.Status = "did not finish: stopped at cycle " + strconv.FormatInt(now, 10) + " (the cycle cap) in level " + strconv.Itoa(cur)
	}
	g.Seconds = float64(g.Cycles) * p.CycleNs * 1e-9
	if g.Cycles > 0 {
		g.Usage = float64(j.phits) / (float64(j.n) * float64(g.Cycles))
	}
	if g.Seconds > 0 && j.done {
		g.TEPS = g.Edges / g.Seconds
	}
	g.Levels = append([]result.Graph500Level(nil), j.levels...)
	start := int64(0)
	for i := range g.Levels {
		lv := &g.Levels[i]
		lv.Start = start
		lv.MessagesPerProcess = float64(lv.Messages) / float64(j.n)
		if lv.End > 0 {
			lv.Cycles = lv.End + 1 - start
			lv.Seconds = float64(lv.Cycles) * p.CycleNs * 1e-9
			start = lv.End + 1
		}
	}
	// usage series, at most ~500 points
	k := int64(1)
	for int64(len(j.series))/k > 500 {
		k *= 2
	}
	span := p.Interval * k
	for b := int64(0); b*k < int64(len(j.series)); b++ {
		var ph int64
		for i := b * k; i < min((b+1)*k, int64(len(j.series))); i++ {
			ph += j.series[i]
		}
		end := min((b+1)*span, g.Cycles)
		if w := end - b*span; w > 0 {
			g.Series = append(g.Series, result.UsageSample{Cycle: end, Usage: float64(ph) / (float64(j.n) * float64(w))})
		}
	}
	return g
}

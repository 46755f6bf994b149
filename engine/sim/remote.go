package sim

// The partitioned run across memories: the partitions of parallel.go, each
// in its own Sim built from the run's configuration and seed (every one
// builds the same network), sharing no memory with the others or with the
// coordinator. What the shared-memory engine reads from the other
// partitions' outboxes and counters at a barrier travels here as bytes: a
// window's crossings and credits, the per-cycle watchdog data and stuck
// flag, and, where the coordinator looks at the whole network, the
// partition's counters, its ports' phits, live count and last progress.
// The coordinator (RunRemote) makes the barrier's decisions as runParallel
// does; the result is the sequential engine's, byte for byte. Web Workers
// (wasm/worker) are the hosts: separate wasm instances, separate memories.
// engine/PARALLEL.md, "Across memories".

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"time"
	"unsafe"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"

	"phitsim/engine/result"
)

// Link carries one partition's messages: Send hands it a command, Recv
// waits for its answer (one answer per command but close). A message is
// the sender's to give away: neither side touches it after Send.
type Link interface {
	Send(msg []byte) error
	Recv() ([]byte, error)
}

// the commands, their first byte
const (
	opStart  = 1 + iota // n, p, window, stuck-head bound, snapshot interval: the partition splits
	opWindow            // step to a cycle after taking the crossings; answer the window's
	opGather            // answer the partition's state (and, last, its out-of-order pairs)
	opClose             // no answer: the run is over
)

// answer status, the first byte of an answer
const (
	ansOK  = 0
	ansErr = 1
)

// Partition is one partition of a remote run, on its host: its own Sim,
// stepping only its routers and nodes.
type Partition struct {
	full *Sim // built by the host from the run's configuration and seed
	s    *Sim // its shard: partition p of full (nil before opStart)
	p, n int
	sink counters // takes (and so zeroes) the counts sent to the coordinator
	// QCN-Switch (remote_qcn.go): the control packets sent across the cut
	// in the last window, and the trace's snapshots already sent
	ctlFlight int64
	traceSent int
	// ECN and CBCM (remote_mech.go): the words of the partition's flows'
	// bits (busy) as last sent
	busySent []uint64
	// the outboxes' encoding and the crossings' decoding, reused window
	// after window (sendBytes, receiveBytes)
	out enc
	in  dec
}

// NewPartition makes s, a Sim fresh from New with the run's configuration
// and seed, partition p of a remote run. The coordinator's first command
// says how many partitions the run has.
func NewPartition(s *Sim, p int) (*Partition, error) {
	if s.now != 0 || s.live != 0 {
		return nil, errors.New("remote partition: the simulation has already run")
	}
	return &Partition{full: s, p: p}, nil
}

// Handle answers one command of the coordinator; done is true once the
// coordinator closed the run (then there is no answer).
func (pt *Partition) Handle(cmd []byte) (answer []byte, done bool) {
	if len(cmd) > 0 && cmd[0] == opClose {
		return nil, true
	}
	ans, err := pt.handle(cmd)
	if err != nil {
		e := &enc{b: []byte{ansErr}}
		e.str(fmt.Sprintf("partition %d: %v", pt.p, err))
		return e.b, false
	}
	return ans, false
}

func (pt *Partition) handle(cmd []byte) (out []byte, err error) {
	defer func() { // a panic in a window is the run's error, not the host's end
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	if len(cmd) == 0 {
		return nil, errors.New("empty command")
	}
	d := &dec{b: cmd[1:]}
	e := &enc{b: []byte{ansOK}}
	switch cmd[0] {
	case opStart:
		if pt.s != nil {
			return nil, errors.New("started twice")
		}
		n, p, win := int(d.i()), int(d.i()), d.i()
		age, mask, every := d.i(), d.i(), d.i()
		if d.err != nil {
			return nil, d.err
		}
		if p != pt.p || n < 2 || p >= n {
			return nil, fmt.Errorf("start: partition %d of %d, but this host is partition %d", p, n, pt.p)
		}
		f := pt.full
		if why := f.remoteBlocker(); why != "" {
			return nil, errors.New("start: not partitionable: " + why)
		}
		// the detector's bound and a watched run's snapshots (remote_own.go)
		pt.detector(age, mask)
		if err := pt.watch(every); err != nil {
			return nil, err
		}
		r0, n0, owner, L, ok := f.split(n)
		if !ok {
			return nil, errors.New("start: the groups' routers or nodes are not numbered contiguously")
		}
		pt.n = n
		pt.s = f.shard(p, n, r0, n0, owner, max(win, L))
		pt.s.ownRecords() // remote_own.go
		pt.sink = pt.s.st.partitionCopy()
	case opWindow:
		s := pt.s
		if s == nil {
			return nil, errors.New("window before start")
		}
		to, W, M, gather := d.i(), d.i(), d.i(), d.i() != 0
		for q := 0; q < pt.n && d.err == nil; q++ {
			if q != pt.p {
				s.receiveBytes(&pt.in, d.bytes())
			}
		}
		if d.err != nil {
			return nil, d.err
		}
		s.W, s.M = W, M
		from := s.now
		if s.rn != nil { // the window's lines allocated (recnWindowState)
			s.rn.rc.px.from = from
		}
		if to <= from || to-from > int64(len(s.xp.lp)) {
			return nil, fmt.Errorf("window to cycle %d from %d: longer than %d cycles", to, from, len(s.xp.lp))
		}
		s.stepTo(to)
		e.i(s.xp.stuckAt)
		for i := range to - from {
			e.i(s.xp.lp[i])
			e.i(s.xp.live[i])
		}
		s.recnWindowState(e, to-from) // remote_recn.go
		pt.wlWindow(e)                // a Graph500 job's finals (remote_graph500.go)
		pt.ctlFlight = 0
		for r := 0; r < pt.n; r++ {
			if r != pt.p {
				for i := range s.xp.packets[s.xp.bank][r] {
					if s.xp.packets[s.xp.bank][r][i].tag.mech != 0 {
						pt.ctlFlight++
					}
				}
				e.section(s.sendBytes(&pt.out, r))
			}
		}
		if s.snap != nil && s.snap.snapDue(to) {
			pt.snapState(e, to-1)
		}
		if gather {
			pt.state(e, false)
		}
	case opGather:
		if pt.s == nil {
			return nil, errors.New("gather before start")
		}
		order := d.i() != 0
		pt.state(e, order)
		if s := pt.s; order && s.snap != nil && s.now != s.snap.last { // the last, shorter interval
			s.snapPartition()
			pt.snapState(e, s.now)
		}
	default:
		return nil, fmt.Errorf("unknown command %d", cmd[0])
	}
	return e.b, d.err
}

// state writes what the coordinator's gather takes from this partition:
// its cycle, live count, last progress and clock, its counters (then
// zeroed, as absorb zeroes a shard's), its ports' phits and its late
// packets; with order, the (source, destination) pairs it saw out of
// order.
func (pt *Partition) state(e *enc, order bool) {
	s := pt.s
	e.i(s.now)
	e.i(s.live)
	e.i(s.lastProgress)
	e.i(s.clock)
	countWalk(reflect.ValueOf(&s.st).Elem(), func(a reflect.Value) {
		switch a.Kind() {
		case reflect.Slice:
			e.i(int64(a.Len()))
			for i := range a.Len() {
				e.i(a.Index(i).Int())
			}
		default:
			e.i(a.Int())
		}
	})
	pt.sink.absorb(&s.st)
	// its ports' phits, by router range (a fat tree's partition has a
	// range per level: rMore)
	ranges := append([]int{s.r0, s.r1}, s.rMore...)
	e.i(int64(len(ranges) / 2))
	for i := 0; i < len(ranges); i += 2 {
		lo, hi := ranges[i]*s.radix, ranges[i+1]*s.radix
		e.i(int64(lo))
		e.i(int64(hi))
		for _, v := range s.st.linkPhits[lo:hi] {
			e.i(v)
		}
	}
	pt.acorState(e, ranges)
	pt.qcnState(e)
	pt.mechState(e)
	s.recnState(e) // remote_recn.go
	pt.wlState(e)
	var late int64
	if s.ord != nil {
		late = s.ord.late
		s.ord.late = 0
	}
	e.i(late)
	if order && s.ord != nil {
		// bad is set by the destination's partition only: every pair
		// marked here is this partition's
		for f, b := range s.ord.bad {
			if b {
				e.i(int64(f))
			}
		}
	}
	e.i(-1)
}

// countWalk calls f on every count of the counters v (addressable): the
// integer fields, the elements of integer arrays (as settable values) and
// the []int64 slices, of v and of the structs it points to, in field
// order, and ACOR-Switch's routers by level ([]int32: sLevels, trLevels);
// the per-port phits and link counts are left out (the phits go per
// partition port range, the links are the network's), and so is group
// 0's routers' levels (trGroup: each partition's own routers' entries,
// acorState). It reaches every count absorb merges, and settings besides,
// which both sides hold equal: a counter added to the counters travels
// without a change here.
func countWalk(v reflect.Value, f func(a reflect.Value)) {
	for i := 0; i < v.NumField(); i++ {
		t, a := v.Type().Field(i), v.Field(i)
		a = reflect.NewAt(a.Type(), unsafe.Pointer(a.UnsafeAddr())).Elem() // settable
		switch k := t.Type.Kind(); {
		case k == reflect.Int || k == reflect.Int64 || k == reflect.Int32:
			f(a)
		case k == reflect.Array && t.Type.Elem().Kind() == reflect.Int64:
			for j := range a.Len() {
				f(a.Index(j))
			}
		case t.Type == reflect.TypeOf([]int64(nil)):
			if t.Name != "linkPhits" && t.Name != "links" {
				f(a)
			}
		case t.Type == reflect.TypeOf([]int32(nil)):
			// ACOR-Switch's routers by level, per interval and per
			// transient bin (acorCopy, acorAbsorb); the other []int32
			// (the hotspot's senders) are settings
			if t.Name == "sLevels" || t.Name == "trLevels" {
				f(a)
			}
		case k == reflect.Pointer && t.Type.Elem().Kind() == reflect.Struct && !a.IsNil():
			countWalk(a.Elem(), f)
		}
	}
}

// sendBytes is this partition's outbox for partition r, encoded into e's
// buffer, reused (the caller copies it before the next call), and emptied:
// the packets that crossed the cut in the window, in the order sent, then
// the credits.
func (s *Sim) sendBytes(e *enc, r int) []byte {
	x := s.xp
	e.b = e.b[:0]
	ps, cs := x.packets[x.bank][r], x.credits[x.bank][r]
	e.i(int64(len(ps)))
	for i := range ps {
		c := &ps[i]
		e.i(int64(c.pi))
		e.i(int64(c.vc))
		e.i(int64(c.seq))
		if s.rn != nil {
			e.i(int64(c.rseq))
		}
		e.tag(c.tag)
		e.flag(c.flag)
		e.i(c.acc)
		e.packet(&c.pk)
		s.wlMetaBytes(e, c.meta)
	}
	e.i(int64(len(cs)))
	for _, c := range cs {
		e.i(c.at)
		e.i(int64(c.e))
	}
	s.recnMsgBytes(e, r) // remote_recn.go
	s.wlSideBytes(e, r)  // a Graph500 job's raises and decisions (remote_graph500.go)
	x.packets[x.bank][r], x.credits[x.bank][r] = ps[:0], cs[:0]
	return e.b
}

// receiveBytes is receive for one sending partition's outbox, encoded
// (sendBytes): the packets into this partition's pool and arrival wheel,
// the credits into its credit wheel, in the order sent. Before the first
// window nothing was sent: b is empty. d is the decoder, reused.
func (s *Sim) receiveBytes(d *dec, b []byte) {
	if len(b) == 0 {
		return
	}
	d.b, d.err = b, nil
	for range d.count() {
		pi, vc, seq := int32(d.i()), int32(d.i()), uint32(d.i())
		var rseq uint32
		if s.rn != nil {
			rseq = uint32(d.i())
		}
		tag := d.tag()
		flag := d.flag()
		acc := d.i()
		var pk packet
		d.packet(&pk)
		meta := s.wlMetaFrom(d)
		if d.err != nil {
			break
		}
		k := s.alloc()
		s.live-- // counted by its sender (packetOut)
		s.pk[k] = pk
		s.ctlIn(k, tag)
		s.pktFlagIn(k, flag)
		s.pktAccIn(k, acc)
		s.wlIn(k, meta)
		if s.ord != nil {
			s.ord.number(k, seq)
		}
		if s.rn != nil { // RECN's number of it in its pair
			s.rn.recnNumber(k, rseq)
		}
		slot := pk.entry & s.wheelMask
		s.arrivals[slot] = append(s.arrivals[slot], uint64(pi)<<(32+qBits)|uint64(vc)<<32|uint64(uint32(k)))
	}
	for range d.count() {
		at, e := d.i(), int32(d.i())
		if d.err != nil {
			break
		}
		slot := at & s.wheelMask
		s.creditsIn[slot] = append(s.creditsIn[slot], e)
	}
	s.recnMsgsFrom(d) // remote_recn.go
	s.wlSideFrom(d)
	if d.err != nil {
		panic("crossings: " + d.err.Error())
	}
}

// packet writes every field of pk (packetFields lists them for the test
// that checks none is missed).
func (e *enc) packet(pk *packet) {
	for _, v := range [...]int64{int64(pk.src), int64(pk.dst), int64(pk.dstRouter), int64(pk.inter),
		pk.gen, pk.entry, pk.inj, pk.reqLat, int64(pk.outPort), int64(pk.vc), int64(pk.outVC),
		int64(pk.nextPos), int64(pk.vcPos), int64(pk.replyVC), int64(pk.lhops), int64(pk.ghops),
		int64(pk.flags), int64(pk.dstGroup), int64(pk.aux), int64(pk.mis), int64(pk.mech)} {
		e.i(v)
	}
}

// packetFields is the number of fields (enc).packet writes.
const packetFields = 21

func (d *dec) packet(pk *packet) {
	pk.src, pk.dst, pk.dstRouter, pk.inter = int32(d.i()), int32(d.i()), int32(d.i()), int32(d.i())
	pk.gen, pk.entry, pk.inj, pk.reqLat = d.i(), d.i(), d.i(), d.i()
	pk.outPort, pk.vc, pk.outVC = int16(d.i()), int16(d.i()), int8(d.i())
	pk.nextPos, pk.vcPos, pk.replyVC = int8(d.i()), int8(d.i()), int8(d.i())
	pk.lhops, pk.ghops, pk.flags = uint8(d.i()), uint8(d.i()), uint8(d.i())
	pk.dstGroup, pk.aux, pk.mis, pk.mech = uint16(d.i()), int32(d.i()), uint8(d.i()), uint16(d.i())
}

// RunRemote is Run with the partitions behind links (one per host;
// partition p behind links[p]): each host holds its own Sim built from
// this run's configuration and seed (NewPartition), and this Sim is the
// coordinator, which steps nothing while the run is partitioned. A
// configuration the partitioned engine does not cover runs here
// sequentially with the note Run gives it. Every link is closed at the
// end. The result is Run's, byte for byte.
func (s *Sim) RunRemote(ctx context.Context, onProgress func(Progress), links []Link) (*result.Result, error) {
	start := time.Now()
	defer CloseLinks(links)
	s.initDetector()
	if len(links) > 1 {
		if s.seqNote = s.remoteBlocker(); s.seqNote == "" {
			return s.runRemote(ctx, onProgress, start, links)
		}
	}
	res, err := s.runSeq(ctx, onProgress, start)
	if res != nil && s.seqNote != "" {
		res.Sequential = s.seqNote
	}
	return res, err
}

// Unpartitioned is why this run would not be partitioned (the note a
// partitioned Run or RunRemote gives its result), "" when it would: a host
// that splits runs across workers runs such a one on one worker instead.
func (s *Sim) Unpartitioned() string { return s.remoteBlocker() }

// remoteBlocker is parallelBlocker for partitions in memories of their own:
// the shared-memory engine's reasons. Everything the shared-memory engine
// partitions travels as bytes (ACOR-Switch's levels: remote_acor.go;
// QCN-Switch's tags and counts: remote_qcn.go; ECN's, Ideal's and CBCM's
// counts, control packets and flags: remote_mech.go; the snapshots:
// remote_snapshot.go). A state added to the shared-memory engine that the
// coordinator reads needs a reason here until it does.
func (s *Sim) remoteBlocker() string {
	if why := s.parallelBlocker(); why != "" {
		return why
	}
	return ""
}

// remoteWindowHook, when set (tests), changes the remote window's length,
// as windowHook does the shared-memory one's.
var remoteWindowHook func(L int64) int64

// runRemote is runParallel's loop with the partitions behind links.
func (s *Sim) runRemote(ctx context.Context, onProgress func(Progress), start time.Time, links []Link) (*result.Result, error) {
	n := min(len(links), s.partitionKeys())
	allow := s.cfg.PartitionAllowance()
	if per := s.partitionBytes(); per > 0 {
		n = min(n, 1+int(allow/per))
	}
	seq := func(note string) (*result.Result, error) {
		s.seqNote = note
		res, err := s.runSeq(ctx, onProgress, start)
		if res != nil {
			res.Sequential = s.seqNote
		}
		return res, err
	}
	if n < 2 {
		return seq(fmt.Sprintf("a partition's copy of the statistics and event wheels (%.1f MiB: sim.interval, sim.histMax, router.outputBuffer) exceeds the %.1f MiB the memory estimate allows a partitioned run",
			float64(s.partitionBytes())/(1<<20), float64(allow)/(1<<20)))
	}
	_, _, _, L, ok := s.split(n)
	if !ok {
		return seq("the groups' routers or nodes are not numbered contiguously")
	}
	win := L
	if remoteWindowHook != nil {
		win = remoteWindowHook(L)
	}
	links = links[:n]
	// round sends each partition its command and collects the answers
	round := func(cmd func(p int) []byte) ([]*dec, error) {
		for p, l := range links {
			if err := l.Send(cmd(p)); err != nil {
				return nil, fmt.Errorf("partition %d: %w", p, err)
			}
		}
		ans := make([]*dec, n)
		var first error
		for p, l := range links {
			b, err := l.Recv()
			switch {
			case err != nil:
				err = fmt.Errorf("partition %d: %w", p, err)
			case len(b) == 0:
				err = fmt.Errorf("partition %d: empty answer", p)
			case b[0] == ansErr:
				d := &dec{b: b[1:]}
				if err = errors.New(d.str()); d.err != nil {
					err = fmt.Errorf("partition %d: an error answer: %w", p, d.err)
				}
			}
			if err != nil {
				first = firstErr(first, err)
				continue
			}
			ans[p] = &dec{b: b[1:]}
		}
		return ans, first
	}
	if _, err := round(func(p int) []byte {
		e := &enc{b: []byte{opStart}}
		e.i(int64(n))
		e.i(int64(p))
		e.i(max(win, L))
		e.i(s.dl.age)
		e.i(s.dl.mask)
		every := int64(0)
		if s.snap != nil {
			every = s.snap.every
		}
		e.i(every)
		return e.b
	}); err != nil {
		return nil, err
	}
	tmp := make([]counters, n) // each partition's counts, decoded, for absorb
	for p := range tmp {
		tmp[p] = s.st.partitionCopy()
	}
	// gatherFrom takes partition states (state) into this Sim's counters,
	// ports' phits, live count, last progress and clock, as gather does
	gatherFrom := func(ans []*dec, order bool) error {
		var live int64
		if s.acor.level != nil {
			s.acor.perLevel = [3]int32{} // acorGather's sum (acorFrom)
		}
		if s.qc != nil {
			s.mech.live = 0 // qcnGather's sum (qcnFrom)
		}
		s.mechZero() // ECN's and CBCM's (mechFrom)
		s.recnZero() // RECN's (recnFrom)
		for p, d := range ans {
			now := d.i()
			live += d.i()
			s.lastProgress = max(s.lastProgress, d.i())
			s.clock = max(s.clock, d.i())
			countWalk(reflect.ValueOf(&tmp[p]).Elem(), func(a reflect.Value) {
				if a.Kind() == reflect.Slice {
					if l := d.i(); l != int64(a.Len()) && d.err == nil {
						d.err = fmt.Errorf("partition %d: a count slice of %d, want %d", p, l, a.Len())
					}
					for i := range a.Len() {
						a.Index(i).SetInt(d.i())
					}
					return
				}
				a.SetInt(d.i())
			})
			var routers []int
			for k := d.count(); k > 0 && d.err == nil; k-- {
				lo, hi := int(d.i()), int(d.i())
				if d.err == nil && (lo < 0 || hi > len(s.st.linkPhits) || lo > hi || lo%s.radix != 0 || hi%s.radix != 0) {
					d.err = fmt.Errorf("partition %d: ports [%d, %d)", p, lo, hi)
				}
				routers = append(routers, lo/s.radix, hi/s.radix)
				if d.err != nil {
					return d.err
				}
				for pi := lo; pi < hi; pi++ {
					s.st.linkPhits[pi] = d.i()
				}
			}
			if d.err != nil {
				return d.err
			}
			if err := s.acorFrom(d, p, routers); err != nil {
				return err
			}
			if err := s.qcnFrom(d, p); err != nil {
				return err
			}
			if err := s.mechFrom(d, p); err != nil {
				return err
			}
			if err := s.recnFrom(d, p); err != nil {
				return err
			}
			if err := s.wlFrom(d, p, n); err != nil {
				return err
			}
			if late := d.i(); s.ord != nil {
				s.ord.late += late
			}
			for f := d.i(); f >= 0 && d.err == nil; f = d.i() {
				if order && s.ord != nil && int(f) < len(s.ord.bad) {
					s.ord.bad[f] = true
				}
			}
			if d.err != nil {
				return d.err
			}
			if order && s.snap != nil && now != s.snap.last { // the last, shorter interval
				if err := s.snapFrom(d, p); err != nil {
					return err
				}
			}
			s.st.absorb(&tmp[p])
			s.now = now
		}
		s.live = live
		return nil
	}
	gather := func(order bool) error {
		ans, err := round(func(int) []byte {
			e := &enc{b: []byte{opGather}}
			if order {
				e.i(1)
			} else {
				e.i(0)
			}
			return e.b
		})
		if err != nil {
			return err
		}
		return gatherFrom(ans, order)
	}
	// the crossings of the last window, by sender q and receiver p
	cross := make([][][]byte, n)
	for q := range cross {
		cross[q] = make([][]byte, n)
	}
	const every = 1024
	for {
		end := s.W + s.M
		if s.now >= end {
			if err := gather(false); err != nil {
				return nil, err
			}
			if !s.extend() {
				break
			}
			continue
		}
		from := s.now
		to := min(from+win, end)
		if s.msr.next > from {
			to = min(to, s.msr.next)
		}
		to = s.snapWindowEnd(from, to)
		to = s.wlWindowEnd(from, to) // not past a Graph500 job's end
		warm := to == s.msr.next
		prog := from/every != to/every && onProgress != nil
		ans, err := round(func(p int) []byte {
			e := &enc{b: []byte{opWindow}}
			e.i(to)
			e.i(s.W)
			e.i(s.M)
			g := int64(0)
			if warm || prog {
				g = 1
			}
			e.i(g)
			for q := range n {
				if q != p {
					e.section(cross[q][p])
				}
			}
			return e.b
		})
		if err != nil {
			return nil, err
		}
		deadlock := false
		live, lp := make([]int64, to-from), make([]int64, to-from)
		var recnTot []int32 // RECN's lines allocated per cycle (remote_recn.go)
		if s.rn != nil {
			recnTot = make([]int32, to-from)
		}
		for p, d := range ans {
			stuckAt := d.i()
			for i := range to - from {
				lp[i] = max(lp[i], d.i())
				live[i] += d.i()
			}
			// a merge that could not order two RECN messages: the run
			// starts again sequentially, as runParallel's does
			deadlock = s.recnWindowFrom(d, recnTot) || deadlock
			s.wlWindowFrom(d, p, n)
			for r := range n {
				if r != p {
					cross[p][r] = d.bytes()
				}
			}
			if s.snap != nil && s.snap.snapDue(to) && d.err == nil {
				if err := s.snapFrom(d, p); err != nil {
					return nil, err
				}
			}
			if d.err != nil {
				return nil, fmt.Errorf("partition %d: %w", p, d.err)
			}
			// a stuck head in the window (any cycle of it: either way the
			// run starts again sequentially, as runParallel's does)
			deadlock = deadlock || stuckAt >= 0
		}
		// the whole network's checks, cycle by cycle (runParallel)
		for c, chk := from, s.wlEndRemote(n, to); c < chk && !deadlock; c++ {
			i := c - from
			if live[i] > 0 && c+1-lp[i] > s.watchdog {
				deadlock = true
			}
		}
		if deadlock { // the partitions are closed when RunRemote returns
			return s.again(ctx, onProgress, start)
		}
		if s.rn != nil {
			s.recnTotals(from, recnTot)
		}
		s.snapBarrier(to)
		if warm || prog {
			if err := gatherFrom(ans, false); err != nil {
				return nil, err
			}
		}
		s.now = to
		if s.wl != nil && s.wl.done() {
			break
		}
		if s.now == s.msr.next {
			s.checkWarmup()
		}
		if from/every != to/every {
			if ctx != nil && ctx.Err() != nil {
				return nil, ErrCancelled
			}
			if onProgress != nil {
				onProgress(Progress{Cycle: s.now, Total: s.W + s.M})
			}
		}
	}
	if err := gather(true); err != nil {
		return nil, err
	}
	if r := s.snap; r != nil && s.now != r.last { // the last, shorter interval (takeSnapshot)
		nt := &r.out
		nt.Cycle, nt.Interval = s.now, s.now-r.last
		r.last = s.now
		r.notify(nt)
	}
	res := s.Snapshot()
	if s.msr.auto || s.msr.precision > 0 {
		res.Quality = s.assess(res)
	}
	res.CPUSeconds = time.Since(start).Seconds()
	return res, nil
}

func firstErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// CloseLinks tells the partitions behind links that the run is over (a
// run that ends before RunRemote, or after it: a partition closed twice
// ignores the second).
func CloseLinks(links []Link) {
	for _, l := range links {
		l.Send([]byte{opClose})
	}
}

// LocalLink runs partition pt on its own goroutine behind channels of
// bytes: the in-process host (the tests; the coordinator's own partition
// in a Web Worker).
func LocalLink(pt *Partition) Link {
	l := &localLink{in: make(chan []byte, 1), out: make(chan []byte, 1)}
	go func() {
		defer close(l.out) // Recv after the close: an error
		for cmd := range l.in {
			ans, done := pt.Handle(cmd)
			if done {
				return
			}
			l.out <- ans
		}
	}()
	return l
}

type localLink struct {
	in, out chan []byte
	closed  bool
}

func (l *localLink) Send(msg []byte) error {
	if l.closed {
		return nil
	}
	if len(msg) > 0 && msg[0] == opClose {
		l.closed = true
		l.in <- msg
		close(l.in)
		return nil
	}
	l.in <- msg
	return nil
}

func (l *localLink) Recv() ([]byte, error) {
	b, ok := <-l.out
	if !ok {
		return nil, errors.New("closed")
	}
	return b, nil
}

// enc and dec: the messages' encoding, msgpack (the library the page's
// protocol uses, github.com/vmihailenco/msgpack/v5): every value a msgpack
// integer in its shortest form, every section (an outbox inside a command
// or an answer) a msgpack bin. A command's op and an answer's status are
// positive fixints, so a whole message is a msgpack stream any msgpack
// decoder reads (TestRemoteWireMsgpack).
type enc struct {
	b []byte
	m *msgpack.Encoder // writing to the enc (Write, WriteByte): appending to b
}

func (e *enc) Write(p []byte) (int, error) { e.b = append(e.b, p...); return len(p), nil }
func (e *enc) WriteByte(c byte) error      { e.b = append(e.b, c); return nil }

func (e *enc) mp() *msgpack.Encoder {
	if e.m == nil {
		e.m = msgpack.NewEncoder(e)
	}
	return e.m
}

// i writes v as the library's EncodeInt does, in its shortest form. The
// one- to three-byte forms (a fixint: -32 to 127; uint8, uint16, int8,
// int16: -32,768 to 65,535), which nearly every value of a window takes (a
// packet's fields, cycles below 65,536), are appended here without the
// Encoder's interface calls; wider values go through the Encoder.
// TestRemoteWireLibrary checks the forms written here byte for byte
// against the library's over their whole range.
func (e *enc) i(v int64) {
	switch {
	case v >= -32 && v <= math.MaxInt8:
		e.b = append(e.b, byte(v))
	case v >= 0 && v <= math.MaxUint8:
		e.b = append(e.b, msgpcode.Uint8, byte(v))
	case v >= 0 && v <= math.MaxUint16:
		e.b = append(e.b, msgpcode.Uint16, byte(v>>8), byte(v))
	case v >= math.MinInt8 && v < 0:
		e.b = append(e.b, msgpcode.Int8, byte(v))
	case v >= math.MinInt16 && v < 0:
		e.b = append(e.b, msgpcode.Int16, byte(v>>8), byte(v))
	default:
		e.mp().EncodeInt(v) // appending: no error
	}
}

func (e *enc) section(b []byte) {
	e.mp().EncodeBytesLen(len(b))
	e.b = append(e.b, b...)
}

// str writes s as a msgpack str (an error answer's text).
func (e *enc) str(s string) { e.mp().EncodeString(s) }

// dec reads what enc wrote; b is the bytes left. A value of another type,
// or cut short, is an error naming what was read and where, never a panic.
type dec struct {
	b   []byte
	err error
	r   bytes.Reader // b, for m
	m   *msgpack.Decoder
}

// mp is the decoder, reading b.
func (d *dec) mp() *msgpack.Decoder {
	d.r.Reset(d.b)
	if d.m == nil {
		d.m = msgpack.NewDecoder(&d.r)
	}
	return d.m
}

// fail records what could not be read, with the bytes left at it.
func (d *dec) fail(what string, err error) {
	d.err = fmt.Errorf("truncated or malformed message: %s with %d bytes left: %v", what, len(d.b), err)
}

func (d *dec) i() int64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) == 0 {
		d.fail("an integer", io.ErrUnexpectedEOF)
		return 0
	}
	// an integer: a fixint, uint8, uint16, int8 or int16 (read here, as
	// enc writes them) or an int/uint 32 or 64 (DecodeInt64; it takes a
	// nil and floats besides)
	c := d.b[0]
	if msgpcode.IsFixedNum(c) {
		d.b = d.b[1:]
		return int64(int8(c))
	}
	if len(d.b) >= 3 {
		switch b1, b2 := d.b[1], d.b[2]; c {
		case msgpcode.Uint8:
			d.b = d.b[2:]
			return int64(b1)
		case msgpcode.Int8:
			d.b = d.b[2:]
			return int64(int8(b1))
		case msgpcode.Uint16:
			d.b = d.b[3:]
			return int64(uint16(b1)<<8 | uint16(b2))
		case msgpcode.Int16:
			d.b = d.b[3:]
			return int64(int16(uint16(b1)<<8 | uint16(b2)))
		}
	}
	if c < msgpcode.Uint8 || c > msgpcode.Int64 {
		d.fail("an integer", fmt.Errorf("code %#x", c))
		return 0
	}
	v, err := d.mp().DecodeInt64()
	if err != nil {
		d.fail("an integer", err)
		return 0
	}
	d.b = d.b[len(d.b)-d.r.Len():]
	return v
}

// count is a non-negative count no larger than the bytes left (each
// element takes one at least).
func (d *dec) count() int {
	c := d.i()
	if d.err == nil && (c < 0 || c > int64(len(d.b))) {
		d.err = fmt.Errorf("count %d with %d bytes left", c, len(d.b))
	}
	if d.err != nil {
		return 0
	}
	return int(c)
}

// bytes is a section: a bin, its bytes in place (not copied).
func (d *dec) bytes() []byte {
	if d.err != nil {
		return nil
	}
	if len(d.b) == 0 {
		d.fail("a section", io.ErrUnexpectedEOF)
		return nil
	}
	if c := d.b[0]; !msgpcode.IsBin(c) {
		d.fail("a section", fmt.Errorf("code %#x", c))
		return nil
	}
	m := d.mp()
	l, err := m.DecodeBytesLen()
	if err == nil && (l < 0 || l > d.r.Len()) {
		err = fmt.Errorf("%d bytes, %d left", l, d.r.Len())
	}
	if err != nil {
		d.fail("a section", err)
		return nil
	}
	n := len(d.b) - d.r.Len()
	b := d.b[n : n+l : n+l]
	d.b = d.b[n+l:]
	return b
}

// str is a str (an error answer's text).
func (d *dec) str() string {
	if d.err != nil {
		return ""
	}
	if len(d.b) == 0 {
		d.fail("a string", io.ErrUnexpectedEOF)
		return ""
	}
	if c := d.b[0]; !msgpcode.IsString(c) {
		d.fail("a string", fmt.Errorf("code %#x", c))
		return ""
	}
	v, err := d.mp().DecodeString()
	if err != nil {
		d.fail("a string", err)
		return ""
	}
	d.b = d.b[len(d.b)-d.r.Len():]
	return v
}

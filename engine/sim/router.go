package sim

import "phitsim/engine/topology"

// stepRouter runs one cycle of router r: take arrived credits, allocate the
// crossbar (input-first separable allocator, several iterations), then move
// output FIFO heads onto their links.
func (s *Sim) stepRouter(r int) {
	base := r * s.radix
	for pi := base + s.p; pi < base+s.radix; pi++ {
		s.takeCredits(pi)
	}
	now := s.now
	for it := 0; it < s.iters; it++ {
		nouts := 0
		for port := 0; port < s.radix; port++ {
			pi := base + port
			if s.inCount[pi] == 0 || s.inFree[pi] > now {
				continue
			}
			vc, out := s.inputArbitrate(r, pi)
			if vc < 0 {
				continue
			}
			s.reqVC[port] = int8(vc)
			if s.reqN[out] == 0 {
				s.reqOuts[nouts] = int16(out)
				nouts++
			}
			s.reqList[out*s.radix+int(s.reqN[out])] = int16(port)
			s.reqN[out]++
		}
		if nouts == 0 {
			break
		}
		for i := 0; i < nouts; i++ {
			out := int(s.reqOuts[i])
			in := s.outputArbitrate(base, out)
			s.reqN[out] = 0
			s.grant(base+in, int(s.reqVC[in]), base+out)
		}
	}
	if s.ioq {
		for pi := base; pi < base+s.radix; pi++ {
			if s.oLen[pi] > 0 {
				s.drainOutput(r, pi)
			}
		}
	}
}

// takeCredits adds the credits that have arrived at output pi.
func (s *Sim) takeCredits(pi int) {
	for s.cLen[pi] > 0 {
		i := s.cStart[pi] + s.cHead[pi]
		if s.cT[i] > s.now {
			return
		}
		s.credits[pi*s.maxVC+int(s.cVC[i])] += int32(s.P)
		s.cHead[pi]++
		if s.cHead[pi] == s.cCap[pi] {
			s.cHead[pi] = 0
		}
		s.cLen[pi]--
	}
}

// returnCredit sends a credit for VC vc upstream over the link of input pi.
func (s *Sim) returnCredit(pi, vc int) {
	up := int(s.peer[pi]) // the upstream output port
	i := s.cHead[up] + s.cLen[up]
	if i >= s.cCap[up] {
		i -= s.cCap[up]
	}
	s.cT[s.cStart[up]+i] = s.now + s.lat[pi]
	s.cVC[s.cStart[up]+i] = int8(vc)
	s.cLen[up]++
}

// head returns the packet at the head of buffer bi.
func (s *Sim) head(bi int) int32 { return s.qRing[s.qStart[bi]+s.qHead[bi]] }

// canRequest: can the head packet pk (cached route) request its output now?
func (s *Sim) canRequest(base int, pk *packet) bool {
	po := base + int(pk.outPort)
	if s.outFree[po] > s.now {
		return false
	}
	if s.ioq {
		if s.outCap-s.oQueued[po]-int32(max(0, s.txEnd[po]-s.now)) < int32(s.P) {
			return false
		}
	} else if s.txEnd[po] > s.now {
		return false
	}
	if s.class[po] == topology.Injection {
		if pk.flags&fRequest != 0 {
			// protocol-deadlock coupling: a request is consumed only when its
			// reply fits in the node's reply injection VCs
			node := int(pk.dst)
			pk.replyVC = int8(s.chooseVC(node, int(pk.src), true))
			return pk.replyVC >= 0
		}
		return true
	}
	return s.credits[po*s.maxVC+int(pk.outVC)] >= int32(s.P)
}

// inputArbitrate picks the VC of input pi that requests this iteration, and
// its output port; (−1, −1) when none can.
func (s *Sim) inputArbitrate(r, pi int) (int, int) {
	base := r * s.radix
	n := s.vcCount[s.class[pi]]
	best, bestOut := -1, -1
	var bestKey int64
	ptr := int(s.inPtr[pi])
	for v := 0; v < n; v++ {
		bi := pi*s.maxVC + v
		if s.qLen[bi] == 0 {
			continue
		}
		pk := &s.pk[s.head(bi)]
		if pk.entry > s.now {
			continue
		}
		if pk.outPort < 0 {
			s.route(r, pk)
		}
		if !s.canRequest(base, pk) {
			continue
		}
		rr := int64((v - ptr + n) % n)
		var key int64
		switch s.inArb {
		case arbRR:
			key = rr
		case arbLRS:
			key = s.inStamp[bi]
		case arbAge:
			key = pk.gen*int64(n) + rr
		}
		if best < 0 || key < bestKey {
			best, bestKey, bestOut = v, key, int(pk.outPort)
		}
	}
	if best >= 0 {
		// the input stage's pointer moves when its VC places a request
		switch s.inArb {
		case arbLRS:
			s.clock++
			s.inStamp[pi*s.maxVC+best] = s.clock
		default:
			s.inPtr[pi] = int32((best + 1) % n)
		}
	}
	return best, bestOut
}

// outputArbitrate picks the winning input (port number) of output out.
func (s *Sim) outputArbitrate(base, out int) int {
	po := base + out
	cands := s.reqList[out*s.radix : out*s.radix+int(s.reqN[out])]
	if len(cands) == 1 && !s.transitPrio && s.outArb != arbLRS {
		in := int(cands[0])
		s.outPtr[po] = int32((in + 1) % s.radix)
		return in
	}
	ptr := int(s.outPtr[po])
	best := -1
	var bestKey int64
	for _, c := range cands {
		in := int(c)
		rr := int64((in - ptr + s.radix) % s.radix)
		var key int64
		switch s.outArb {
		case arbRR:
			key = rr
		case arbLRS:
			key = s.outStamp[po*s.radix+in]
		case arbAge:
			pk := &s.pk[s.head((base+in)*s.maxVC+int(s.reqVC[in]))]
			key = pk.gen*int64(s.radix) + rr
		}
		if s.transitPrio && s.class[base+in] == topology.Injection {
			key += 1 << 60
		}
		if best < 0 || key < bestKey {
			best, bestKey = in, key
		}
	}
	if s.outArb == arbLRS {
		s.clock++
		s.outStamp[po*s.radix+best] = s.clock
	} else {
		s.outPtr[po] = int32((best + 1) % s.radix)
	}
	return best
}

// grant moves the head of buffer (pi, vc) across the crossbar to output po.
func (s *Sim) grant(pi, vc, po int) {
	now := s.now
	bi := pi*s.maxVC + vc
	k := s.head(bi)
	pk := &s.pk[k]
	// the tail cannot cross before it has arrived
	dur := max(s.xbarDur, pk.entry+int64(s.P)-now)
	s.inFree[pi] = now + dur
	s.outFree[po] = now + dur
	s.qHead[bi]++
	if s.qHead[bi] == s.qCap[bi] {
		s.qHead[bi] = 0
	}
	s.qLen[bi]--
	s.inCount[pi]--
	if s.class[pi] != topology.Injection {
		s.returnCredit(pi, vc)
	}
	if s.class[po] == topology.Injection {
		if pk.flags&fRequest != 0 {
			s.resv[s.injBuf(int(pk.dst), int(pk.replyVC))]++
		}
	} else {
		s.credits[po*s.maxVC+int(pk.outVC)] -= int32(s.P)
		pk.vcPos = pk.nextPos
		pk.vc = pk.outVC
	}
	pk.outPort = -1
	s.lastProgress = now
	s.st.xbar++
	if s.ioq {
		pk.entry = now + s.xbar
		i := s.oHead[po] + s.oLen[po]
		if i >= s.oCap[po] {
			i -= s.oCap[po]
		}
		s.oRing[s.oStart[po]+i] = k
		s.oLen[po]++
		s.oQueued[po] += int32(s.P)
		return
	}
	// input-queued: straight onto the link after the crossbar
	s.txEnd[po] = now + dur
	s.routerPkts[pi/s.radix]--
	if pk.inj < 0 {
		pk.inj = now + s.xbar
	}
	s.send(po, k, now+s.xbar)
}

// drainOutput puts the head of output FIFO pi onto its link when it has
// crossed the crossbar and the previous packet has been serialised.
func (s *Sim) drainOutput(r, pi int) {
	k := s.oRing[s.oStart[pi]+s.oHead[pi]]
	pk := &s.pk[k]
	if pk.entry > s.now || s.txEnd[pi] > s.now {
		return
	}
	s.oHead[pi]++
	if s.oHead[pi] == s.oCap[pi] {
		s.oHead[pi] = 0
	}
	s.oLen[pi]--
	s.oQueued[pi] -= int32(s.P)
	s.txEnd[pi] = s.now + int64(s.P)
	s.routerPkts[r]--
	if pk.inj < 0 {
		pk.inj = s.now
	}
	s.lastProgress = s.now
	s.send(pi, k, s.now)
}

// send puts packet k on the link of output port po at cycle t: into the
// downstream input buffer (its head arrives after the link latency), or to the
// node on an ejection port.
func (s *Sim) send(po int, k int32, t int64) {
	pk := &s.pk[k]
	c := s.class[po]
	if t >= s.W {
		s.st.linkPhits[c] += int64(s.P)
	}
	if c == topology.Injection {
		s.deliver(k, t)
		return
	}
	if c == topology.Global {
		pk.ghops++
	} else {
		pk.lhops++
	}
	in := int(s.peer[po])
	pk.entry = t + s.lat[po]
	s.push(in*s.maxVC+int(pk.vc), k)
	s.inCount[in]++
	s.routerPkts[in/s.radix]++
}

// push appends packet k to input buffer bi (space was reserved by credits).
func (s *Sim) push(bi int, k int32) {
	i := s.qHead[bi] + s.qLen[bi]
	if i >= s.qCap[bi] {
		i -= s.qCap[bi]
	}
	s.qRing[s.qStart[bi]+i] = k
	s.qLen[bi]++
	s.pk[k].outPort = -1
}

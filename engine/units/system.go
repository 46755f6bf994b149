package units

// System is a Dragonfly switch and its links described physically, as
// Table I of the QCN-Switch paper (Benito et al., Non-minimal Adaptive
// Routing Based on Explicit Congestion Notifications, §4.1) gives them.
// A link latency is its time in ns or, when the cable length is set, the
// length at Basis.NsPerMeter. The crossbar speedup is a ratio and stays
// one.
type System struct {
	Basis
	PacketBytes float64
	// SwitchNs is the switch latency: the router's whole per-hop pipeline,
	// which the engine models as router.xbarLatency (allocation in the
	// arrival cycle; engine/TIMING.md, "Latency").
	SwitchNs float64
	// Link latencies (ns), or cable lengths (m) when set.
	LocalNs, GlobalNs, InjectionNs             float64
	LocalMeters, GlobalMeters, InjectionMeters float64
	// Buffers per VC in KB (1,000 bytes): the injection queue, the transit
	// (local and global input) queues, and the output FIFO per port.
	InjectionKB, TransitKB, OutputKB float64
}

// Engine is a System in the engine's units.
type Engine struct {
	CycleNs                                      float64
	PacketPhits, SwitchCycles                    int
	LocalCycles, GlobalCycles, InjectionCycles   int
	InjectionBufPhits, TransitPhits, OutputPhits int
}

// Engine converts the system to cycles and phits; the errors name the
// System's fields (the basis's first: nothing converts without it).
func (s System) Engine() (Engine, []*Error) {
	if errs := s.Check(); len(errs) > 0 {
		return Engine{}, errs
	}
	e := Engine{CycleNs: s.CycleNs()}
	var errs []*Error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err.(*Error))
		}
	}
	var err error
	e.PacketPhits, err = s.Phits("PacketBytes", s.PacketBytes)
	keep(err)
	e.SwitchCycles, err = s.Cycles("SwitchNs", s.SwitchNs)
	keep(err)
	link := func(name string, ns, m float64) int {
		var n int
		var err error
		if m != 0 {
			n, err = s.CableCycles(name+"Meters", m)
		} else {
			n, err = s.Cycles(name+"Ns", ns)
		}
		keep(err)
		return n
	}
	e.LocalCycles = link("Local", s.LocalNs, s.LocalMeters)
	e.GlobalCycles = link("Global", s.GlobalNs, s.GlobalMeters)
	e.InjectionCycles = link("Injection", s.InjectionNs, s.InjectionMeters)
	e.InjectionBufPhits, err = s.Phits("InjectionKB", s.InjectionKB*1e3)
	keep(err)
	e.TransitPhits, err = s.Phits("TransitKB", s.TransitKB*1e3)
	keep(err)
	e.OutputPhits, err = s.Phits("OutputKB", s.OutputKB*1e3)
	keep(err)
	return e, errs
}

// SystemOf is the physical system of engine values on basis b: the
// reverse of System.Engine, exact (link latencies in ns, no lengths).
func SystemOf(b Basis, e Engine) System {
	kb := func(phits int) float64 { return b.Bytes(float64(phits)) / 1e3 }
	ns := func(cycles int) float64 { return b.Ns(float64(cycles)) }
	return System{Basis: b, PacketBytes: b.Bytes(float64(e.PacketPhits)), SwitchNs: ns(e.SwitchCycles),
		LocalNs: ns(e.LocalCycles), GlobalNs: ns(e.GlobalCycles), InjectionNs: ns(e.InjectionCycles),
		InjectionKB: kb(e.InjectionBufPhits), TransitKB: kb(e.TransitPhits), OutputKB: kb(e.OutputPhits)}
}

// TableI is the system of the QCN-Switch paper's Table I with phits of
// phitBytes bytes: 40 Gb/s links, 1,000-byte packets, a 200 ns switch,
// 8 m local and 80 m global cables at 5 ns/m (40 and 400 ns), 200 KB
// injection and 100 KB transit queues. The paper gives no injection link
// latency nor output buffer: the local link's 8 m and the transit
// queue's 100 KB here (interpretations). Its 1 GHz switch clock and
// speedup 2 are not units: the engine's cycle is the phit time.
func TableI(phitBytes int) System {
	return System{Basis: Basis{LinkGbps: 40, PhitBytes: phitBytes, CableNsPerMeter: DefaultCableNsPerMeter},
		PacketBytes: 1000, SwitchNs: 200, LocalMeters: 8, GlobalMeters: 80, InjectionMeters: 8,
		InjectionKB: 200, TransitKB: 100, OutputKB: 100}
}

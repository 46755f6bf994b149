package config

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"phitsim/engine/topology"
	"phitsim/engine/units"
)

// Physical is the physical basis of a configuration (the QCN-Switch paper's
// Ethernet Dragonfly is described in Gb/s, bytes and ns): the link rate and
// the phit size make a cycle 8·phitBytes/linkGbps ns. It changes nothing
// the simulator runs: the cycles and phits of the other sections stay the
// configuration; with a basis, the page and the CLI show and accept every
// field whose unit is cycles, phits or phits/node/cycle in ns, bytes and
// Gb/s (package units, keyed by the unit tag). Unset (linkGbps 0), there is
// no physical view and the section is omitted from JSON.
type Physical struct {
	LinkGbps        float64 `json:"linkGbps,omitempty" doc:"link rate: with the phit size it sets the cycle, 8·phitBytes/linkGbps ns; a load of 1 phit/(node·cycle) is linkGbps per node (0: no physical units; the simulator never reads this section)" unit:"Gb/s" min:"0" max:"100000" paper:"Benito et al., Non-minimal Adaptive Routing Based on Explicit Congestion Notifications, §4.1, Table I (40 Gb/s)"`
	PhitBytes       int     `json:"phitBytes,omitempty" doc:"bytes a link carries per cycle: packets and buffers must be whole phits (a 1,000-byte packet is 10 phits of 100 bytes)" unit:"bytes" min:"0" max:"1048576" when:"physical.linkGbps>0"`
	CableNsPerMeter float64 `json:"cableNsPerMeter,omitempty" doc:"cable propagation delay: a link latency may be typed as a cable length in m (0: 5 ns/m)" unit:"ns/m" min:"0" max:"1000" when:"physical.linkGbps>0" paper:"Benito et al., Non-minimal Adaptive Routing Based on Explicit Congestion Notifications, Table I (8 m and 80 m cables, 40 and 400 ns)"`
}

// Basis is the configuration's physical basis; ok is false when it has
// none (physical.linkGbps 0) or the basis is invalid (Validate says why).
func (c *Config) Basis() (b units.Basis, ok bool) {
	ph := c.Physical
	b = units.Basis{LinkGbps: ph.LinkGbps, PhitBytes: ph.PhitBytes, CableNsPerMeter: ph.CableNsPerMeter}
	return b, ph.LinkGbps > 0 && len(b.Check()) == 0
}

// validatePhysical checks the basis as a whole (the fields' ranges are
// their tags'): a link rate needs a phit size.
func (c *Config) validatePhysical() Errors {
	ph := c.Physical
	if ph.LinkGbps <= 0 {
		return nil // no basis: phitBytes and cableNsPerMeter do not apply
	}
	var errs Errors
	if ph.PhitBytes <= 0 {
		errs = append(errs, &FieldError{Path: "physical.phitBytes", Value: strconv.Itoa(ph.PhitBytes),
			Msg: fmt.Sprintf("must be set, in [1, %d] bytes, when physical.linkGbps is (the cycle is 8·phitBytes/linkGbps ns)", units.MaxPhitBytes)})
	}
	return errs
}

// SetsBasis tells whether p is a field of the physical section: it changes
// what the cycles and phits mean in ns, bytes and Gb/s, never the run.
func (p Param) SetsBasis() bool { return p.Group == "physical" }

// ErrSweepBasis refuses a sweep (or a tie) of the physical basis: it
// converts only what is shown, so every point would run the same cycles
// and phits. The page's sweep form and engine/sweep share it.
var ErrSweepBasis = errors.New("the physical basis only converts the cycles and phits shown, the runs would not differ; sweep a field in cycles or phits (its values in its engine unit)")

// Sweepable is nil unless p is a field of the physical section
// (ErrSweepBasis).
func (p Param) Sweepable() error {
	if p.SetsBasis() {
		return ErrSweepBasis
	}
	return nil
}

// Quantity is what the parameter's unit measures (units.None when it has
// no physical counterpart).
func (p Param) Quantity() units.Quantity {
	if p.Kind != "int" && p.Kind != "float" {
		return units.None
	}
	return units.QuantityOf(p.Unit)
}

// Cable tells whether p is the latency of a port class of the
// configuration's topology (topology.Kind's classes): a link, which may be
// given as a cable length.
func (c *Config) Cable(p Param) bool {
	k, err := topology.KindOf(c.Topology.Kind)
	if err != nil {
		return false
	}
	for _, cl := range k.Classes {
		if cl.Latency == p.Path {
			return true
		}
	}
	return false
}

// PhysicalText is p's value in physical units ("400 ns", "100 KB",
// "16 Gb/s"); ok is false without a basis or for a parameter without a
// physical quantity.
func (c *Config) PhysicalText(p Param) (string, bool) {
	b, ok := c.Basis()
	q := p.Quantity()
	if !ok || q == units.None {
		return "", false
	}
	return units.Format(q, b.Physical(q, p.engineValue(c))), true
}

func (p Param) engineValue(c *Config) float64 {
	x, _ := strconv.ParseFloat(p.Format(c), 64)
	return x
}

// PhysicalValue is p's current value as a conversion (for its description,
// "= 20 cycles").
func (c *Config) PhysicalValue(p Param) (units.Conversion, bool) {
	_, ok := c.Basis()
	q := p.Quantity()
	if !ok || q == units.None {
		return units.Conversion{}, false
	}
	return units.Conversion{Quantity: q, Engine: p.engineValue(c), Typed: math.NaN()}, true
}

// SetPhysical parses text typed for p in physical units (a link latency
// may be a cable length in m; a bare number is in the engine's own unit,
// as in -set, URLs and JSON: one rule everywhere, and a number typed key by
// key never changes unit halfway) and stores the engine value. Errors are FieldErrors on p's path that say which units
// are allowed, why a value does not convert, or the field's range in its
// engine unit and in physical units; on an error c keeps its value.
func (c *Config) SetPhysical(p Param, text string) (units.Conversion, error) {
	b, ok := c.Basis()
	q := p.Quantity()
	if !ok || q == units.None {
		return units.Conversion{}, &FieldError{Path: p.Path, Value: text, Msg: "has no physical units (set physical.linkGbps and physical.phitBytes)"}
	}
	conv, err := b.Parse(q, p.Path, text, q.EngineUnit(2), c.Cable(p))
	if err != nil {
		ue := err.(*units.Error)
		return conv, &FieldError{Path: p.Path, Value: text, Msg: ue.Msg}
	}
	v := strconv.FormatFloat(conv.Engine, 'f', -1, 64)
	if p.Kind == "float" {
		// 15 significant digits: a value shown in physical units and typed
		// back sets what it showed (4.4 Gb/s of 40 is 0.11, where the
		// division gives 0.11000000000000001)
		v = strconv.FormatFloat(conv.Engine, 'g', 15, 64)
	}
	old := p.Format(c)
	err = p.SetString(c, v)
	if err == nil && p.check(c) != nil {
		err = &FieldError{Msg: "must be" + p.rangeText()}
	}
	if err != nil {
		_ = p.SetString(c, old) // refused: the configuration keeps its value
		return conv, &FieldError{Path: p.Path, Value: text, Msg: "is " + v + " " + q.EngineUnit(conv.Engine) + ", and " + p.Path + " " +
			err.(*FieldError).Msg + " " + q.EngineUnit(2) + p.physicalRange(b)}
	}
	return conv, nil
}

// physicalRange is the parameter's range in physical units: " (20 ns to
// 2 ms)", "" when it has no bounds.
func (p Param) physicalRange(b units.Basis) string {
	q := p.Quantity()
	if p.Min == nil || p.Max == nil {
		return ""
	}
	return " (" + units.Format(q, b.Physical(q, *p.Min)) + " to " + units.Format(q, b.Physical(q, *p.Max)) + ")"
}

// PhysicalField is one parameter shown in physical units.
type PhysicalField struct {
	Param Param
	Text  string // "400 ns"
	Conv  string // "= 20 cycles"
}

// PhysicalView lists the parameters that apply and have a physical
// quantity, in declaration order, with their values in physical units and
// the conversion; nil without a basis.
func (c *Config) PhysicalView() []PhysicalField {
	b, ok := c.Basis()
	if !ok {
		return nil
	}
	var out []PhysicalField
	for _, p := range params {
		if !p.Applies(c) {
			continue
		}
		if conv, ok := c.PhysicalValue(p); ok {
			text, _ := c.PhysicalText(p)
			out = append(out, PhysicalField{p, text, conv.Describe(b)})
		}
	}
	return out
}

// SetSystem describes the network physically: the basis, and the link
// latencies, switch latency (router.xbarLatency, the router's whole
// per-hop latency: engine/TIMING.md, "Latency"), packet size and buffers
// per VC (injection, local and global, output FIFO) in cycles and phits.
// Nothing changes when the system does not convert (the errors name the
// System's fields).
func (c *Config) SetSystem(s units.System) error {
	e, errs := s.Engine()
	if len(errs) > 0 {
		return errs[0]
	}
	c.Physical = Physical{LinkGbps: s.LinkGbps, PhitBytes: s.PhitBytes, CableNsPerMeter: s.CableNsPerMeter}
	t, r := &c.Topology, &c.Router
	t.LocalLatency, t.GlobalLatency, t.InjectionLatency = e.LocalCycles, e.GlobalCycles, e.InjectionCycles
	r.XbarLatency, r.PacketSize = e.SwitchCycles, e.PacketPhits
	r.InjectionBuffer, r.LocalBuffer, r.GlobalBuffer, r.OutputBuffer = e.InjectionBufPhits, e.TransitPhits, e.TransitPhits, e.OutputPhits
	return nil
}

// System is the configuration in physical units (the reverse of
// SetSystem, exact: link latencies in ns; TransitKB is the local input
// buffer's); ok is false without a basis.
func (c *Config) System() (units.System, bool) {
	b, ok := c.Basis()
	if !ok {
		return units.System{}, false
	}
	t, r := &c.Topology, &c.Router
	return units.SystemOf(b, units.Engine{CycleNs: b.CycleNs(), PacketPhits: r.PacketSize, SwitchCycles: r.XbarLatency,
		LocalCycles: t.LocalLatency, GlobalCycles: t.GlobalLatency, InjectionCycles: t.InjectionLatency,
		InjectionBufPhits: r.InjectionBuffer, TransitPhits: r.LocalBuffer, OutputPhits: r.OutputBuffer}), true
}

// The QCN-Switch paper's run (§4.1): 2.4 ms of warm-up and 2.4 ms measured,
// each point the average of 10 simulations; its transient figures bin in
// 20 µs.
const (
	EthernetRunNs    = 2.4e6
	EthernetSeeds    = 10
	EthernetBinNs    = 20e3
	EthernetPhitSize = 100 // bytes: 20-ns cycles at 40 Gb/s, 10-phit packets
)

// ethernet is the Ethernet Dragonfly of the QCN-Switch paper's Table I
// (units.TableI with 100-byte phits: 20-ns cycles, 10-phit packets, a
// 10-cycle switch, 2/20-cycle local/global links, 1,000/2,000-phit
// transit/injection queues) with its run of 2.4 + 2.4 ms and 10 seeds.
// Routing stays MIN: QCN-Switch is a routing of its own.
func ethernet(c *Config) {
	if err := c.SetSystem(units.TableI(EthernetPhitSize)); err != nil {
		panic(err)
	}
	b, _ := c.Basis()
	cyc := b.CycleNs()
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = int(EthernetRunNs/cyc), int(EthernetRunNs/cyc), EthernetSeeds
	c.Sim.Interval = int(EthernetBinNs / cyc)
}

func ethernetPresets() []Preset {
	return []Preset{
		preset("ethernet-h6", "Ethernet Dragonfly of the QCN-Switch paper, Table I: 5,256 nodes (h=6, a=12, p=6), 40 Gb/s, 1,000-byte packets, 200 ns switch, 40/400 ns links, 200/100 KB queues; 100-byte phits (20-ns cycles), 2.4 + 2.4 ms, 10 seeds", 6, ethernet),
		preset("ethernet-h4", "The QCN-Switch paper's Table I system at browser size: 1,056 nodes (h=4, a=8, p=4), 100-byte phits (20-ns cycles), 0.2 + 0.2 ms, 2 seeds", 4, func(c *Config) {
			ethernet(c)
			c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 10000, 10000, 2
		}),
	}
}

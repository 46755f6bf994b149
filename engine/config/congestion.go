package config

import (
	"fmt"
	"strconv"
)

// Congestion is the congestion-management layer of Kim et al.,
// "Contention-based Congestion Management in Large-Scale Networks": the
// scheme that marks, notifies, throttles or isolates. The section is
// omitted when unset (scheme none, the paper's Baseline), so that other
// documents keep their form; every field's 0 or "" is the paper's value.
type Congestion struct {
	Scheme string `json:"scheme,omitempty" doc:"congestion management: none, the paper's Baseline; ideal, the oracle that puts the hotspot flows (HOTSPOT's senders to the hotspot) on an isolated class of minimally routed VCs; ecn, InfiniBand-style FECN marking, BECN echoes on the priority control class and a per-flow inter-packet delay at the source (needs traffic.sourceQueues=perDestination) (empty: none)" enum:"none,ideal,ecn" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §III-A, §V-A"`
	// Ideal
	IdealPriority string `json:"idealPriority,omitempty" doc:"ideal: the isolated hotspot class's priority against the data VCs at both allocator stages: equal (round-robin among all, the paper's Ideal as resolved) or low (served only when no data VC can go) (empty: equal)" enum:"equal,low" when:"congestion.scheme=ideal" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (the priority is not stated; equal reconstructed)"`
	// ECN (Kim et al. §V-A, the values of its Table of ECN parameters)
	EcnThreshold     float64 `json:"ecnThreshold,omitempty" doc:"ecn: a packet is marked (FECN) when its input VC buffer holds more than this share of its capacity as its head leaves (0: 90%)" unit:"%" min:"0" max:"100" when:"congestion.scheme=ecn" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (90%)"`
	EcnIpdIncrement  int     `json:"ecnIpdIncrement,omitempty" doc:"ecn: a flow's inter-packet delay grows by this at each BECN (0: 400)" unit:"cycles" min:"0" max:"1000000" when:"congestion.scheme=ecn" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (400)"`
	EcnIpdMax        int     `json:"ecnIpdMax,omitempty" doc:"ecn: the inter-packet delay's cap (0: 1,500)" unit:"cycles" min:"0" max:"1000000" when:"congestion.scheme=ecn" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (1,500)"`
	EcnIpdDecrement  int     `json:"ecnIpdDecrement,omitempty" doc:"ecn: every ecnDecrementPeriod cycles each flow's inter-packet delay falls by this, to 0 at least (0: 50)" unit:"cycles" min:"0" max:"1000000" when:"congestion.scheme=ecn" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (50)"`
	EcnDecrementTime int     `json:"ecnDecrementPeriod,omitempty" doc:"ecn: the inter-packet delay's decrement timer (0: 1,000)" unit:"cycles" min:"0" max:"1000000" when:"congestion.scheme=ecn" paper:"Kim et al., Contention-based Congestion Management in Large-Scale Networks §V-A (1,000)"`
}

// ECNParams are ECN's parameters with the paper's defaults for the zeros.
type ECNParams struct {
	Threshold                         float64 // share of the input VC buffer, 0…1
	Increment, Max, Decrement, Period int64
}

// ECN resolves the ECN fields (0: Kim et al. §V-A's values).
func (c Congestion) ECN() ECNParams {
	or := func(v, def int) int64 {
		if v == 0 {
			return int64(def)
		}
		return int64(v)
	}
	p := ECNParams{Threshold: c.EcnThreshold / 100, Increment: or(c.EcnIpdIncrement, 400), Max: or(c.EcnIpdMax, 1500),
		Decrement: or(c.EcnIpdDecrement, 50), Period: or(c.EcnDecrementTime, 1000)}
	if c.EcnThreshold == 0 {
		p.Threshold = 0.9
	}
	return p
}

// SchemeName is congestion.scheme with its default filled in.
func (c Congestion) SchemeName() string {
	if c.Scheme == "" {
		return "none"
	}
	return c.Scheme
}

// fill sets the omitted enums to their defaults, for validation.
func (c *Congestion) fill() {
	c.Scheme = c.SchemeName()
	if c.IdealPriority == "" {
		c.IdealPriority = "equal"
	}
}

// validateCongestion ties the scheme to what it needs: ECN's inter-packet
// delay holds one flow at its source, which only per-destination source
// queues can do without blocking the node's other flows (Kim et al. §V-A's
// queue pairs); a scheme acts on synthetic traffic; QCN-Switch owns the
// priority class by itself.
func (c *Config) validateCongestion() Errors {
	cg := c.Congestion
	if cg.SchemeName() == "none" {
		return nil
	}
	var errs Errors
	add := func(msg string, a ...any) {
		errs = append(errs, &FieldError{Path: "congestion.scheme", Value: cg.Scheme, Msg: fmt.Sprintf(msg, a...)})
	}
	if cg.Scheme == "ecn" {
		if _, perDst := c.Traffic.Messages(); !perDst {
			add("ecn holds each flow by its inter-packet delay, which needs traffic.sourceQueue=true and traffic.sourceQueues=perDestination (a held flow must not block the node's others)")
		}
	}
	if c.Workload.Kind != "" && c.Workload.Kind != "synthetic" {
		add("runs with workload.kind=synthetic only")
	}
	if c.Routing.Name == "QCN_SWITCH" {
		add("routing.name=QCN_SWITCH is a congestion management of its own; use congestion.scheme=none with it")
	}
	if cg.Scheme == "ecn" && cg.EcnIpdMax != 0 && cg.EcnIpdIncrement > cg.EcnIpdMax {
		errs = append(errs, &FieldError{Path: "congestion.ecnIpdIncrement", Value: strconv.Itoa(cg.EcnIpdIncrement),
			Msg: fmt.Sprintf("must not exceed congestion.ecnIpdMax (%d)", cg.EcnIpdMax)})
	}
	return errs
}

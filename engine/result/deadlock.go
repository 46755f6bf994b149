package result

import (
	"fmt"
	"strings"
)

// Deadlock is why and where a run stopped early: packets in transit that
// could not move (a head older than the stuck-head bound), or no packet
// moving anywhere for the watchdog period. The result that carries it holds
// the metrics up to Cycle.
type Deadlock struct {
	// Reason: "stuck" (heads of transit buffers older than Bound cycles,
	// while other traffic may still flow, in a cycle of waits or behind lost
	// credits), "starvation" (such heads, but each waits for an output VC
	// that keeps moving: arbitration never picks it) or "watchdog" (nothing
	// moved for Bound cycles with packets in flight).
	Reason   string `json:"reason" msgpack:"reason"`
	Cycle    int64  `json:"cycle" msgpack:"cycle"`       // when it was detected
	Since    int64  `json:"since" msgpack:"since"`       // the last cycle a packet moved
	Bound    int64  `json:"bound" msgpack:"bound"`       // the age or idle time that fired, in cycles
	InFlight int64  `json:"inFlight" msgpack:"inFlight"` // packets generated and not delivered
	// StuckBuffers counts the buffers whose head is older than Bound (for
	// "watchdog": every non-empty buffer); Buffers lists the first few, the
	// oldest heads first.
	StuckBuffers int           `json:"stuckBuffers" msgpack:"stuckBuffers"`
	Routers      []int         `json:"routers" msgpack:"routers"` // the routers of all of them, ascending
	Buffers      []StuckBuffer `json:"buffers" msgpack:"buffers"`
}

// StuckBuffer is an input VC buffer whose head cannot move.
type StuckBuffer struct {
	Router  int    `json:"router" msgpack:"router"`
	Port    int    `json:"port" msgpack:"port"`
	Class   string `json:"class" msgpack:"class"` // injection, local, global
	VC      int    `json:"vc" msgpack:"vc"`
	Packets int    `json:"packets" msgpack:"packets"`
	// the head packet: source and destination nodes, the output port and VC
	// it requests (−1: not routed yet), and how long it has been in the buffer
	Src      int   `json:"src" msgpack:"src"`
	Dst      int   `json:"dst" msgpack:"dst"`
	WantPort int   `json:"wantPort" msgpack:"wantPort"`
	WantVC   int   `json:"wantVC" msgpack:"wantVC"`
	Age      int64 `json:"age" msgpack:"age"`
	// Why: for a starved head, the condition that reported it (the
	// stuck-head check's tree rule: an ejection port, its next buffer
	// taking more packets from others than round-robin allows, or that
	// buffer having room for it at two checks); empty otherwise
	Why string `json:"why,omitempty" msgpack:"why,omitempty"`
}

func (b StuckBuffer) String() string {
	s := fmt.Sprintf("router %d input port %d (%s) VC %d: %d packets, head %d→%d wants port %d VC %d, waiting %d cycles",
		b.Router, b.Port, b.Class, b.VC, b.Packets, b.Src, b.Dst, b.WantPort, b.WantVC, b.Age)
	if b.Why != "" {
		s += " (" + b.Why + ")"
	}
	return s
}

// String is the report on one line: Lines joined by "; ".
func (d *Deadlock) String() string { return strings.Join(d.Lines(), "; ") }

// Lines is the report: the reason with the counts and the routers, then one
// line per listed buffer.
func (d *Deadlock) Lines() []string {
	var sb strings.Builder
	switch d.Reason {
	case "stuck":
		fmt.Fprintf(&sb, "deadlock at cycle %d: %d transit buffers hold a head older than %d cycles (%d packets in flight, the last move at cycle %d)",
			d.Cycle, d.StuckBuffers, d.Bound, d.InFlight, d.Since)
	case "starvation":
		fmt.Fprintf(&sb, "starvation at cycle %d: %d transit buffers hold a head older than %d cycles, each waiting for an output that others keep using (no cycle of waits; %d packets in flight, the last move at cycle %d)",
			d.Cycle, d.StuckBuffers, d.Bound, d.InFlight, d.Since)
	default:
		fmt.Fprintf(&sb, "deadlock: no packet moved since cycle %d (now %d, watchdog %d cycles) with %d packets in flight; %d buffers hold packets",
			d.Since, d.Cycle, d.Bound, d.InFlight, d.StuckBuffers)
	}
	if len(d.Routers) > 0 {
		const most = 16
		rs := d.Routers
		more := ""
		if len(rs) > most {
			rs, more = rs[:most], fmt.Sprintf(" and %d more", len(d.Routers)-most)
		}
		ns := make([]string, len(rs))
		for i, r := range rs {
			ns[i] = fmt.Sprint(r)
		}
		fmt.Fprintf(&sb, "; routers %s%s", strings.Join(ns, ", "), more)
	}
	lines := []string{sb.String()}
	for _, b := range d.Buffers {
		lines = append(lines, b.String())
	}
	return lines
}

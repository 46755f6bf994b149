// Package protocol is the message format between the UI and the engine's Web
// Workers: msgpack documents carrying a protocol version. It also holds the
// worker's job execution (Execute) so that it can be tested natively; the
// wasm/worker program only moves bytes between JavaScript and this package.
package protocol

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sim"
)

// Version of the protocol. Both sides refuse messages of another version.
const Version = 1

// Type of a message.
type Type uint8

const (
	Ready    Type = iota + 1 // worker → UI: the engine is loaded
	Start                    // UI → worker: run one job
	Progress                 // worker → UI: cycle, ETA, partial metrics
	Result                   // worker → UI: the finished run, or the run a deadlock stopped (Result.Deadlock)
	Error                    // worker → UI: the run failed or was cancelled
	Cancel                   // UI → worker: stop the job with this ID
	Crash                    // UI → worker: crash on purpose (tests the pool's recovery)
	Snapshot                 // worker → UI: the network over the last interval (StartJob.Snapshots)
	// Part: UI → worker: be partition StartJob.Part of a run split across
	// workers (StartJob.Parts > 1), with the MessagePort to the worker that
	// runs it (the coordinator: it was sent the Start with a port per other
	// partition); Cancel with its ID ends it
	Part
	PartDone // worker → UI: its partition of run ID is over (closed by the coordinator, or cancelled)
)

var typeNames = [...]string{"", "ready", "start", "progress", "result", "error", "cancel", "crash", "snapshot", "part", "partDone"}

func (t Type) String() string {
	if int(t) < len(typeNames) && t > 0 {
		return typeNames[t]
	}
	return fmt.Sprintf("type(%d)", t)
}

// Message is the envelope of every message. ID names the job.
type Message struct {
	V        int            `msgpack:"v"`
	Type     Type           `msgpack:"t"`
	ID       uint64         `msgpack:"id"`
	Start    *StartJob      `msgpack:"start,omitempty"`
	Progress *ProgressInfo  `msgpack:"progress,omitempty"`
	Result   *result.Result `msgpack:"result,omitempty"`
	Error    *ErrorInfo     `msgpack:"error,omitempty"`
	Net      *NetInfo       `msgpack:"net,omitempty"`
	// Engine identifies the worker's engine (Ready).
	Engine string `msgpack:"engine,omitempty"`
}

// StartJob is one run: a configuration, the seed and the offered load
// (which replaces config.traffic.load).
type StartJob struct {
	Config config.Config `msgpack:"config"`
	Seed   uint64        `msgpack:"seed"`
	Load   float64       `msgpack:"load"`
	// ProgressMillis is the least time between progress messages (0 = 200 ms).
	ProgressMillis int `msgpack:"progressMillis,omitempty"`
	// Snapshots asks for about this many Snapshot messages over the run
	// (0: none; at most MaxSnapshots), for the live view of the network.
	Snapshots int `msgpack:"snapshots,omitempty"`
	// Parts splits the run across this many workers (engine/PARALLEL.md,
	// "Across memories"): the Start goes to the coordinator with Parts−1
	// MessagePorts, to the workers of partitions 1…Parts−1, each sent a
	// Part message with Part set. 0 or 1: one worker.
	Parts int `msgpack:"parts,omitempty"`
	Part  int `msgpack:"part,omitempty"`
}

// MaxSnapshots bounds StartJob.Snapshots: the replay keeps every frame,
// about one byte per port each (h=4: 4 KB), so a run stays below a few MB.
const MaxSnapshots = 400

// SnapshotEvery is the interval in cycles that gives about frames snapshots
// over a run of cycles (warm-up included): at least MinSnapshotEvery cycles.
func SnapshotEvery(cycles int64, frames int) int64 {
	frames = min(max(frames, 1), MaxSnapshots)
	return max((cycles+int64(frames)-1)/int64(frames), MinSnapshotEvery)
}

// MinSnapshotEvery keeps the engine's cost of watching within about 2.5%
// per packet-hop (a snapshot is a pass over every port: +2.3% at 200 cycles,
// +5.8% at 50 on h=4, BENCHMARKS.md) and gives an interval several packets
// per link.
const MinSnapshotEvery = 200

// NetInfo is one sim.NetSnapshot, quantised to a byte per value (0–255 for
// 0–1: the colour scale has far fewer steps). Ports are numbered
// router·Radix+port as topology.Topology numbers them.
type NetInfo struct {
	Cycle    int64 `msgpack:"cycle"`
	Total    int64 `msgpack:"total"`
	Interval int64 `msgpack:"interval"`
	Radix    int   `msgpack:"radix"`
	// per port: link utilisation, input buffer occupancy
	LinkUse   []byte `msgpack:"link"`
	BufferUse []byte `msgpack:"buffer"`
	// per router: packets in its input buffers, misrouted share
	Packets   []int32 `msgpack:"packets"`
	Misrouted []byte  `msgpack:"misrouted"`
	// per router: its nodes' injection, phits/node/cycle (sim.NetSnapshot)
	Injection []byte `msgpack:"injection"`
	// congestion.scheme=recn: SAQ lines allocated per switch (its ingress
	// and egress sides) and per host (its interface) at Cycle
	SAQs     []int32 `msgpack:"saqs,omitempty"`
	HostSAQs []int32 `msgpack:"hostSaqs,omitempty"`
}

// Share is the 0–1 value of a quantised byte.
func Share(b byte) float64 { return float64(b) / 255 }

func quantise(dst []byte, v []float32) []byte {
	for _, x := range v {
		dst = append(dst, byte(min(max(x, 0), 1)*255+0.5))
	}
	return dst
}

// netInfo quantises a snapshot (the message owns its slices).
func netInfo(n *sim.NetSnapshot, total int64) *NetInfo {
	return &NetInfo{Cycle: n.Cycle, Total: total, Interval: n.Interval, Radix: n.Radix,
		LinkUse: quantise(nil, n.LinkUse), BufferUse: quantise(nil, n.BufferUse),
		Packets: append([]int32(nil), n.Packets...), Misrouted: quantise(nil, n.Misrouted), Injection: quantise(nil, n.Injection),
		SAQs: append([]int32(nil), n.SAQs...), HostSAQs: append([]int32(nil), n.HostSAQs...)}
}

// ProgressInfo of a running job.
type ProgressInfo struct {
	Cycle   int64   `msgpack:"cycle"`
	Total   int64   `msgpack:"total"`
	Elapsed float64 `msgpack:"elapsed"` // seconds since the run started
	ETA     float64 `msgpack:"eta"`     // seconds left, estimated from the rate so far
	// Partial metrics over the measured cycles so far (zero during warm-up).
	Partial Partial `msgpack:"partial"`
}

// Partial metrics of a running job (from sim.Snapshot).
type Partial struct {
	Measured  bool    `msgpack:"measured"` // past the warm-up
	Applied   float64 `msgpack:"applied"`
	Accepted  float64 `msgpack:"accepted"`
	Latency   float64 `msgpack:"latency"`
	Delivered int64   `msgpack:"delivered"`
}

// Error kinds.
const (
	KindInvalid   = "invalid"   // the configuration does not validate: see Fields
	KindDeadlock  = "deadlock"  // the engine's watchdog fired without a result to keep (a deadlock with one is a Result)
	KindCancelled = "cancelled" // a Cancel message stopped it
	KindPanic     = "panic"     // the engine crashed (a bug); the worker survives
	KindProtocol  = "protocol"  // malformed message or version mismatch
	KindEngine    = "engine"    // any other error of the engine
)

// ErrorInfo of a failed job.
type ErrorInfo struct {
	Kind   string               `msgpack:"kind"`
	Msg    string               `msgpack:"msg"`
	Fields []*config.FieldError `msgpack:"fields,omitempty"`
}

func (e *ErrorInfo) Error() string { return e.Kind + ": " + e.Msg }

// Encode a message (the version is filled in).
func Encode(m *Message) ([]byte, error) {
	m.V = Version
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	enc.SetCustomStructTag("json")
	enc.UseCompactInts(true)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ErrVersion is returned by Decode for a message of another protocol version.
var ErrVersion = errors.New("protocol version mismatch")

// Decode a message and check its version.
func Decode(b []byte) (*Message, error) {
	// msgpack v5.4.1 allocates an array as long as its header claims (its
	// allocation limit is never applied: decodeSliceValue tests the flag
	// against 1), so a damaged header claiming 800 M elements took 6 GB:
	// walked first without allocating, every claimed element must be there
	if err := msgpack.NewDecoder(bytes.NewReader(b)).Skip(); err != nil {
		return nil, fmt.Errorf("protocol: %w", err)
	}
	dec := msgpack.NewDecoder(bytes.NewReader(b))
	dec.SetCustomStructTag("json")
	var m Message
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("protocol: %w", err)
	}
	if m.V != Version {
		return &m, fmt.Errorf("%w: got %d, want %d", ErrVersion, m.V, Version)
	}
	return &m, nil
}

// Execute runs one job and reports through emit: Progress messages while it
// runs (at most one per ProgressMillis), then exactly one Result or Error.
// A run the engine stops on a deadlock is a Result: its metrics up to the
// deadlock with the watchdog's report in Result.Deadlock, kept and marked as
// 'phitsim sweep' keeps it (thesis Fig. 5.6: no DAMQ reserve deadlocks).
// yield, if not nil, is called every ~200 ms of work so that a single-threaded
// host (Go on WebAssembly) can deliver a Cancel message; cancelling ctx stops
// the run. Panics of the engine become Error messages.
func Execute(ctx context.Context, id uint64, job *StartJob, emit func(*Message), yield func()) {
	ExecuteSplit(ctx, id, job, emit, yield, nil)
}

// ExecuteSplit is Execute with the run split across workers: remote holds
// the links to partitions 1…len(remote) (job.Parts = len(remote)+1), each a
// worker's NewPartition; partition 0 runs here, a shard of the job's Sim
// (sim.OwnPartition), which coordinates (sim.Sim.RunRemote). The result is Execute's:
// a configuration the partitioned engine does not cover (sim.Sim.Unpartitioned)
// runs here as on one worker, its partitions closed at once. A partition's
// error ends the run with its message. A watched run (job.Snapshots) sends
// the one-worker run's Snapshot messages, byte for byte: each partition
// fills in its routers' entries at a snapshot's cycle and sends them in
// that window's answer (engine/PARALLEL.md, "Across memories"); the
// coordinator hands the whole snapshot over, as one worker's Sim does.
func ExecuteSplit(ctx context.Context, id uint64, job *StartJob, emit func(*Message), yield func(), remote []sim.Link) {
	defer sim.CloseLinks(remote) // also when the run ends before it starts
	defer func() {
		if r := recover(); r != nil {
			emit(&Message{Type: Error, ID: id, Error: &ErrorInfo{Kind: KindPanic,
				Msg: fmt.Sprintf("engine panic: %v\n%s", r, debug.Stack())}})
		}
	}()
	cfg := job.Config
	cfg.Traffic.Load = job.Load
	s, err := sim.New(cfg, job.Seed)
	if err != nil {
		emit(&Message{Type: Error, ID: id, Error: errorInfo(err)})
		return
	}
	if job.Snapshots < 0 || job.Snapshots > MaxSnapshots {
		emit(&Message{Type: Error, ID: id, Error: &ErrorInfo{Kind: KindInvalid,
			Msg: fmt.Sprintf("snapshots %d: must be in [0, %d]", job.Snapshots, MaxSnapshots)}})
		return
	}
	if job.Snapshots > 0 {
		total := int64(cfg.Sim.Warmup + cfg.Sim.Cycles)
		err := s.Watch(SnapshotEvery(total, job.Snapshots), func(n *sim.NetSnapshot) {
			emit(&Message{Type: Snapshot, ID: id, Net: netInfo(n, total)})
		})
		if err != nil {
			emit(&Message{Type: Error, ID: id, Error: errorInfo(err)})
			return
		}
	}
	every := time.Duration(job.ProgressMillis) * time.Millisecond
	if every <= 0 {
		every = 200 * time.Millisecond
	}
	if len(remote) > 0 && s.Unpartitioned() != "" {
		// a configuration the partitioned engine does not cover: one
		// worker, as without the split (no note: the one-worker document)
		sim.CloseLinks(remote)
		remote = nil
	}
	var links []sim.Link
	if len(remote) > 0 {
		if job.Parts != len(remote)+1 {
			emit(&Message{Type: Error, ID: id, Error: &ErrorInfo{Kind: KindProtocol,
				Msg: fmt.Sprintf("a run of %d parts with %d links to other workers", job.Parts, len(remote))}})
			return
		}
		// partition 0 is a shard of the coordinator's Sim: the worker
		// holds the network once (sim.OwnPartition)
		pt, err := sim.OwnPartition(s)
		if err != nil {
			emit(&Message{Type: Error, ID: id, Error: errorInfo(err)})
			return
		}
		links = append([]sim.Link{sim.LocalLink(pt)}, remote...)
	}
	start := time.Now()
	lastEmit, lastYield := start, start
	run := s.Run
	if links != nil {
		run = func(ctx context.Context, f func(sim.Progress)) (*result.Result, error) {
			return s.RunRemote(ctx, f, links)
		}
	}
	res, err := run(ctx, func(p sim.Progress) {
		now := time.Now()
		if yield != nil && now.Sub(lastYield) >= 200*time.Millisecond {
			yield()
			lastYield = time.Now()
		}
		if now.Sub(lastEmit) < every {
			return
		}
		lastEmit = now
		elapsed := now.Sub(start).Seconds()
		info := &ProgressInfo{Cycle: p.Cycle, Total: p.Total, Elapsed: elapsed}
		if p.Cycle > 0 {
			info.ETA = elapsed * float64(p.Total-p.Cycle) / float64(p.Cycle)
		}
		if p.Cycle > int64(cfg.Sim.Warmup) {
			snap := s.Snapshot()
			info.Partial = Partial{Measured: true, Applied: snap.Applied, Accepted: snap.Accepted,
				Latency: snap.Latency.Avg, Delivered: snap.Delivered}
		}
		emit(&Message{Type: Progress, ID: id, Progress: info})
	})
	var dl *sim.DeadlockError
	if err != nil && !(errors.As(err, &dl) && res != nil && res.Deadlock != nil) {
		emit(&Message{Type: Error, ID: id, Error: errorInfo(err)})
		return
	}
	s.AddBusiestLink(res)
	emit(&Message{Type: Result, ID: id, Result: res})
}

// NewPartition builds partition job.Part of job's run split across
// workers: a Sim of its own from the job's configuration, load and seed.
func NewPartition(job *StartJob) (*sim.Partition, error) {
	cfg := job.Config
	cfg.Traffic.Load = job.Load
	s, err := sim.New(cfg, job.Seed)
	if err != nil {
		return nil, err
	}
	return sim.NewPartition(s, job.Part)
}

func errorInfo(err error) *ErrorInfo {
	var ce config.Errors
	var dl *sim.DeadlockError
	switch {
	case errors.As(err, &ce):
		return &ErrorInfo{Kind: KindInvalid, Msg: err.Error(), Fields: ce}
	case errors.Is(err, sim.ErrCancelled):
		return &ErrorInfo{Kind: KindCancelled, Msg: err.Error()}
	case errors.As(err, &dl):
		return &ErrorInfo{Kind: KindDeadlock, Msg: err.Error()}
	}
	return &ErrorInfo{Kind: KindEngine, Msg: err.Error()}
}

package sim

import (
	"phitsim/engine/config"
	"phitsim/engine/routing"
	"phitsim/engine/topology"
)

// UsefulThreshold is the least work, in router-cycles, a partition's window
// must carry for a split to pay (engine/PARALLEL.md, "When a split pays"):
// the cost of one window's barrier over the cost of a router-cycle, B ÷ c,
// where 2 partitions break even and each spends half its time at the
// barrier. Measured (BENCHMARKS.md, "Parallel runs", "When a split pays")
// in the page on this project's shared 2-core machine, where a barrier is
// dominated by waiting for a descheduled worker: B ÷ c = 6,430 from the
// h=2 runs on 1 and 2 workers, 9,260 from the h=4 ones; 8,000 is their
// geometric mean, rounded. The exchange's own work is far less (callgrind:
// 20.0 k instructions a window across memories, 3.1 k in shared memory,
// against 1,199 a router-cycle: 17 and 2.6 router-cycles), and so is an
// idle machine's round trip between two threads (Node's worker_threads,
// 31–33 µs: 56 router-cycles of the wasm engine with the exchange's work).
// The native engine's 2-thread speed-ups at h=4 on the same machine (1.40
// median, 1.23 lowest; 13,200 router-cycles a partition's window) give
// B ÷ c = 5,700–8,300 router-cycles: one threshold serves threads and
// workers. An idle host would split smaller networks with profit.
const UsefulThreshold = 8000

// UsefulPartitions is the most partitions a run of c can use with profit:
// 1 when the partitioned engine runs c sequentially whatever its threads
// (SequentialNote), else the largest n ≥ 2 such that each partition holds
// at least 2 partition keys (a Dragonfly's groups, a flattened butterfly's
// or mesh's rows, a fat tree's subtrees) and its routers × the cut's L (the
// least latency of a link between two keys) reach UsefulThreshold; 1 when
// no n does, or when c does not describe a network. It builds only the
// topology (not a Sim) and never changes a result: a partitioned run is
// bit-identical to the sequential one. It is the one rule of how many
// threads or workers a run is given when they are not given explicitly:
// the page's pool (protocol.RunWorkers), `phitsim run`'s and `sweep`'s
// default threads (sweep.Cores), `exec` (plan.Exec) and the Slurm task's
// time estimate (plan.TaskSeconds, plan.SpeedUp).
func UsefulPartitions(c *config.Config) int {
	t, err := topology.New(c.Topology.Params())
	if err != nil {
		return 1
	}
	if sequentialNote(c, t) != "" {
		return 1
	}
	keyed := t.(topology.Partitioned) // sequentialNote: it has a rule
	K, R := keyed.PartitionKeys(), t.Routers()
	classes := c.Classes()
	L := -1
	for r := range R {
		for port := range t.Radix() {
			cl := t.PortClass(r, port)
			if cl == topology.Injection || int(cl) >= len(classes) {
				continue
			}
			if q, _ := t.Link(r, port); q >= 0 && keyed.PartitionKey(q) != keyed.PartitionKey(r) {
				if l := classes[cl].Latency; L < 0 || l < L {
					L = l
				}
			}
		}
	}
	if L < 1 || K < 4 {
		return 1
	}
	for n := K / 2; n >= 2; n-- {
		// the smallest partition holds ⌊K/n⌋ keys of R/K routers each
		if R*(K/n)/K*L >= UsefulThreshold {
			return n
		}
	}
	return 1
}

// SequentialNote is why the partitioned engine runs a run of c
// sequentially whatever its threads ("" when it splits it): the note
// Sim.parallelBlocker gives the built Sim, read from c and its topology
// alone (a Sim holds the whole network: 39 MB at h=8, too much to build
// for a question). The reasons a configuration decides are the topology's
// partition rule and keys, a routing whose state is not per router, and
// FOGSim's idle updates of a per-cycle routing (PB, ACOR, PB_ACOR:
// fogsimIdleNote), and a Graph500 job started late (jobStartNote) or run
// beside a mechanism (jobMechNote) or through per-destination source queues
// (jobQueueNote); the others parallelBlocker knows (RECN or QCN-Switch with a second mechanism, a mechanism's hook or control class not
// partitioned) no valid configuration reaches: validation refuses
// QCN_SWITCH with a congestion scheme and RECN with a routing but MIN.
// TestSequentialNoteAgreesWithEngine checks it against parallelBlocker,
// note for note, on every routing × scheme × idle-update rule of every
// topology kind and on every configuration of TestParallelBitIdentical.
// A configuration that does not describe a network gets the topology's
// error.
func SequentialNote(c *config.Config) string {
	t, err := topology.New(c.Topology.Params())
	if err != nil {
		return "topology: " + err.Error()
	}
	return sequentialNote(c, t)
}

// sequentialNote is SequentialNote on c's topology t, in parallelBlocker's
// order.
func sequentialNote(c *config.Config, t topology.Topology) string {
	keyed, ok := t.(topology.Partitioned)
	switch {
	case !ok:
		return noRuleNote(t)
	case keyed.PartitionKeys() < 2:
		return oneKeyNote(t)
	case !partitionedRouting[c.Routing.Name]:
		return routingNote(c.Routing.Name)
	case fogsimIdle(c):
		return fogsimIdleNote
	case c.Workload.Kind == "graph500" && c.Workload.Start > 0:
		return jobStartNote
	case c.Workload.Kind == "graph500" && jobMechanism(c):
		return jobMechNote
	case c.Workload.Kind == "graph500" && jobQueues(c):
		return jobQueueNote
	}
	return ""
}

// jobQueues: the Graph500 job's packets go through per-destination source
// queues (workload.go, queue), which its partitioned run does not drain.
func jobQueues(c *config.Config) bool {
	_, perDst := c.Traffic.Messages()
	return perDst
}

// fogsimIdle: router.idleUpdates=fogsim of a routing whose state changes
// every cycle in every router (routing.PerCycle): sim.New then counts the
// packets each router holds (Sim.held), which keeps a run sequential.
// jobMechanism: sim.New attaches a mechanism to c's run (QCN-Switch's
// notifications, a congestion scheme but RECN, which has its own queues).
func jobMechanism(c *config.Config) bool {
	e, scheme := routing.Get(c.Routing.Name), c.Congestion.SchemeName()
	return e.Keeps(routing.Notifications) || (scheme != "none" && scheme != "recn")
}

func fogsimIdle(c *config.Config) bool {
	e := routing.Get(c.Routing.Name)
	return c.Router.IdleUpdates == "fogsim" && e.Keeps(routing.PerCycle)
}

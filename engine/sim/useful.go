package sim

import (
	"phitsim/engine/config"
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
// the largest n ≥ 2 such that each partition holds at least 2 partition
// keys (a Dragonfly's groups, a flattened butterfly's or mesh's rows, a fat
// tree's subtrees) and its routers × the cut's L (the least latency of a
// link between two keys) reach UsefulThreshold; 1 when no n does, or when
// the topology has no partition rule or c does not describe a network.
// It builds only the topology (not a Sim) and never changes a result:
// a partitioned run is bit-identical to the sequential one. The page's pool
// (site/ui), `phitsim run`'s default threads and a sweep's core sharing
// (sweep.Cores) give a run at most this many.
func UsefulPartitions(c *config.Config) int {
	t, err := topology.New(c.Topology.Params())
	if err != nil {
		return 1
	}
	keyed, ok := t.(topology.Partitioned)
	if !ok {
		return 1
	}
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

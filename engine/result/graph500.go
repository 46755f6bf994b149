package result

// Graph500 is the outcome of a Graph500 BFS run (thesis ch. 2): execution
// time in cycles and seconds, the levels of the BFS, the messages sent and
// the network usage of the job's nodes over time.
type Graph500 struct {
	Finished bool   `json:"finished" msgpack:"finished"`
	Status   string `json:"status" msgpack:"status"` // "finished", or why the BFS did not finish
	// The job: processes (one per node), the node hosting the root vertex
	// (all-reduce root) and the root degree dr.
	Processes  int `json:"processes" msgpack:"processes"`
	RootNode   int `json:"rootNode" msgpack:"rootNode"`
	RootDegree int `json:"rootDegree" msgpack:"rootDegree"`
	// Physical units: one cycle = phitBytes·8/linkGbps ns; tq in cycles; the
	// offered load of a generating node, eq. 2.20 (raw and clamped to 1).
	CycleNs  float64 `json:"cycleNs" msgpack:"cycleNs"`
	TqCycles float64 `json:"tqCycles" msgpack:"tqCycles"`
	Pinj     float64 `json:"pinj" msgpack:"pinj"`
	PinjRaw  float64 `json:"pinjRaw" msgpack:"pinjRaw"`
	// Execution time of the BFS (to the delivery of the last broadcast of
	// the last all-reduce, or to the cycle cap when it did not finish).
	Cycles  int64   `json:"cycles" msgpack:"cycles"`
	Seconds float64 `json:"seconds" msgpack:"seconds"`
	// Usage: phits injected by the job's nodes / (processes × cycles).
	Usage float64 `json:"usage" msgpack:"usage"`
	// TEPS-style rate: the graph's edges (2^s·fe) per second of execution.
	Edges float64 `json:"edges" msgpack:"edges"`
	TEPS  float64 `json:"teps" msgpack:"teps"`
	// Budget: queries the BFS sends in all (2^(s+1)·fe·(n−1)/n); Queries,
	// Messages, QueryPackets: what was sent; SyncPackets: end-of-level
	// signals and all-reduce packets.
	Budget       float64 `json:"budget" msgpack:"budget"`
	Queries      int64   `json:"queries" msgpack:"queries"`
	Messages     int64   `json:"messages" msgpack:"messages"`
	QueryPackets int64   `json:"queryPackets" msgpack:"queryPackets"`
	SyncPackets  int64   `json:"syncPackets" msgpack:"syncPackets"`
	// Job packets generated and delivered (equal when the BFS finished).
	PacketsSent      int64 `json:"packetsSent" msgpack:"packetsSent"`
	PacketsDelivered int64 `json:"packetsDelivered" msgpack:"packetsDelivered"`
	// PacketLatency: the mean latency of the job's packets delivered
	// (generation to the tail's delivery, cycles), the job's own class
	// beside the synthetic traffic of the other nodes (omitted when none
	// was delivered).
	PacketLatency float64         `json:"packetLatency,omitempty" msgpack:"packetLatency,omitempty"`
	Levels        []Graph500Level `json:"levels" msgpack:"levels"`
	// Series: network usage of the job over time: phits delivered to its
	// processes per process and cycle, by delivery cycle.
	Series []UsageSample `json:"series" msgpack:"series"`
}

// Graph500Level is one BFS tree level: the model's mean and σ of the edges it
// explores (eqs. 2.5–2.17, the mean truncated to the remaining budget), what
// was sent, and when it started and ended (delivery of its last broadcast).
type Graph500Level struct {
	Level    int     `json:"level" msgpack:"level"`
	Mean     float64 `json:"mean" msgpack:"mean"`
	Sigma    float64 `json:"sigma" msgpack:"sigma"`
	Queries  int64   `json:"queries" msgpack:"queries"`
	Messages int64   `json:"messages" msgpack:"messages"`
	// MessagesPerProcess = Messages / processes.
	MessagesPerProcess float64 `json:"messagesPerProcess" msgpack:"messagesPerProcess"`
	QueryPackets       int64   `json:"queryPackets" msgpack:"queryPackets"`
	SyncPackets        int64   `json:"syncPackets" msgpack:"syncPackets"`
	Start              int64   `json:"start" msgpack:"start"`
	End                int64   `json:"end" msgpack:"end"` // 0 while running
	Cycles             int64   `json:"cycles" msgpack:"cycles"`
	Seconds            float64 `json:"seconds" msgpack:"seconds"`
}

// UsageSample of a time series: usage in the interval ending at Cycle.
type UsageSample struct {
	Cycle int64   `json:"cycle" msgpack:"cycle"`
	Usage float64 `json:"usage" msgpack:"usage"`
}

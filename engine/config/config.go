// Package config is the experiment description: one JSON document that the
// CLI, the browser UI and URLs share. Every parameter is declared once, in the
// struct tags below (doc, unit, range, allowed values, when it applies, paper);
// validation, CLI help, URL encoding and the UI's forms are derived from them.
package config

// Version of the configuration format. Bump it when a field changes meaning.
const Version = 1

// Config describes one simulation: network, router, routing, workload, length.
type Config struct {
	Version  int      `json:"version" doc:"configuration format version" min:"1" max:"1"`
	Name     string   `json:"name,omitempty" doc:"free label shown in results and legends"`
	Topology Topology `json:"topology"`
	Router   Router   `json:"router"`
	Routing  Routing  `json:"routing"`
	Traffic  Traffic  `json:"traffic"`
	Sim      Sim      `json:"sim"`
}

// Topology of the network.
type Topology struct {
	Kind        string `json:"kind" doc:"network topology" enum:"dragonfly" paper:"Kim et al. ISCA 2008; thesis §1.2"`
	H           int    `json:"h" doc:"global links per router (h)" min:"1" max:"32" when:"topology.kind=dragonfly"`
	A           int    `json:"a" doc:"routers per group (a); balanced: a=2h" min:"1" max:"64" when:"topology.kind=dragonfly"`
	P           int    `json:"p" doc:"nodes per router (p); balanced: p=h" min:"1" max:"64" when:"topology.kind=dragonfly"`
	Arrangement string `json:"arrangement" doc:"global link arrangement" enum:"palmtree,consecutive" when:"topology.kind=dragonfly" paper:"thesis §1.2.1, Fig. 1.10"`
	// Latencies belong to the links, hence here.
	LocalLatency     int `json:"localLatency" doc:"local (intra-group) link latency" unit:"cycles" min:"1" max:"100000"`
	GlobalLatency    int `json:"globalLatency" doc:"global (inter-group) link latency" unit:"cycles" min:"1" max:"100000"`
	InjectionLatency int `json:"injectionLatency" doc:"node-to-router latency" unit:"cycles" min:"1" max:"100000"`
}

// Router microarchitecture.
type Router struct {
	Model           string  `json:"model" doc:"ioq: input and output buffers (CIOQ); iq: input-queued only (no output FIFO, speedup 1)" enum:"ioq,iq" paper:"thesis §1.1.2"`
	Speedup         float64 `json:"speedup" doc:"internal crossbar speedup over link speed (ioq only)" unit:"×" min:"1" max:"8" when:"router.model=ioq"`
	XbarLatency     int     `json:"xbarLatency" doc:"crossbar traversal latency" unit:"cycles" min:"0" max:"1000"`
	PacketSize      int     `json:"packetSize" doc:"packet size; links carry one phit per cycle" unit:"phits" min:"1" max:"1024"`
	InjectionBuffer int     `json:"injectionBuffer" doc:"injection input buffer per VC" unit:"phits" min:"1" max:"1000000"`
	LocalBuffer     int     `json:"localBuffer" doc:"local input buffer per VC" unit:"phits" min:"1" max:"1000000"`
	GlobalBuffer    int     `json:"globalBuffer" doc:"global input buffer per VC" unit:"phits" min:"1" max:"1000000"`
	OutputBuffer    int     `json:"outputBuffer" doc:"output FIFO per port, shared by all VCs (ioq only)" unit:"phits" min:"1" max:"1000000" when:"router.model=ioq"`
	InjectionVCs    int     `json:"injectionVCs" doc:"VCs on injection ports (0 = 3, or 4 with request-reply)" min:"0" max:"16"`
	LocalVCs        int     `json:"localVCs" doc:"VCs on local ports (0 = as required by the routing, at least 3)" min:"0" max:"16"`
	GlobalVCs       int     `json:"globalVCs" doc:"VCs on global ports (0 = as required by the routing, at least 2)" min:"0" max:"16"`
	CreditTiming    string  `json:"creditTiming" doc:"xbar: a credit goes upstream when the packet leaves the input buffer; output: when it leaves the output FIFO (FOGSim v4 IOQ code)" enum:"xbar,output" when:"router.model=ioq"`
	Iterations      int     `json:"iterations" doc:"separable allocator iterations per cycle" min:"1" max:"8" paper:"thesis §1.1.3"`
	InputArbiter    string  `json:"inputArbiter" doc:"input stage: which VC of a port requests (rr round-robin, lrs least-recently-served, age oldest first)" enum:"rr,lrs,age"`
	OutputArbiter   string  `json:"outputArbiter" doc:"output stage: which requesting input wins" enum:"rr,lrs,age"`
	TransitPriority bool    `json:"transitPriority" doc:"output stage serves transit inputs before injection inputs" paper:"thesis §3.1.2"`
	InjectionPolicy string  `json:"injectionPolicy" doc:"injection VC choice: dest (⌊dest·VCs/N⌋), rand (random VC with room), jsq (shortest queue)" enum:"dest,rand,jsq"`
}

// Routing algorithm.
type Routing struct {
	Name string `json:"name" doc:"MIN minimal; VAL Valiant to a random router; VAL_GROUP Valiant to a random group" enum:"MIN,VAL,VAL_GROUP" paper:"thesis §1.4.1"`
}

// Traffic (workload).
type Traffic struct {
	Pattern string  `json:"pattern" doc:"destination pattern" enum:"UN,ADV,ADVC,ADVL,MIX" paper:"thesis §1.6.1"`
	Load    float64 `json:"load" doc:"offered load" unit:"phits/node/cycle" min:"0" max:"1"`
	Process string  `json:"process" doc:"injection process: bernoulli, or bursty (ON/OFF Markov chain)" enum:"bernoulli,bursty" paper:"thesis §1.6.1.3"`
	// BurstLength is B of thesis eqs. 1.4–1.8.
	BurstLength float64 `json:"burstLength" doc:"mean burst length" unit:"packets" min:"1" max:"100000" when:"traffic.process=bursty"`
	AdvOffset   int     `json:"advOffset" doc:"i of ADV+i: destination group g+i" min:"1" max:"100000" when:"traffic.pattern=ADV|MIX"`
	AdvRouter   string  `json:"advRouter" doc:"ADV destination router: random in the target group, or the same position" enum:"random,same" when:"traffic.pattern=ADV|MIX"`
	AdvcFogsim  bool    `json:"advcFogsim" doc:"ADVc over groups +1…+(h−1) as FOGSim's code draws, instead of +1…+h" when:"traffic.pattern=ADVC"`
	LocalOffset int     `json:"localOffset" doc:"ADVl: destination router +k inside the own group" min:"1" max:"100000" when:"traffic.pattern=ADVL|MIX"`
	MixUN       float64 `json:"mixUN" doc:"MIX: share of UN traffic" unit:"%" min:"0" max:"100" when:"traffic.pattern=MIX"`
	MixADVL     float64 `json:"mixADVL" doc:"MIX: share of ADVl traffic" unit:"%" min:"0" max:"100" when:"traffic.pattern=MIX"`
	MixADV      float64 `json:"mixADV" doc:"MIX: share of ADV+i traffic" unit:"%" min:"0" max:"100" when:"traffic.pattern=MIX"`
	MixPerNode  bool    `json:"mixPerNode" doc:"MIX: each node keeps one pattern (otherwise drawn per packet, as FOGSim)" when:"traffic.pattern=MIX"`
	Reactive    bool    `json:"reactive" doc:"request-reply: every request is answered by a reply; requests get half the load" paper:"thesis §1.6.2"`
	SourceQueue bool    `json:"sourceQueue" doc:"keep packets that find the injection buffer full in an unbounded source queue (FOGSim drops the attempt)"`
	// Transient: switch to another pattern during the run.
	SwitchCycle     int    `json:"switchCycle" doc:"TRANSIENT: cycle after warm-up at which the pattern changes (0 = never)" unit:"cycles" min:"0" max:"100000000"`
	SwitchPattern   string `json:"switchPattern" doc:"TRANSIENT: pattern after the switch" enum:"UN,ADV,ADVC,ADVL,MIX" when:"traffic.switchCycle>0"`
	SwitchAdvOffset int    `json:"switchAdvOffset" doc:"TRANSIENT: i of ADV+i after the switch" min:"1" max:"100000" when:"traffic.switchCycle>0"`
}

// Sim controls the run length, seeds and what is recorded.
type Sim struct {
	Warmup   int    `json:"warmup" doc:"warm-up cycles, not measured" unit:"cycles" min:"0" max:"100000000"`
	Cycles   int    `json:"cycles" doc:"measured cycles after warm-up" unit:"cycles" min:"1" max:"100000000"`
	Seed     uint64 `json:"seed" doc:"seed of the first run; run k of a point uses seed+k" min:"0" max:"18446744073709551615"`
	Seeds    int    `json:"seeds" doc:"runs per point, averaged with a 95% confidence interval" min:"1" max:"1000"`
	Interval int    `json:"interval" doc:"time-series interval" unit:"cycles" min:"1" max:"100000000"`
	HistMax  int    `json:"histMax" doc:"latency histogram range (longer latencies go to the last bin)" unit:"cycles" min:"16" max:"1000000"`
	Watchdog int    `json:"watchdog" doc:"deadlock watchdog: stop when nothing moves for this long while packets are in flight" unit:"cycles" min:"100" max:"100000000"`
}

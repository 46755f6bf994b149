package config

// QCNRP is the 802.1Qau reaction points' parameters (routing.qcnRp*) in
// the engine's units, the 0 fields resolved: G_d 1/128; the byte counter's
// 150 KB, the timer's 10 ms, R_AI's 5 Mb/s and R_HAI's 50 Mb/s converted
// with the physical basis (without one, the QCN-Switch paper's Table I
// system at 100-byte phits: 40 Gb/s, 20-ns cycles); the minimum rate R_AI
// (FOGSim v5: g_qcn_min_rate = g_qcn_r_ai); 5 cycles of fast recovery.
// Rates are shares of the link rate (phits/node/cycle). Flows is the
// limiters per node (0: 16); Jitter the byte counter's randomisation, each
// cycle its period times a uniform factor in [1 − Jitter, 1 + Jitter]
// (0: 0.15; negative: none, resolved to 0).
type QCNRP struct {
	On                 bool
	Gd                 float64
	ByteCount          int64 // phits
	Timer              int64 // cycles
	RAI, RHAI, MinRate float64
	FastRecovery       int
	Flows              int
	Jitter             float64
}

// QCNRPFlows and QCNRPJitter are the defaults of routing.qcnRpFlows and
// routing.qcnRpJitter.
const (
	QCNRPFlows  = 16
	QCNRPJitter = 0.15
)

// 802.1Qau's reaction-point constants in physical units (Alizadeh et al.,
// Data Center Transport Mechanisms: Congestion Control Theory and IEEE
// Standardization (the QCN reaction point); the timer's period is FOGSim v5's
// g_qcn_timer_period, 0.01 s).
const (
	QCNRPByteCountBytes = 150000
	QCNRPTimerNs        = 10e6
	QCNRPRaiGbps        = 0.005
	QCNRPRhaiGbps       = 0.05
)

// QCNReaction resolves the reaction points' parameters; they are off with
// the Graph500 job, which generates by its own schedule (a limiter holds
// a node's generation).
func (c *Config) QCNReaction() QCNRP {
	r := &c.Routing
	q := QCNRP{On: r.QcnReactionPoints && c.Workload.Kind != "graph500", Gd: r.QcnRpGd, ByteCount: int64(r.QcnRpByteCount), Timer: int64(r.QcnRpTimer),
		RAI: r.QcnRpRai, RHAI: r.QcnRpRhai, MinRate: r.QcnRpMinRate, FastRecovery: r.QcnRpFastRecovery, Flows: r.QcnRpFlows, Jitter: r.QcnRpJitter}
	phitBytes, cycleNs, gbps := 100.0, 20.0, 40.0
	if b, ok := c.Basis(); ok {
		phitBytes, cycleNs, gbps = float64(b.PhitBytes), b.CycleNs(), b.LinkGbps
	}
	if q.Gd == 0 {
		q.Gd = 1.0 / 128
	}
	if q.ByteCount == 0 {
		q.ByteCount = max(1, int64(QCNRPByteCountBytes/phitBytes+0.5))
	}
	if q.Timer == 0 {
		q.Timer = max(1, int64(QCNRPTimerNs/cycleNs+0.5))
	}
	if q.RAI == 0 {
		q.RAI = QCNRPRaiGbps / gbps
	}
	if q.RHAI == 0 {
		q.RHAI = QCNRPRhaiGbps / gbps
	}
	if q.MinRate == 0 {
		q.MinRate = q.RAI
	}
	if q.FastRecovery == 0 {
		q.FastRecovery = 5
	}
	if q.Flows == 0 {
		q.Flows = QCNRPFlows
	}
	switch {
	case q.Jitter == 0:
		q.Jitter = QCNRPJitter
	case q.Jitter < 0:
		q.Jitter = 0
	}
	return q
}

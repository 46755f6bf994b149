package sim

import (
	"testing"
	"unsafe"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/rng"
)

// The memory estimate (config.Memory) counts the engine's records by the
// sizes config declares; they must be the records' real sizes, so that a
// record that grows (a field added to packet) fails here rather than
// silently weakening the memory guard.
func TestRecordSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		real, cfg uintptr
	}{
		{"sim.packet", unsafe.Sizeof(packet{}), config.PacketBytes},
		{"sim.port", unsafe.Sizeof(port{}), config.PortBytes},
		{"sim.buffer", unsafe.Sizeof(buffer{}), config.BufferBytes},
		{"rng.Stream", unsafe.Sizeof(rng.Stream{}), config.StreamBytes},
		{"result.Sample", unsafe.Sizeof(result.Sample{}), config.SampleBytes},
		{"result.ClassInterval", unsafe.Sizeof(result.ClassInterval{}), config.ClassIntervalBytes},
		{"sim.recnSide", unsafe.Sizeof(recnSide{}), config.RecnSideBytes},
		{"sim.recnLine", unsafe.Sizeof(recnLine{}), config.RecnLineBytes},
		{"sim.recnNode", unsafe.Sizeof(recnNode{}), config.RecnNodeBytes},
		{"sim.recn", unsafe.Sizeof(recn{}), config.RecnBytes},
		{"sim.recnSim", unsafe.Sizeof(recnSim{}), config.RecnSimBytes},
		{"sim.recnMsgNode", unsafe.Sizeof(recnMsgNode{}), config.RecnMsgBytes},
		{"sim.recnWheel", recnWheel, config.RecnWheel},
		{"sim.cbRun", unsafe.Sizeof(cbRun{}), config.CbcmRunBytes},
		{"sim.cbOut", unsafe.Sizeof(cbOut{}), config.CbcmOutBytes},
	} {
		if c.real != c.cfg {
			t.Errorf("%s is %d bytes, config's memory estimate counts %d", c.name, c.real, c.cfg)
		}
	}
}

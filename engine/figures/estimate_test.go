package figures

import (
	"context"
	"syscall"
	"testing"

	"phitsim/engine/sim"
	"phitsim/engine/sweep"
)

// TestEstimateFromCalibration: the gallery's run-time estimate is the
// figure's instructions (packet-hops × the routing's callgrind cost,
// BENCHMARKS.md) over a speed measured by the calibration probe, as the
// page measures its browser's. Natively: the probe's speed, then figure
// 1.6-un (h=2, 6 runs of 11,000 cycles) estimated at it and run; the
// estimate bounds the hops from above (5 per packet, offered not accepted
// load), so it may exceed the run's time by up to 2.5× but never fall below
// half of it. The estimate scales inversely with the speed, and a routing's
// cost enters it.
func TestEstimateFromCalibration(t *testing.T) {
	// the process's CPU time, not the wall clock (the machine is shared),
	// over ten probes (its resolution is a few ms, a probe's CPU time tens)
	var instr, cpu0 float64
	for range 10 {
		s, err := sim.New(CalibrationProbe(), 1)
		if err != nil {
			t.Fatal(err)
		}
		t0 := cpuTime()
		r, err := s.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		cpu0 += cpuTime() - t0
		r.CPUSeconds = 1
		instr += Speed(r) // the probe's instructions, over 1 s
	}
	speed := instr / cpu0
	f, err := ByID("1.6-un")
	if err != nil {
		t.Fatal(err)
	}
	est, err := f.EstimateSecondsAt(speed)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := f.Sweep()
	t0 := cpuTime()
	if _, err := sweep.Run(context.Background(), e.Spec, sweep.Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	cpu := cpuTime() - t0
	t.Logf("probe speed %.2f G instructions/s; figure 1.6-un estimated %.2f s, ran %.2f s (%.2f×)", speed/1e9, est, cpu, est/cpu)
	if est < 0.5*cpu || est > 2.5*cpu {
		t.Errorf("estimate %.2f s against %.2f s run: want within [0.5, 2.5]×", est, cpu)
	}
	half, _ := f.EstimateSecondsAt(speed / 2)
	if d := half/est - 2; d > 1e-9 || d < -1e-9 {
		t.Errorf("at half the speed the estimate is %.3f×, want 2×", half/est)
	}
	if _, err := f.EstimateSecondsAt(0); err == nil {
		t.Error("speed 0: no error")
	}
	// VAL's 1589 instructions per hop against MIN's 1523 enter the sum
	ins, _ := f.Instructions()
	old := InstrPerHop["VAL"]
	InstrPerHop["VAL"] = 2 * old
	more, _ := f.Instructions()
	InstrPerHop["VAL"] = old
	if !(more > ins) {
		t.Errorf("doubling VAL's cost left the figure's instructions at %g (was %g)", more, ins)
	}
}

// cpuTime is the process's user + system CPU time in seconds.
func cpuTime() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

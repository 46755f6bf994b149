package sim

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// TestParallelACORCasesExercised: every ACOR and PB-ACOR configuration of
// TestParallelBitIdentical but FOGSim's model is partitioned, and its
// ACOR-Switch configurations with a short interval move routers up and down the levels within the
// run (ACOR paper §4.2.2: a raise at IT blocked attempts, a fall at the end
// of an interval with at most DT), and the transient one records the
// levels per bin (Fig. 10), or the bit-identity test would not check the
// per-partition raise lists, interval ends and level counts.
func TestParallelACORCasesExercised(t *testing.T) {
	n := 0
	for _, gc := range parallelCases() {
		if !strings.Contains(gc.name, "ACOR") || strings.Contains(gc.name, "fogsim-model") {
			continue
		}
		s, err := New(parallelConfig(t, gc), 1)
		if err != nil {
			t.Fatal(err)
		}
		// every ACOR configuration without FOGSim's idle updates is
		// partitioned (a cycle hook registered without its method
		// expression, say, would keep it sequential, unchecked)
		if why := s.parallelBlocker(); why != "" {
			t.Errorf("%s: runs sequentially: %s", gc.name, why)
		}
		if strings.Contains(gc.name, "packet") || !strings.Contains(strings.Join(gc.sets, " "), "acorHI=") {
			continue
		}
		n++
		var rises, falls int
		prev := append([]uint8(nil), s.acor.level...)
		for s.now < s.W+s.M {
			s.Step()
			for r, lv := range s.acor.level {
				switch {
				case lv > prev[r]:
					rises++
				case lv < prev[r]:
					falls++
				}
				prev[r] = lv
			}
		}
		if rises < 10 || falls < 5 {
			t.Errorf("%s: %d rises and %d falls of a router's level in the run, want at least 10 and 5", gc.name, rises, falls)
		}
		if s.st.trLevels != nil {
			hi := 0
			for i, c := range s.st.trLevels {
				if i%3 > 0 {
					hi += int(c)
				}
			}
			g0 := 0
			for _, lv := range s.st.trGroup {
				g0 = max(g0, int(lv))
			}
			if hi == 0 || g0 < 2 {
				t.Errorf("%s: the transient record has %d router-bins above level 1, group 0's highest level %d", gc.name, hi, g0)
			}
		}
		t.Logf("%s: %d rises, %d falls", gc.name, rises, falls)
	}
	if n < 4 {
		t.Errorf("%d ACOR-Switch configurations with a short interval, want at least 4", n)
	}
}

// TestParallelACORCountersCopied: ACOR's and QCN-Switch's counts (Σ levels
// and routers by level per interval, the transient bins' routers by level,
// the delivered packets by status, CNMs per interval) are each partition's
// own and absorb adds them back, as TestParallelCountersCopied checks the
// others.
func TestParallelACORCountersCopied(t *testing.T) {
	c := parallelConfig(t, goldenCase{"acor", []string{"routing.name=ACOR", "traffic.switchCycle=600", "traffic.switchPattern=ADV", "sim.warmup=300", "sim.cycles=700"}})
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	s.st.sCnm = make([]int64, len(s.st.sDel)) // as QCN-Switch's attach makes it
	part := s.st.partitionCopy()
	slices := func(st *counters) map[string]reflect.Value {
		return map[string]reflect.Value{
			"sLevel": reflect.ValueOf(st.sLevel), "acorStatus": reflect.ValueOf(st.acorStatus), "sCnm": reflect.ValueOf(st.sCnm),
			"sLevels": reflect.ValueOf(st.sLevels), "trLevels": reflect.ValueOf(st.trLevels)}
	}
	run, own := slices(&s.st), slices(&part)
	for name, a := range own {
		if a.Len() == 0 {
			t.Fatalf("%s: empty in this configuration", name)
		}
		if a.Pointer() == run[name].Pointer() {
			t.Errorf("%s: the partition's copy shares the run's counts", name)
		}
		for j := 0; j < a.Len(); j++ {
			a.Index(j).SetInt(1)
		}
	}
	s.st.absorb(&part)
	for name, a := range own {
		r := run[name]
		for j := 0; j < a.Len(); j++ {
			if r.Index(j).Int() != 1 || a.Index(j).Int() != 0 {
				t.Errorf("%s[%d]: absorb left the run %d and the partition %d, want 1 and 0", name, j, r.Index(j).Int(), a.Index(j).Int())
				break
			}
		}
	}
}

// TestParallelACORLevelsGathered: after a partitioned run, the routers by
// level are the network's, as after the sequential run (the partitions
// count their own routers).
func TestParallelACORLevelsGathered(t *testing.T) {
	gc := goldenCase{"ACOR", []string{"routing.name=ACOR", "routing.acorHI=100", "traffic.pattern=ADV", "traffic.load=0.5"}}
	var got [2][3]int32
	for i, threads := range []int{1, 4} {
		s, err := New(parallelConfig(t, gc), 1)
		if err != nil {
			t.Fatal(err)
		}
		s.SetThreads(threads)
		if _, err := s.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		got[i] = s.acor.perLevel
	}
	if got[0] == [3]int32{36, 0, 0} {
		t.Fatalf("every router ends at level 1: the test cannot see a partition's count")
	}
	if got[0] != got[1] {
		t.Errorf("routers by level: sequential %v, 4 partitions %v", got[0], got[1])
	}
}

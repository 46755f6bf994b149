package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// 'phitsim run -threads N' splits each run into N partitions of Dragonfly
// groups (engine/PARALLEL.md): the document is the one-thread document (CPU
// time aside); a negative count is refused.
func TestRunThreadsSameResult(t *testing.T) {
	doc := func(threads string) PointDoc {
		code, out, errOut := cli(t, false, append([]string{"run", "-threads", threads}, tiny...)...)
		var d PointDoc
		if err := json.Unmarshal([]byte(out), &d); code != 0 || err != nil || len(d.Runs) != 2 {
			t.Fatalf("-threads %s: exit %d, %v, stderr %q", threads, code, err, errOut)
		}
		for _, r := range d.Runs {
			if r.Sequential != "" {
				t.Errorf("-threads %s: ran sequentially: %s", threads, r.Sequential)
			}
			r.CPUSeconds = 0
		}
		return d
	}
	one, err := json.Marshal(doc("1"))
	if err != nil {
		t.Fatal(err)
	}
	three, _ := json.Marshal(doc("3"))
	if string(one) != string(three) {
		t.Errorf("-threads 3 and -threads 1 differ")
	}
	code, _, errOut := cli(t, false, append([]string{"run", "-threads", "-1"}, tiny...)...)
	if code == 0 || !strings.Contains(errOut, "-threads") {
		t.Errorf("-threads -1: exit %d, stderr %q", code, errOut)
	}
}

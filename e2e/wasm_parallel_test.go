package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"
)

// The partitioned engine compiled to WebAssembly (run under Node.js, one
// thread: the partitions' goroutines interleave) is bit-identical to the
// sequential engine and to the native build: engine/sim's
// TestParallelMatrix (74 configurations of TestParallelBitIdentical's
// table on 1, 2, 3, 4 and 7 partitions, every partitioned document
// compared byte for byte with the sequential one in the same process)
// prints a checksum of the documents; both builds must print the same.
func TestWasmParallelMatrix(t *testing.T) {
	node, execJS := nodeForWasm(t)
	root := repoRoot(t)
	dir := t.TempDir()
	wasm := filepath.Join(dir, "sim.test.wasm")
	native := filepath.Join(dir, "sim.test")
	for _, b := range []struct {
		out string
		env []string
	}{{native, nil}, {wasm, []string{"GOOS=js", "GOARCH=wasm", "GOWASM=satconv,signext"}}} {
		build := exec.Command("go", "test", "-c", "-o", b.out, "./engine/sim")
		build.Dir = root
		build.Env = append(os.Environ(), b.env...)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("%v %v: %v\n%s", b.env, build.Args, err, out)
		}
	}
	re := regexp.MustCompile(`parallel matrix: ([0-9]+) configurations on 1, 2, 3, 4 and 7 partitions, checksum ([0-9a-f]{16})`)
	reCase := regexp.MustCompile(`parallel matrix case (\S+): checksum ([0-9a-f]{16})`)
	cases := map[string][]string{}
	run := func(name string, cmd *exec.Cmd) []string {
		cmd.Dir = filepath.Join(root, "engine", "sim")
		start := time.Now()
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b)
		}
		for _, c := range reCase.FindAllStringSubmatch(string(b), -1) {
			cases[c[1]] = append(cases[c[1]], c[2])
		}
		m := re.FindStringSubmatch(string(b))
		if m == nil {
			t.Fatalf("%s printed no checksum:\n%s", name, b)
		}
		cpu := 0.0
		if u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			cpu = time.Duration(u.Utime.Nano() + u.Stime.Nano()).Seconds()
		}
		t.Logf("%s: %s configurations, checksum %s: %.1f s wall, %.1f s CPU", name, m[1], m[2], time.Since(start).Seconds(), cpu)
		return m
	}
	args := []string{"-test.run", "^TestParallelMatrix$", "-parmatrix"}
	n := run("native", exec.Command(native, args...))
	w := run("wasm (Node)", exec.Command(node, append([]string{execJS, wasm}, args...)...))
	if n[1] != w[1] || n[2] != w[2] {
		t.Errorf("the partitioned runs differ: native %s configurations, checksum %s; wasm %s, checksum %s", n[1], n[2], w[1], w[2])
		for name, sums := range cases {
			if len(sums) != 2 || sums[0] != sums[1] {
				t.Errorf("%s: native and wasm checksums %v", name, sums)
			}
		}
	}
}

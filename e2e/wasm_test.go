package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
)

func goEnv(t *testing.T, key string) string {
	b, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(regexp.MustCompile(`\s+$`).ReplaceAll(b, nil))
}

// nodeForWasm is Node.js and Go's wasm_exec_node.js, which run a js/wasm
// binary; the test skips under -short, and without Node.js (it fails in CI).
func nodeForWasm(t *testing.T) (node, execJS string) {
	if testing.Short() {
		t.Skip("-short")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed")
		}
		t.Skip("node not installed")
	}
	execJS = filepath.Join(goEnv(t, "GOROOT"), "lib", "wasm", "wasm_exec_node.js")
	if _, err := os.Stat(execJS); err != nil {
		execJS = filepath.Join(goEnv(t, "GOROOT"), "misc", "wasm", "wasm_exec_node.js")
	}
	return node, execJS
}

// The js/wasm programs type-check (also where Chromium is missing).
func TestWasmVet(t *testing.T) {
	cmd := exec.Command("go", "vet", "./site/...", "./wasm/...")
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go vet: %v\n%s", err, b)
	}
}

// The engine compiled to WebAssembly (run under Node.js) gives the same
// results as natively: wasm/bench prints a checksum of its results' JSON.
func TestWasmUnderNode(t *testing.T) {
	node, execJS := nodeForWasm(t)
	root := repoRoot(t)
	dir := t.TempDir()
	wasm := filepath.Join(dir, "bench.wasm")
	native := filepath.Join(dir, "bench")
	build := exec.Command("go", "build", "-o", wasm, "./wasm/bench")
	build.Dir = root
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOWASM=satconv,signext")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	build = exec.Command("go", "build", "-o", native, "./wasm/bench")
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	re := regexp.MustCompile(`total ([0-9.]+) s, ([0-9]+) cycles/s, results checksum ([0-9a-f]+)`)
	run := func(cmd *exec.Cmd) []string {
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", cmd.Args, err, b)
		}
		m := re.FindStringSubmatch(string(b))
		if m == nil {
			t.Fatalf("%v printed %s", cmd.Args, b)
		}
		return m
	}
	n := run(exec.Command(native, "-cycles", "6000"))
	w := run(exec.Command(node, execJS, wasm, "-cycles", "6000"))
	if n[3] != w[3] {
		t.Errorf("results differ: native checksum %s, wasm %s", n[3], w[3])
	}
	var tn, tw float64
	fmt.Sscan(n[1], &tn)
	fmt.Sscan(w[1], &tw)
	t.Logf("engine speed on %s: native %s cycles/s, wasm (Node) %s cycles/s: wasm/native time = %.2f", runtime.GOARCH, n[2], w[2], tw/tn)
}

package main

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestServe(t *testing.T) {
	dir := t.TempDir()
	wasm := []byte("\x00asm fake module")
	os.WriteFile(filepath.Join(dir, "ui.wasm"), wasm, 0o644)
	var gz []byte
	{
		f, _ := os.Create(filepath.Join(dir, "ui.wasm.gz"))
		zw := gzip.NewWriter(f)
		zw.Write(wasm)
		zw.Close()
		f.Close()
		gz, _ = os.ReadFile(filepath.Join(dir, "ui.wasm.gz"))
	}
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html>"), 0o644)
	srv := httptest.NewServer(handler(dir))
	defer srv.Close()
	get := func(path, enc string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", enc)
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, b
	}
	res, b := get("/ui.wasm", "gzip, deflate")
	if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Content-Type") != "application/wasm" || string(b) != string(gz) {
		t.Errorf("gzip: %v %q", res.Header, b)
	}
	if res.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("cache: %v", res.Header)
	}
	res, b = get("/ui.wasm", "identity")
	if res.Header.Get("Content-Encoding") != "" || res.Header.Get("Content-Type") != "application/wasm" || string(b) != string(wasm) {
		t.Errorf("plain: %v %q", res.Header, b)
	}
	res, b = get("/ui.wasm", "gzip;q=0")
	if res.Header.Get("Content-Encoding") != "" || string(b) != string(wasm) {
		t.Errorf("q=0 ignored: %v", res.Header)
	}
	// the icon a browser asks for on every page (static/favicon.ico)
	ico, _ := os.ReadFile("static/favicon.ico")
	os.WriteFile(filepath.Join(dir, "favicon.ico"), ico, 0o644)
	res, b = get("/favicon.ico", "gzip")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/x-icon" || len(ico) == 0 || string(b) != string(ico) {
		t.Errorf("favicon.ico: %d %v (%d bytes)", res.StatusCode, res.Header, len(b))
	}
	res, b = get("/", "gzip")
	if res.StatusCode != 200 || string(b) != "<!doctype html>" || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("index: %d %v %q", res.StatusCode, res.Header, b)
	}
	for _, p := range []string{"/nope.js", "/ui.wasm.gz", "/../serve.go"} {
		if res, _ = get(p, "gzip"); res.StatusCode != 404 {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
	}
}

// TestServeNotBuilt runs the server's main in a child process (this test
// binary again) on folders without a built site: it must exit with status 1,
// name the missing file and the folder, tell to run ./build.sh, and not start
// serving.
func TestServeNotBuilt(t *testing.T) {
	if os.Getenv("PHITSIM_SERVE_MAIN") == "1" {
		os.Args = append([]string{"serve"}, strings.Fields(os.Getenv("PHITSIM_SERVE_ARGS"))...)
		main()
		return
	}
	empty := t.TempDir()
	partial := t.TempDir() // index.html and ui.wasm, no worker
	os.WriteFile(filepath.Join(partial, "index.html"), []byte("<!doctype html>"), 0o644)
	os.WriteFile(filepath.Join(partial, "ui.wasm"), []byte("\x00asm"), 0o644)
	for _, c := range []struct{ dir, missing string }{
		{empty, "index.html"},
		{partial, "worker.wasm"},
		{filepath.Join(empty, "no-such-folder"), "index.html"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestServeNotBuilt$")
		cmd.Env = append(os.Environ(), "PHITSIM_SERVE_MAIN=1", "PHITSIM_SERVE_ARGS=-port 0 -dir "+c.dir)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
		var err error
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Fatalf("-dir %s: the server started on a folder without a built site; stdout %q", c.dir, stdout.String())
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Errorf("-dir %s: %v, want exit status 1", c.dir, err)
		}
		want := fmt.Sprintf("serve: %s is missing from %s: build the site first with ./build.sh\n", c.missing, c.dir)
		if stderr.String() != want {
			t.Errorf("-dir %s: stderr %q, want %q", c.dir, stderr.String(), want)
		}
		if strings.Contains(stdout.String(), "http://") {
			t.Errorf("-dir %s: printed a URL: %q", c.dir, stdout.String())
		}
	}
}

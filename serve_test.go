package main

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
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
	if res.Header.Get("Content-Encoding") != "" {
		t.Errorf("q=0 ignored")
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

// Command serve serves the built site (./build.sh) for development:
//
//	go run serve.go [-port 8080] [-dir dist]
//
// It serves application/wasm, sends the precompressed .gz copy of a file
// when the browser accepts gzip, and tells the browser not to cache.
package main

import (
	"flag"
	"fmt"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

func main() {
	port := flag.Int("port", 8080, "TCP port (0 = any free port)")
	dir := flag.String("dir", "dist", "folder built by ./build.sh")
	host := flag.String("host", "localhost", "address to listen on")
	flag.Parse()
	for _, f := range []string{"index.html", "ui.wasm", "worker.wasm", "wasm_exec.js", "echarts.min.js"} {
		if _, err := os.Stat(filepath.Join(*dir, f)); err != nil {
			fmt.Fprintf(os.Stderr, "serve: %s is missing from %s: build the site first with ./build.sh\n", f, *dir)
			os.Exit(1)
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, fmt.Sprint(*port)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "serve: %v\n", err)
		os.Exit(1)
	}
	addr := ln.Addr().String()
	if *host == "localhost" {
		addr = fmt.Sprintf("localhost:%d", ln.Addr().(*net.TCPAddr).Port)
	}
	fmt.Printf("phitsim: serving %s at http://%s/\n", *dir, addr)
	log.Fatal(http.Serve(ln, handler(*dir)))
}

func handler(dir string) http.Handler {
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	_ = mime.AddExtensionType(".js", "text/javascript; charset=utf-8")
	// not in Go's built-in table; /etc/mime.types may lack it too
	_ = mime.AddExtensionType(".ico", "image/x-icon")
	files := http.Dir(dir)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		name := path.Clean("/" + r.URL.Path)
		if strings.HasSuffix(name, "/") {
			name += "index.html"
		}
		if strings.HasSuffix(name, ".gz") {
			http.NotFound(w, r)
			return
		}
		ctype := mime.TypeByExtension(path.Ext(name))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		w.Header().Set("Vary", "Accept-Encoding")
		if acceptsGzip(r) && isFile(files, name+".gz") {
			w.Header().Set("Content-Encoding", "gzip")
			serveFile(w, r, files, name+".gz", name, ctype)
			return
		}
		if !isFile(files, name) {
			http.NotFound(w, r)
			return
		}
		serveFile(w, r, files, name, name, ctype)
	})
}

func isFile(files http.FileSystem, name string) bool {
	f, err := files.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	return err == nil && !st.IsDir()
}

func serveFile(w http.ResponseWriter, r *http.Request, files http.FileSystem, fname, name, ctype string) {
	f, err := files.Open(fname)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", ctype)
	http.ServeContent(w, r, name, st.ModTime(), f)
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(enc), "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

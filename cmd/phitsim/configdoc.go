package main

import (
	"io"
	"os"
)

// maxConfigFile bounds what -config reads: a configuration is a few KiB, a
// sweep's result document up to the results bound (sweep.MaxResultsBytes,
// 560 MiB) and some; -config /dev/zero must not read forever.
const maxConfigFile = 1 << 30

// readLimited reads at most limit+1 bytes of the file (the caller refuses
// more than limit).
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}

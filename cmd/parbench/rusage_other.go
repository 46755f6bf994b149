//go:build !unix

package main

// cpuSeconds: no getrusage here; the CPU column reads 0.
func cpuSeconds() float64 { return 0 }

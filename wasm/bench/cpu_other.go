//go:build !unix && !js

package main

// cpuSeconds is not available here: 0, and only wall time is printed.
func cpuSeconds() float64 { return 0 }

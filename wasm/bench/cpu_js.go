//go:build js

package main

import "syscall/js"

// cpuSeconds is the Node.js process's user + system CPU time
// (process.cpuUsage, in µs); 0 outside Node.js (a browser has none).
func cpuSeconds() float64 {
	p := js.Global().Get("process")
	if p.Type() != js.TypeObject || p.Get("cpuUsage").Type() != js.TypeFunction {
		return 0
	}
	u := p.Call("cpuUsage")
	return (u.Get("user").Float() + u.Get("system").Float()) / 1e6
}

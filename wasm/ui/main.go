//go:build js && wasm

// Command ui is the page's application (package site/ui), compiled to
// WebAssembly and started by static/boot.js.
package main

import "phitsim/site/ui"

func main() { ui.Main() }

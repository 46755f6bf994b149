//go:build js && wasm

// Command worker is the engine in a Web Worker. static/worker.js loads it and
// hands it the messages of the page: msgpack documents of package
// site/protocol. Each Start runs on its own goroutine, which yields to the
// JavaScript event loop every ~200 ms so that a Cancel message is delivered
// while it runs.
package main

import (
	"context"
	"sync"
	"syscall/js"
	"time"

	"phitsim/engine/result"
	"phitsim/site/protocol"
)

var (
	mu   sync.Mutex
	jobs = map[uint64]context.CancelFunc{}
	self = js.Global()
)

func post(m *protocol.Message) {
	b, err := protocol.Encode(m)
	if err != nil {
		b, _ = protocol.Encode(&protocol.Message{Type: protocol.Error, ID: m.ID,
			Error: &protocol.ErrorInfo{Kind: protocol.KindProtocol, Msg: "encode: " + err.Error()}})
	}
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	self.Call("postMessage", u8, []any{u8.Get("buffer")})
}

// yield lets the event loop deliver messages (a timer round trip).
func yield() { time.Sleep(time.Millisecond) }

func handle(data js.Value) {
	if !data.InstanceOf(js.Global().Get("Uint8Array")) {
		post(&protocol.Message{Type: protocol.Error, Error: &protocol.ErrorInfo{Kind: protocol.KindProtocol, Msg: "message is not a Uint8Array"}})
		return
	}
	b := make([]byte, data.Get("byteLength").Int())
	js.CopyBytesToGo(b, data)
	m, err := protocol.Decode(b)
	if err != nil {
		id := uint64(0)
		if m != nil {
			id = m.ID
		}
		post(&protocol.Message{Type: protocol.Error, ID: id, Error: &protocol.ErrorInfo{Kind: protocol.KindProtocol, Msg: err.Error()}})
		return
	}
	switch m.Type {
	case protocol.Start:
		if m.Start == nil {
			post(&protocol.Message{Type: protocol.Error, ID: m.ID, Error: &protocol.ErrorInfo{Kind: protocol.KindProtocol, Msg: "start without a job"}})
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		mu.Lock()
		jobs[m.ID] = cancel
		mu.Unlock()
		go func() {
			protocol.Execute(ctx, m.ID, m.Start, post, yield)
			mu.Lock()
			delete(jobs, m.ID)
			mu.Unlock()
			cancel()
		}()
	case protocol.Cancel:
		mu.Lock()
		if c := jobs[m.ID]; c != nil {
			c()
		}
		mu.Unlock()
	case protocol.Crash:
		// an unrecovered panic ends the Go program: the page must notice,
		// report the job and replace the worker
		go func() { panic("crash requested by the page") }()
	default:
		post(&protocol.Message{Type: protocol.Error, ID: m.ID, Error: &protocol.ErrorInfo{Kind: protocol.KindProtocol, Msg: "unexpected message " + m.Type.String()}})
	}
}

func main() {
	onMessage := js.FuncOf(func(this js.Value, args []js.Value) any {
		handle(args[0])
		return nil
	})
	// worker.js queued the messages that arrived while we loaded
	js.Global().Call("phitsimWorkerReady", onMessage)
	post(&protocol.Message{Type: protocol.Ready, Engine: result.EngineVersion})
	select {}
}

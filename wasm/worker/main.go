//go:build js && wasm

// Command worker is the engine in a Web Worker. static/worker.js loads it and
// hands it the messages of the page: msgpack documents of package
// site/protocol. Each Start runs on its own goroutine, which yields to the
// JavaScript event loop every ~200 ms so that a Cancel message is delivered
// while it runs. A run split across workers (protocol.StartJob.Parts) comes
// as a Start with a MessagePort to each other partition's worker, which is
// sent a Part message with its port: the workers exchange the partitions'
// windows (engine/sim/remote.go) over these ports.
package main

import (
	"context"
	"strconv"
	"sync"
	"syscall/js"
	"time"

	"phitsim/engine/result"
	"phitsim/engine/sim"
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

// portLink is a sim.Link over a MessagePort: Send posts the bytes
// (transferred), Recv waits for the next message, or for the run's
// cancellation.
type portLink struct {
	ctx  context.Context
	port js.Value
	in   chan []byte
	f    js.Func
}

func newPortLink(ctx context.Context, port js.Value) *portLink {
	// one message at most is on its way each way (a command, then its
	// answer), so the callback never blocks
	l := &portLink{ctx: ctx, port: port, in: make(chan []byte, 16)}
	l.f = js.FuncOf(func(_ js.Value, args []js.Value) any {
		d := args[0].Get("data")
		b := make([]byte, d.Get("byteLength").Int())
		js.CopyBytesToGo(b, d)
		l.in <- b
		return nil
	})
	port.Set("onmessage", l.f) // starts the port
	return l
}

func (l *portLink) Send(msg []byte) error {
	u8 := js.Global().Get("Uint8Array").New(len(msg))
	js.CopyBytesToJS(u8, msg)
	l.port.Call("postMessage", u8, []any{u8.Get("buffer")})
	return nil
}

func (l *portLink) Recv() ([]byte, error) {
	select {
	case b := <-l.in:
		return b, nil
	case <-l.ctx.Done():
		return nil, sim.ErrCancelled
	}
}

// stop listens no more (messages posted before stay delivered to the
// other side).
func (l *portLink) stop() {
	l.port.Set("onmessage", js.Null())
	l.f.Release()
}

func handle(data js.Value, ports []js.Value) {
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
		if parts := m.Start.Parts; parts > 1 && len(ports) != parts-1 || parts <= 1 && len(ports) != 0 {
			post(&protocol.Message{Type: protocol.Error, ID: m.ID, Error: &protocol.ErrorInfo{Kind: protocol.KindProtocol,
				Msg: "a run of " + itoa(parts) + " parts with " + itoa(len(ports)) + " ports"}})
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		mu.Lock()
		jobs[m.ID] = cancel
		mu.Unlock()
		var links []sim.Link
		var pls []*portLink
		for _, p := range ports {
			l := newPortLink(ctx, p)
			links, pls = append(links, l), append(pls, l)
		}
		go func() {
			protocol.ExecuteSplit(ctx, m.ID, m.Start, post, yield, links)
			for _, l := range pls {
				l.stop()
			}
			mu.Lock()
			delete(jobs, m.ID)
			mu.Unlock()
			cancel()
		}()
	case protocol.Part:
		if m.Start == nil || len(ports) != 1 {
			post(&protocol.Message{Type: protocol.Error, ID: m.ID, Error: &protocol.ErrorInfo{Kind: protocol.KindProtocol, Msg: "a partition without a job or its port"}})
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		mu.Lock()
		jobs[m.ID] = cancel
		mu.Unlock()
		l := newPortLink(ctx, ports[0])
		go func() {
			defer func() {
				l.stop()
				ports[0].Call("close")
				mu.Lock()
				delete(jobs, m.ID)
				mu.Unlock()
				cancel()
				post(&protocol.Message{Type: protocol.PartDone, ID: m.ID})
			}()
			pt, err := protocol.NewPartition(m.Start)
			if err != nil {
				// the page ends the run with this message
				post(&protocol.Message{Type: protocol.Error, ID: m.ID, Error: &protocol.ErrorInfo{Kind: protocol.KindEngine, Msg: err.Error()}})
				return
			}
			for {
				select {
				case cmd := <-l.in:
					ans, done := pt.Handle(cmd)
					if done {
						return
					}
					l.Send(ans)
				case <-ctx.Done():
					return
				}
			}
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

func itoa(n int) string { return strconv.Itoa(n) }

func main() {
	onMessage := js.FuncOf(func(this js.Value, args []js.Value) any {
		var ports []js.Value
		if len(args) > 1 && args[1].Truthy() {
			for i := range args[1].Length() {
				ports = append(ports, args[1].Index(i))
			}
		}
		handle(args[0], ports)
		return nil
	})
	// worker.js queued the messages that arrived while we loaded
	js.Global().Call("phitsimWorkerReady", onMessage)
	post(&protocol.Message{Type: protocol.Ready, Engine: result.EngineVersion})
	select {}
}

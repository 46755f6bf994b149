//go:build js && wasm

package ui

import (
	"syscall/js"
	"time"

	"phitsim/site/experiment"
	"phitsim/site/protocol"
)

// Pool runs jobs on Web Workers (static/worker.js + worker.wasm), as many as
// navigator.hardwareConcurrency. The compiled worker module is shared, so a
// replacement worker starts in a few milliseconds.
type Pool struct {
	size    int
	module  js.Value // WebAssembly.Module, or null (workers fetch it themselves)
	workers []*worker
	queue   []int // job indices waiting
	jobs    []experiment.Job
	nextID  uint64
	// callbacks (called on the UI goroutine)
	onMsg   func(job int, m *protocol.Message)
	onCrash func(job int, why string)
	// Watch is the job whose run sends the live view's snapshots (−1: none)
	Watch int
	// Split is the most workers one run is split across (the page's
	// "workers per run"; 1: each run on one worker). A run takes the
	// workers the queued runs leave (runs first, then workers, as
	// engine/PARALLEL.md shares cores between runs and threads), at most
	// as many as it can use with profit (sim.UsefulPartitions; the rule
	// is protocol.RunWorkers), the watched run as any other: split, it
	// sends the one-worker run's snapshots (protocol.ExecuteSplit). The
	// results do not depend on it.
	Split int
	// counters for the page's debug panel and tests
	Started, Crashes, Replaced, CancelAcks, Terminated int
	// SplitRuns counts the runs started across several workers
	SplitRuns int
	// bootFailures counts workers in a row that died before Ready; past
	// maxBootFailures the pool stops replacing them (worker.wasm missing or
	// not loadable) and reports Broken.
	bootFailures int
	Broken       string
}

const maxBootFailures = 4

type worker struct {
	w       js.Value
	ready   bool
	job     int    // −1: idle
	id      uint64 // message ID of the running job
	funcs   []js.Func
	dead    bool
	stopped bool // asked to cancel
	// part: the worker runs a partition of job (message ID id) for the
	// run's coordinator, the worker that got its Start; partners: the
	// coordinator's partition workers
	part     bool
	partners []*worker
}

// NewPool starts size workers once the worker module (a Promise of a
// WebAssembly.Module, or undefined: each worker then fetches worker.wasm)
// is compiled.
func NewPool(size int, module js.Value, onMsg func(int, *protocol.Message), onCrash func(int, string)) *Pool {
	p := &Pool{size: size, module: js.Null(), onMsg: onMsg, onCrash: onCrash, Watch: -1}
	start := func() {
		for i := 0; i < size; i++ {
			p.workers = append(p.workers, p.spawn())
		}
		p.dispatch()
	}
	if module.IsUndefined() || module.IsNull() {
		start()
		return p
	}
	var ok, fail js.Func
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ok.Release()
		fail.Release()
		p.module = args[0]
		start()
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ok.Release()
		fail.Release()
		start() // the workers fetch and compile worker.wasm themselves
		return nil
	})
	module.Call("then", ok, fail)
	return p
}

func (p *Pool) spawn() *worker {
	w := &worker{job: -1}
	w.w = js.Global().Get("Worker").New("worker.js")
	p.Started++
	onMessage := js.FuncOf(func(this js.Value, args []js.Value) any {
		p.message(w, args[0].Get("data"))
		return nil
	})
	onError := js.FuncOf(func(this js.Value, args []js.Value) any {
		msg := "worker error"
		if m := args[0].Get("message"); m.Type() == js.TypeString {
			msg = m.String()
		}
		p.crashed(w, msg)
		return nil
	})
	w.funcs = []js.Func{onMessage, onError}
	w.w.Set("onmessage", onMessage)
	w.w.Set("onerror", onError)
	init := js.Global().Get("Object").New()
	init.Set("wasmModule", p.module)
	w.w.Call("postMessage", init)
	return w
}

func (p *Pool) message(w *worker, data js.Value) {
	if w.dead {
		return
	}
	if !data.InstanceOf(js.Global().Get("Uint8Array")) {
		// worker.js status objects
		if e := data.Get("bootError"); e.Type() == js.TypeString {
			p.crashed(w, "worker failed to start: "+e.String())
		} else if data.Get("exited").Truthy() {
			p.crashed(w, "the engine exited (crash)")
		}
		return
	}
	b := make([]byte, data.Get("byteLength").Int())
	js.CopyBytesToGo(b, data)
	m, err := protocol.Decode(b)
	if err != nil {
		p.crashed(w, "bad message from worker: "+err.Error())
		return
	}
	switch m.Type {
	case protocol.Ready:
		w.ready = true
		p.bootFailures = 0
		p.dispatch()
		return
	}
	if m.ID != w.id || w.job < 0 {
		return // a late message of a cancelled job
	}
	if w.part {
		switch m.Type {
		case protocol.PartDone:
			w.job, w.part, w.stopped = -1, false, false
			p.dispatch()
		case protocol.Error: // it could not build its partition: the run fails
			why := "a partition worker failed"
			if m.Error != nil {
				why = m.Error.Msg
			}
			p.partFailed(w, why)
		}
		return
	}
	job := w.job
	switch m.Type {
	case protocol.Result, protocol.Error:
		if m.Type == protocol.Error && m.Error != nil && m.Error.Kind == protocol.KindCancelled {
			p.CancelAcks++
		}
		stopped := w.stopped
		w.job, w.stopped = -1, false
		if !stopped {
			p.onMsg(job, m)
		}
		p.dispatch()
	case protocol.Progress, protocol.Snapshot:
		if !w.stopped {
			p.onMsg(job, m)
		}
	}
}

// crashed reports the worker's job as failed, and replaces the worker.
func (p *Pool) crashed(w *worker, why string) {
	if w.dead {
		return
	}
	p.Crashes++
	job := w.job
	if !w.ready {
		p.bootFailures++
	}
	if p.bootFailures >= maxBootFailures {
		w.dead = true
		w.w.Call("terminate")
		if p.Broken == "" {
			p.Broken = why
			// fail what is queued, so that the page does not wait forever
			q := append([]int(nil), p.queue...)
			p.queue = p.queue[:0]
			for _, i := range q {
				p.onCrash(i, "the engine workers cannot start: "+why)
			}
		}
		return
	}
	part := w.part
	if part {
		p.partFailed(w, why)
	}
	for _, h := range w.partners { // its partitions wait for commands no more
		if !h.dead && h.part && h.id == w.id && h.job >= 0 {
			h.stopped = true
			p.send(h, &protocol.Message{Type: protocol.Cancel, ID: h.id})
		}
	}
	p.replace(w)
	if job >= 0 && !w.stopped && !part {
		p.onCrash(job, why)
	}
	p.dispatch()
}

// partFailed ends the run that partition worker w belonged to: its
// coordinator is cancelled (its other partitions closed by it), the job
// reported failed with why.
func (p *Pool) partFailed(w *worker, why string) {
	for _, c := range p.workers {
		if c != w && !c.dead && !c.part && c.id == w.id && c.job == w.job && !c.stopped {
			// the run is over for the page now: the coordinator stops
			// within a window, its late answer is dropped (job −1)
			job := c.job
			p.send(c, &protocol.Message{Type: protocol.Cancel, ID: c.id})
			c.job = -1
			p.onCrash(job, "a partition of the run failed: "+why)
		}
	}
}

func (p *Pool) replace(w *worker) {
	w.dead = true
	w.w.Call("terminate")
	for _, f := range w.funcs {
		f.Release()
	}
	for i, x := range p.workers {
		if x == w {
			p.workers[i] = p.spawn()
			p.Replaced++
		}
	}
}

func (p *Pool) send(w *worker, m *protocol.Message) {
	b, err := protocol.Encode(m)
	if err != nil {
		panic(err)
	}
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	w.w.Call("postMessage", u8, []any{u8.Get("buffer")})
}

// Run queues jobs (indices into jobs).
func (p *Pool) Run(jobs []experiment.Job) {
	p.jobs = jobs
	p.queue = p.queue[:0]
	for i := range jobs {
		p.queue = append(p.queue, i)
	}
	p.dispatch()
}

// Add queues more jobs of the same run (indices into jobs, which holds
// every job so far: Results.MoreSeeds appended them).
func (p *Pool) Add(jobs []experiment.Job, idx []int) {
	p.jobs = jobs
	p.queue = append(p.queue, idx...)
	p.dispatch()
}

func (p *Pool) dispatch() {
	for len(p.queue) > 0 {
		var idle []*worker
		for _, w := range p.workers {
			if w.ready && w.job < 0 && !w.dead {
				idle = append(idle, w)
			}
		}
		if len(idle) == 0 {
			return
		}
		i := p.queue[0]
		k := protocol.RunWorkers(&p.jobs[i].Config, p.Split, len(p.workers), len(p.queue))
		if k > len(idle) {
			booting := 0
			for _, w := range p.workers {
				if !w.ready && !w.dead {
					booting++
				}
			}
			if booting > 0 && len(idle)+booting >= k {
				return // the page just opened: Ready dispatches again
			}
			k = len(idle)
		}
		p.queue = p.queue[1:]
		j := p.jobs[i]
		p.nextID++
		w := idle[0]
		w.job, w.id, w.stopped, w.part, w.partners = i, p.nextID, false, false, nil
		start := &protocol.StartJob{Config: j.Config, Seed: j.Seed, Load: j.Load(), ProgressMillis: 250, Snapshots: p.snapshots(i)}
		if k <= 1 {
			p.send(w, &protocol.Message{Type: protocol.Start, ID: w.id, Start: start})
			continue
		}
		// split across k workers: a MessageChannel between the
		// coordinator (w) and each other partition's worker
		start.Parts = k
		p.SplitRuns++
		var ports []js.Value
		for h := 1; h < k; h++ {
			ch := js.Global().Get("MessageChannel").New()
			hw := idle[h]
			hw.job, hw.id, hw.stopped, hw.part, hw.partners = i, w.id, false, true, nil
			w.partners = append(w.partners, hw)
			pj := *start
			pj.Part = h
			p.sendPorts(hw, &protocol.Message{Type: protocol.Part, ID: w.id, Start: &pj}, ch.Get("port2"))
			ports = append(ports, ch.Get("port1"))
		}
		p.sendPorts(w, &protocol.Message{Type: protocol.Start, ID: w.id, Start: start}, ports...)
	}
}

// sendPorts is send with MessagePorts transferred along.
func (p *Pool) sendPorts(w *worker, m *protocol.Message, ports ...js.Value) {
	b, err := protocol.Encode(m)
	if err != nil {
		panic(err)
	}
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	transfer := []any{u8.Get("buffer")}
	for _, pt := range ports {
		transfer = append(transfer, pt)
	}
	w.w.Call("postMessage", u8, transfer)
}

// Helping is the number of workers running a partition of another's run.
func (p *Pool) Helping() int {
	n := 0
	for _, w := range p.workers {
		if w.part && w.job >= 0 && !w.dead {
			n++
		}
	}
	return n
}

// Stopping counts the workers of cancelled jobs that have yet to
// acknowledge (or be replaced).
func (p *Pool) Stopping() int {
	n := 0
	for _, w := range p.workers {
		if w.stopped && w.job >= 0 && !w.dead {
			n++
		}
	}
	return n
}

// Busy tells whether jobs are queued or running (a run's result is its
// coordinator's: the partitions' workers are not counted, nor a cancelled
// job's worker that has yet to acknowledge: the next experiment may start
// at once, and ends when its own runs do).
func (p *Pool) Busy() bool {
	if p.Broken != "" {
		for _, w := range p.workers {
			if w.job >= 0 && !w.dead {
				return true
			}
		}
		return false
	}
	if len(p.queue) > 0 {
		return true
	}
	for _, w := range p.workers {
		// a partition's worker finishes after its run's result (the
		// coordinator closed it): the run is over, the worker soon idle
		if w.job >= 0 && !w.part && !w.stopped {
			return true
		}
	}
	return false
}

// cancelGrace is how long a cancelled worker has to acknowledge before it
// is terminated and replaced: the engine stops within ~0.1 s of CPU, but a
// split run's workers on an oversubscribed machine may wait seconds for a
// core (the page has stopped listening at once either way).
const cancelGrace = 3 * time.Second

// Cancel drops the queue and stops every running job at once: each worker is
// sent a Cancel message (the engine stops within ~0.1 s and acknowledges);
// a worker that has not acknowledged after cancelGrace is terminated and
// replaced. The page stops listening to the cancelled jobs immediately.
func (p *Pool) Cancel() {
	p.queue = p.queue[:0]
	for _, w := range p.workers {
		if w.job < 0 || w.dead {
			continue
		}
		w.stopped = true
		p.send(w, &protocol.Message{Type: protocol.Cancel, ID: w.id})
		w, id := w, w.id
		time.AfterFunc(cancelGrace, func() {
			if !w.dead && w.job >= 0 && w.id == id {
				p.Terminated++
				p.replace(w)
			}
		})
	}
}

// CrashOne makes a busy worker crash on purpose (for tests of recovery).
func (p *Pool) CrashOne() bool {
	for _, w := range p.workers {
		if w.job >= 0 && !w.dead {
			p.send(w, &protocol.Message{Type: protocol.Crash})
			return true
		}
	}
	return false
}

// CrashPart makes a worker running a partition of a split run crash on
// purpose (tests: the run fails with the crash's message).
func (p *Pool) CrashPart() bool {
	for _, w := range p.workers {
		if w.part && w.job >= 0 && !w.dead {
			p.send(w, &protocol.Message{Type: protocol.Crash})
			return true
		}
	}
	return false
}

// Size is the number of workers.
func (p *Pool) Size() int { return p.size }

// snapshots asks the watched job (Watch) for the live view's frames.
func (p *Pool) snapshots(job int) int {
	if job == p.Watch {
		return netFrames
	}
	return 0
}

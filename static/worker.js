// Web Worker bootstrap: loads the engine (worker.wasm, Go) and passes it the
// page's messages. The page sends {wasmModule} first (a compiled
// WebAssembly.Module, or null to fetch worker.wasm here); messages that
// arrive before Go is running are queued. A message's transferred
// MessagePorts (a run split across workers: the coordinator's links to the
// other partitions, or a partition's link to the coordinator) go along.
importScripts('wasm_exec.js');
const queue = [];
let deliver = null;
let booted = false;
self.onmessage = (e) => {
  const d = e.data;
  if (!booted && d && typeof d === 'object' && 'wasmModule' in d) {
    booted = true;
    boot(d.wasmModule).catch((err) => self.postMessage({ bootError: String(err && err.stack || err) }));
    return;
  }
  const ports = e.ports ? [...e.ports] : [];
  if (deliver) deliver(d, ports); else queue.push([d, ports]);
};
// Called by Go's main with its message handler.
self.phitsimWorkerReady = (fn) => {
  deliver = (d, ports) => fn(d, ports);
  while (queue.length) deliver(...queue.shift());
};
async function boot(module) {
  const go = new Go();
  let instance;
  if (module) {
    instance = await WebAssembly.instantiate(module, go.importObject);
  } else {
    try {
      instance = (await WebAssembly.instantiateStreaming(fetch('worker.wasm'), go.importObject)).instance;
    } catch (e) { // a host that does not send application/wasm
      const bytes = await (await fetch('worker.wasm')).arrayBuffer();
      instance = (await WebAssembly.instantiate(bytes, go.importObject)).instance;
    }
  }
  await go.run(instance);
  // The Go program never returns on its own: it exited (panic or crash).
  self.postMessage({ exited: true, code: go.exitCode === undefined ? null : go.exitCode });
}

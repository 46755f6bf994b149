// Starts the page: compiles the engine worker module once (shared by all
// workers of the pool) and runs the UI (ui.wasm, Go + vecty) when ECharts
// and the DOM are ready.
(function () {
  'use strict';
  const show = (msg) => {
    const el = document.getElementById('loading');
    if (el) { el.textContent = msg; el.classList.add('error'); }
  };
  if (typeof WebAssembly !== 'object') {
    document.addEventListener('DOMContentLoaded', () => show('This browser has no WebAssembly: phitsim cannot run here.'));
    return;
  }
  const compile = (url) => (WebAssembly.compileStreaming
    ? WebAssembly.compileStreaming(fetch(url))
    : fetch(url).then((r) => r.arrayBuffer()).then((b) => WebAssembly.compile(b)));
  // Both downloads start at once; the UI waits for the worker module.
  const worker = compile('worker.wasm');
  const ui = compile('ui.wasm');
  const dom = new Promise((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', resolve, { once: true });
  });
  Promise.all([ui, worker, dom]).then(async ([uiModule, workerModule]) => {
    window.phitsimWorkerModule = workerModule;
    const go = new Go();
    const instance = await WebAssembly.instantiate(uiModule, go.importObject);
    await go.run(instance);
    show('phitsim stopped unexpectedly; reload the page.');
  }).catch((err) => {
    console.error(err);
    show('phitsim failed to load: ' + err);
  });
})();
